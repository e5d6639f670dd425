package io.sluice.plugin.hive;

import io.sluice.spi.Payload;

import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.table.expressions.CallExpression;
import org.apache.flink.table.expressions.FieldReferenceExpression;
import org.apache.flink.table.expressions.ResolvedExpression;
import org.apache.flink.table.expressions.ValueLiteralExpression;
import org.apache.flink.table.functions.BuiltInFunctionDefinitions;
import org.apache.flink.table.functions.FunctionDefinition;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Partition pruning from a query's {@code WHERE} where the planner does not prune: a streaming
 * read, whose partitions come after planning (a bounded read's partitions are pruned by the
 * planner itself, {@link HivePartitionListing}). Each conjunct made of comparisons ({@code =},
 * {@code <>}, {@code <}, {@code <=}, {@code >}, {@code >=}, {@code IN}) of a partition column with
 * a literal, combined by {@code AND}, {@code OR} and {@code NOT}, is kept in its own small form and
 * evaluated on each partition's values; a partition is skipped when one of them is surely false
 * for it. A part this cannot evaluate (a function, a cast, a column of another type, the default
 * partition in a numeric column) is "cannot tell", which never skips a partition: Flink applies
 * every filter to the rows anyway, so this only has to keep at least the partitions that match.
 *
 * <p>String columns compare with string literals as Flink compares strings (their UTF-8 bytes,
 * unsigned), integer columns with integer literals by value; a column of another type (a boolean,
 * a date) cannot tell. The payload goes from the
 * client to the planner in the job graph; it is not state. Version 2 is this tree; version 1 (the
 * values each column may take) is still read.
 */
final class HivePartitionFilters {

    static final int VERSION = 2;

    /** The first version: per pinned column, the values it may take. */
    private static final int VERSION_ALLOWED_VALUES = 1;

    /** Column types compared as strings. */
    private static final Set<LogicalTypeRoot> STRINGS = EnumSet.of(LogicalTypeRoot.VARCHAR);

    /** Column types compared as integers. */
    private static final Set<LogicalTypeRoot> INTEGERS = EnumSet.of(
            LogicalTypeRoot.TINYINT, LogicalTypeRoot.SMALLINT, LogicalTypeRoot.INTEGER, LogicalTypeRoot.BIGINT);

    // node tags of the payload
    private static final byte AND = 1;
    private static final byte OR = 2;
    private static final byte NOT = 3;
    private static final byte COMPARE = 4;
    private static final byte CANNOT_TELL = 5;

    // comparisons
    private static final byte EQ = 1;
    private static final byte NE = 2;
    private static final byte LT = 3;
    private static final byte LE = 4;
    private static final byte GT = 5;
    private static final byte GE = 6;

    // how a comparison compares
    private static final byte AS_TEXT = 1; // = of the printed value: version 1's, read only
    private static final byte AS_STRING = 2;
    private static final byte AS_INTEGER = 3;

    /** The conjuncts, each a tree this class evaluates. */
    private final List<Node> conjuncts;

    private HivePartitionFilters(List<Node> conjuncts) {
        this.conjuncts = conjuncts;
    }

    /** The conjuncts that say something about partition columns, empty if none does. */
    static Optional<Payload> of(List<String> partitionKeys, List<ResolvedExpression> filters) {
        List<Node> conjuncts = new ArrayList<>();
        for (ResolvedExpression filter : filters) {
            Node node = node(filter, partitionKeys);
            if (!(node instanceof CannotTell)) {
                conjuncts.add(node);
            }
        }
        if (conjuncts.isEmpty()) {
            return Optional.empty();
        }
        DataOutputSerializer out = new DataOutputSerializer(64);
        try {
            out.writeInt(conjuncts.size());
            for (Node node : conjuncts) {
                node.write(out);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Optional.of(new Payload(VERSION, out.getCopyOfBuffer()));
    }

    /** The filters of a payload {@link #of} made (or version 1's). */
    static HivePartitionFilters read(Payload payload) throws IOException {
        DataInputDeserializer in = new DataInputDeserializer(payload.bytes());
        List<Node> conjuncts = new ArrayList<>();
        switch (payload.version()) {
            case VERSION_ALLOWED_VALUES:
                int keys = in.readInt();
                for (int i = 0; i < keys; i++) {
                    String key = in.readUTF();
                    int n = in.readInt();
                    List<Node> values = new ArrayList<>(n);
                    for (int j = 0; j < n; j++) {
                        values.add(new Compare(key, EQ, AS_TEXT, in.readUTF()));
                    }
                    conjuncts.add(new Junction(OR, values));
                }
                break;
            case VERSION:
                int n = in.readInt();
                for (int i = 0; i < n; i++) {
                    conjuncts.add(readNode(in));
                }
                break;
            default:
                throw new IOException("Cannot read pushed Hive partition filters of version " + payload.version()
                        + ": this plugin reads versions " + VERSION_ALLOWED_VALUES + " and " + VERSION);
        }
        return new HivePartitionFilters(conjuncts);
    }

    /** Whether a partition may hold matching rows: no conjunct is surely false for its values. */
    boolean matches(Map<String, String> partitionSpec) {
        for (Node conjunct : conjuncts) {
            if (conjunct.eval(partitionSpec) == Boolean.FALSE) {
                return false;
            }
        }
        return true;
    }

    private static Node readNode(DataInputDeserializer in) throws IOException {
        byte tag = in.readByte();
        switch (tag) {
            case AND:
            case OR:
                int n = in.readInt();
                List<Node> children = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    children.add(readNode(in));
                }
                return new Junction(tag, children);
            case NOT:
                return new Not(readNode(in));
            case COMPARE:
                String column = in.readUTF();
                byte op = in.readByte();
                byte as = in.readByte();
                return new Compare(column, op, as, in.readUTF());
            case CANNOT_TELL:
                return CannotTell.INSTANCE;
            default:
                throw new IOException("Unknown node " + tag + " in pushed Hive partition filters");
        }
    }

    private static Node node(ResolvedExpression filter, List<String> keys) {
        if (!(filter instanceof CallExpression)) {
            return CannotTell.INSTANCE;
        }
        CallExpression call = (CallExpression) filter;
        FunctionDefinition function = call.getFunctionDefinition();
        List<ResolvedExpression> args = call.getResolvedChildren();
        if (function == BuiltInFunctionDefinitions.AND || function == BuiltInFunctionDefinitions.OR) {
            List<Node> children = new ArrayList<>();
            for (ResolvedExpression arg : args) {
                children.add(node(arg, keys));
            }
            boolean and = function == BuiltInFunctionDefinitions.AND;
            // AND: what cannot be told drops out; OR: one branch that cannot be told, the whole
            if (and) {
                children.removeIf(c -> c instanceof CannotTell);
                return children.isEmpty() ? CannotTell.INSTANCE : new Junction(AND, children);
            }
            return children.stream().anyMatch(c -> c instanceof CannotTell)
                    ? CannotTell.INSTANCE
                    : new Junction(OR, children);
        }
        if (function == BuiltInFunctionDefinitions.NOT && args.size() == 1) {
            Node child = node(args.get(0), keys);
            return child instanceof CannotTell ? child : new Not(child);
        }
        if (function == BuiltInFunctionDefinitions.IN && args.size() >= 2) {
            List<Node> values = new ArrayList<>();
            for (ResolvedExpression arg : args.subList(1, args.size())) {
                Node eq = compare(EQ, args.get(0), arg, keys);
                if (eq instanceof CannotTell) {
                    return eq;
                }
                values.add(eq);
            }
            return new Junction(OR, values);
        }
        if (args.size() == 2) {
            byte op = op(function);
            if (op != 0) {
                return compare(op, args.get(0), args.get(1), keys);
            }
        }
        return CannotTell.INSTANCE;
    }

    private static byte op(FunctionDefinition function) {
        if (function == BuiltInFunctionDefinitions.EQUALS) {
            return EQ;
        }
        if (function == BuiltInFunctionDefinitions.NOT_EQUALS) {
            return NE;
        }
        if (function == BuiltInFunctionDefinitions.LESS_THAN) {
            return LT;
        }
        if (function == BuiltInFunctionDefinitions.LESS_THAN_OR_EQUAL) {
            return LE;
        }
        if (function == BuiltInFunctionDefinitions.GREATER_THAN) {
            return GT;
        }
        if (function == BuiltInFunctionDefinitions.GREATER_THAN_OR_EQUAL) {
            return GE;
        }
        return 0;
    }

    /** {@code left op right} with a partition column on one side and a literal on the other. */
    private static Node compare(byte op, ResolvedExpression left, ResolvedExpression right, List<String> keys) {
        if (!(left instanceof FieldReferenceExpression)) {
            // literal first: the column's view of it
            return right instanceof FieldReferenceExpression
                    ? compare(mirror(op), right, left, keys)
                    : CannotTell.INSTANCE;
        }
        FieldReferenceExpression column = (FieldReferenceExpression) left;
        if (!keys.contains(column.getName()) || !(right instanceof ValueLiteralExpression)) {
            return CannotTell.INSTANCE;
        }
        ValueLiteralExpression literal = (ValueLiteralExpression) right;
        LogicalType literalType = literal.getOutputDataType().getLogicalType();
        if (literal.isNull()) {
            return CannotTell.INSTANCE;
        }
        Optional<Object> value = literal.getValueAs(Object.class);
        if (value.isEmpty()) {
            return CannotTell.INSTANCE;
        }
        LogicalTypeRoot columnType = column.getOutputDataType().getLogicalType().getTypeRoot();
        if (STRINGS.contains(columnType)
                && (literalType.getTypeRoot() == LogicalTypeRoot.CHAR
                        || literalType.getTypeRoot() == LogicalTypeRoot.VARCHAR)) {
            return new Compare(column.getName(), op, AS_STRING, String.valueOf(value.get()));
        }
        if (INTEGERS.contains(columnType)
                && value.get() instanceof Number
                && INTEGERS.contains(literalType.getTypeRoot())) {
            return new Compare(column.getName(), op, AS_INTEGER, String.valueOf(value.get()));
        }
        return CannotTell.INSTANCE;
    }

    private static byte mirror(byte op) {
        switch (op) {
            case LT:
                return GT;
            case LE:
                return GE;
            case GT:
                return LT;
            case GE:
                return LE;
            default:
                return op;
        }
    }

    /** A part of a filter: true, false, or null when it cannot tell for a partition. */
    private interface Node {
        Boolean eval(Map<String, String> partition);

        void write(DataOutputSerializer out) throws IOException;
    }

    private static final class CannotTell implements Node {
        static final CannotTell INSTANCE = new CannotTell();

        @Override
        public Boolean eval(Map<String, String> partition) {
            return null;
        }

        @Override
        public void write(DataOutputSerializer out) throws IOException {
            out.writeByte(CANNOT_TELL);
        }
    }

    private static final class Junction implements Node {
        private final byte kind;
        private final List<Node> children;

        Junction(byte kind, List<Node> children) {
            this.kind = kind;
            this.children = children;
        }

        @Override
        public Boolean eval(Map<String, String> partition) {
            boolean and = kind == AND;
            boolean unknown = false;
            for (Node child : children) {
                Boolean value = child.eval(partition);
                if (value == null) {
                    unknown = true;
                } else if (value != and) {
                    return value; // AND: one false; OR: one true
                }
            }
            return unknown ? null : and;
        }

        @Override
        public void write(DataOutputSerializer out) throws IOException {
            out.writeByte(kind);
            out.writeInt(children.size());
            for (Node child : children) {
                child.write(out);
            }
        }
    }

    private static final class Not implements Node {
        private final Node child;

        Not(Node child) {
            this.child = child;
        }

        @Override
        public Boolean eval(Map<String, String> partition) {
            Boolean value = child.eval(partition);
            return value == null ? null : !value;
        }

        @Override
        public void write(DataOutputSerializer out) throws IOException {
            out.writeByte(NOT);
            child.write(out);
        }
    }

    private static final class Compare implements Node {
        private final String column;
        private final byte op;
        private final byte as;
        private final String literal;

        Compare(String column, byte op, byte as, String literal) {
            this.column = column;
            this.op = op;
            this.as = as;
            this.literal = literal;
        }

        @Override
        public Boolean eval(Map<String, String> partition) {
            if (!partition.containsKey(column)) {
                return null;
            }
            String value = partition.get(column);
            if (value == null) {
                return null; // NULL compares to nothing
            }
            int order;
            switch (as) {
                case AS_TEXT:
                    order = value.equals(literal) ? 0 : 1;
                    break;
                case AS_STRING:
                    order = Arrays.compareUnsigned(
                            value.getBytes(StandardCharsets.UTF_8), literal.getBytes(StandardCharsets.UTF_8));
                    break;
                case AS_INTEGER:
                    try {
                        order = new BigDecimal(value.trim()).compareTo(new BigDecimal(literal));
                    } catch (NumberFormatException e) {
                        return null; // the default partition of a numeric column: its rows read NULL
                    }
                    break;
                default:
                    return null;
            }
            switch (op) {
                case EQ:
                    return order == 0;
                case NE:
                    return order != 0;
                case LT:
                    return order < 0;
                case LE:
                    return order <= 0;
                case GT:
                    return order > 0;
                case GE:
                    return order >= 0;
                default:
                    return null;
            }
        }

        @Override
        public void write(DataOutputSerializer out) throws IOException {
            out.writeByte(COMPARE);
            out.writeUTF(column);
            out.writeByte(op);
            out.writeByte(as);
            out.writeUTF(literal);
        }
    }
}

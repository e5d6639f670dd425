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
import org.apache.flink.table.types.logical.LogicalTypeRoot;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Partition pruning from a query's {@code WHERE}: the conjuncts that pin a partition column to
 * values ({@code dt = '2026-12-01'}, {@code dt IN ('a', 'b')} and the {@code OR} of equalities on
 * one column the planner makes of it, either side of the {@code =}),
 * as the values each column may take; the planner lists only the partitions that match all of
 * them. Other filters are not used here (Flink applies every filter to the rows anyway), and a
 * literal of a type whose partition-name form is not plain (a date, a decimal) is left to Flink.
 * The payload (version 1) goes from the client to the planner in the job graph; it is not state.
 */
final class HivePartitionFilters {

    static final int VERSION = 1;

    /** Literal types whose value is a partition directory's value as it is printed. */
    private static final Set<LogicalTypeRoot> PLAIN = EnumSet.of(
            LogicalTypeRoot.CHAR,
            LogicalTypeRoot.VARCHAR,
            LogicalTypeRoot.TINYINT,
            LogicalTypeRoot.SMALLINT,
            LogicalTypeRoot.INTEGER,
            LogicalTypeRoot.BIGINT,
            LogicalTypeRoot.BOOLEAN);

    private HivePartitionFilters() {}

    /** The partition columns' allowed values the filters give, empty if they pin none. */
    static Optional<Payload> of(List<String> partitionKeys, List<ResolvedExpression> filters) {
        Map<String, Set<String>> allowed = new LinkedHashMap<>();
        for (ResolvedExpression filter : filters) {
            pinned(filter, partitionKeys)
                    .ifPresent(p -> allowed.merge(p.getKey(), p.getValue(), (a, b) -> {
                        Set<String> both = new LinkedHashSet<>(a);
                        both.retainAll(b); // two conjuncts on one column: both hold
                        return both;
                    }));
        }
        if (allowed.isEmpty()) {
            return Optional.empty();
        }
        DataOutputSerializer out = new DataOutputSerializer(64);
        try {
            out.writeInt(allowed.size());
            for (Map.Entry<String, Set<String>> e : allowed.entrySet()) {
                out.writeUTF(e.getKey());
                out.writeInt(e.getValue().size());
                for (String v : e.getValue()) {
                    out.writeUTF(v);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Optional.of(new Payload(VERSION, out.getCopyOfBuffer()));
    }

    /** The allowed values per partition column of a payload {@link #of} made. */
    static Map<String, Set<String>> allowed(Payload payload) throws IOException {
        if (payload.version() != VERSION) {
            throw new IOException("Cannot read pushed Hive partition filters of version " + payload.version()
                    + ": this plugin reads version " + VERSION);
        }
        DataInputDeserializer in = new DataInputDeserializer(payload.bytes());
        Map<String, Set<String>> allowed = new LinkedHashMap<>();
        int keys = in.readInt();
        for (int i = 0; i < keys; i++) {
            String key = in.readUTF();
            int n = in.readInt();
            Set<String> values = new LinkedHashSet<>();
            for (int j = 0; j < n; j++) {
                values.add(in.readUTF());
            }
            allowed.put(key, values);
        }
        return allowed;
    }

    /** Whether a partition's values match every pinned column. */
    static boolean matches(Map<String, String> partitionSpec, Map<String, Set<String>> allowed) {
        for (Map.Entry<String, Set<String>> e : allowed.entrySet()) {
            String value = partitionSpec.get(e.getKey());
            if (value == null || !e.getValue().contains(value)) {
                return false;
            }
        }
        return true;
    }

    private static Optional<Map.Entry<String, Set<String>>> pinned(ResolvedExpression filter, List<String> keys) {
        if (!(filter instanceof CallExpression)) {
            return Optional.empty();
        }
        CallExpression call = (CallExpression) filter;
        FunctionDefinition function = call.getFunctionDefinition();
        List<ResolvedExpression> args = call.getResolvedChildren();
        if (function == BuiltInFunctionDefinitions.EQUALS && args.size() == 2) {
            int field = args.get(0) instanceof FieldReferenceExpression ? 0 : 1;
            return column(args.get(field), keys)
                    .flatMap(column -> value(args.get(1 - field)).map(v -> Map.entry(column, Set.of(v))));
        }
        if (function == BuiltInFunctionDefinitions.OR) {
            // the planner's form of IN: every branch pins the same column
            String column = null;
            Set<String> values = new LinkedHashSet<>();
            for (ResolvedExpression branch : args) {
                Optional<Map.Entry<String, Set<String>>> p = pinned(branch, keys);
                if (p.isEmpty() || (column != null && !column.equals(p.get().getKey()))) {
                    return Optional.empty();
                }
                column = p.get().getKey();
                values.addAll(p.get().getValue());
            }
            return column == null ? Optional.empty() : Optional.of(Map.entry(column, values));
        }
        if (function == BuiltInFunctionDefinitions.IN && args.size() >= 2) {
            Optional<String> column = column(args.get(0), keys);
            if (column.isEmpty()) {
                return Optional.empty();
            }
            Set<String> values = new LinkedHashSet<>();
            for (ResolvedExpression arg : args.subList(1, args.size())) {
                Optional<String> v = value(arg);
                if (v.isEmpty()) {
                    return Optional.empty();
                }
                values.add(v.get());
            }
            return Optional.of(Map.entry(column.get(), values));
        }
        return Optional.empty();
    }

    private static Optional<String> column(ResolvedExpression e, List<String> keys) {
        if (e instanceof FieldReferenceExpression && keys.contains(((FieldReferenceExpression) e).getName())) {
            return Optional.of(((FieldReferenceExpression) e).getName());
        }
        return Optional.empty();
    }

    private static Optional<String> value(ResolvedExpression e) {
        if (!(e instanceof ValueLiteralExpression)) {
            return Optional.empty();
        }
        ValueLiteralExpression literal = (ValueLiteralExpression) e;
        if (!PLAIN.contains(literal.getOutputDataType().getLogicalType().getTypeRoot()) || literal.isNull()) {
            return Optional.empty();
        }
        return literal.getValueAs(Object.class).map(String::valueOf);
    }
}

package io.sluice.plugin.hive;

import org.apache.flink.table.expressions.CallExpression;
import org.apache.flink.table.expressions.Expression;
import org.apache.flink.table.expressions.FieldReferenceExpression;
import org.apache.flink.table.expressions.ResolvedExpression;
import org.apache.flink.table.expressions.ValueLiteralExpression;
import org.apache.flink.table.functions.BuiltInFunctionDefinitions;
import org.apache.flink.table.types.logical.LogicalTypeRoot;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The partition filters Flink's planner hands a hive catalog ({@code listPartitionsByFilter}) as
 * a filter the metastore evaluates ({@code IMetaStoreClient#listPartitionsByFilter}), when each
 * conjunct is an equality of a string partition column with a string literal or an {@code OR} /
 * {@code IN} of such equalities: {@code dt = '2024-01-01' AND region IN ('eu', 'us')}. Only
 * equalities, because the metastore compares in its database, whose collation may order strings
 * otherwise than Flink does (a PostgreSQL locale), while an equality there holds at least for every
 * string equal in Flink; {@link #matches} then keeps exactly the partitions Flink's own evaluation
 * would. Anything else (a range, a function, another type, a literal with both kinds of quote) is
 * not expressed, and the catalog refuses it so that the planner lists the partitions and evaluates
 * the filters itself.
 */
final class MetastorePartitionFilter {

    /** A partition key the metastore's filter grammar takes as an identifier. */
    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    /** Conjuncts, each a disjunction of column = value. */
    private final List<List<Map.Entry<String, String>>> clauses;

    private MetastorePartitionFilter(List<List<Map.Entry<String, String>>> clauses) {
        this.clauses = clauses;
    }

    /**
     * The filter of these conjuncts, or empty if one of them cannot be expressed.
     *
     * @param keyTypes the partition keys and their Hive types ({@code string}, {@code varchar(8)}, {@code int} ...)
     */
    static Optional<MetastorePartitionFilter> of(Map<String, String> keyTypes, List<Expression> filters) {
        List<String> strings = new ArrayList<>();
        for (Map.Entry<String, String> key : keyTypes.entrySet()) {
            String type = key.getValue().trim().toLowerCase(Locale.ROOT);
            if (type.equals("string") || type.startsWith("varchar")) {
                strings.add(key.getKey());
            }
        }
        List<List<Map.Entry<String, String>>> clauses = new ArrayList<>();
        for (Expression filter : filters) {
            List<Map.Entry<String, String>> clause = new ArrayList<>();
            if (!(filter instanceof ResolvedExpression) || !disjunction((ResolvedExpression) filter, strings, clause)) {
                return Optional.empty();
            }
            clauses.add(clause);
        }
        return clauses.isEmpty() ? Optional.empty() : Optional.of(new MetastorePartitionFilter(clauses));
    }

    /** The filter in the metastore's grammar. */
    String expression() {
        List<String> conjuncts = new ArrayList<>();
        for (List<Map.Entry<String, String>> clause : clauses) {
            List<String> disjuncts = new ArrayList<>();
            for (Map.Entry<String, String> eq : clause) {
                disjuncts.add(eq.getKey() + " = " + quoted(eq.getValue()));
            }
            conjuncts.add("(" + String.join(" or ", disjuncts) + ")");
        }
        return String.join(" and ", conjuncts);
    }

    /** Whether a partition's values (column to value) satisfy every conjunct, compared as Flink compares strings. */
    boolean matches(Map<String, String> partition) {
        for (List<Map.Entry<String, String>> clause : clauses) {
            boolean any = false;
            for (Map.Entry<String, String> eq : clause) {
                if (eq.getValue().equals(partition.get(eq.getKey()))) {
                    any = true;
                    break;
                }
            }
            if (!any) {
                return false;
            }
        }
        return true;
    }

    private static boolean disjunction(
            ResolvedExpression e, List<String> strings, List<Map.Entry<String, String>> into) {
        if (!(e instanceof CallExpression)) {
            return false;
        }
        CallExpression call = (CallExpression) e;
        List<ResolvedExpression> args = call.getResolvedChildren();
        if (call.getFunctionDefinition() == BuiltInFunctionDefinitions.OR) {
            for (ResolvedExpression arg : args) {
                if (!disjunction(arg, strings, into)) {
                    return false;
                }
            }
            return true;
        }
        if (call.getFunctionDefinition() == BuiltInFunctionDefinitions.IN && args.size() >= 2) {
            for (ResolvedExpression value : args.subList(1, args.size())) {
                if (!equality(args.get(0), value, strings, into)) {
                    return false;
                }
            }
            return true;
        }
        if (call.getFunctionDefinition() == BuiltInFunctionDefinitions.EQUALS && args.size() == 2) {
            return args.get(0) instanceof FieldReferenceExpression
                    ? equality(args.get(0), args.get(1), strings, into)
                    : equality(args.get(1), args.get(0), strings, into);
        }
        return false;
    }

    private static boolean equality(
            ResolvedExpression column,
            ResolvedExpression literal,
            List<String> strings,
            List<Map.Entry<String, String>> into) {
        if (!(column instanceof FieldReferenceExpression) || !(literal instanceof ValueLiteralExpression)) {
            return false;
        }
        FieldReferenceExpression field = (FieldReferenceExpression) column;
        ValueLiteralExpression value = (ValueLiteralExpression) literal;
        LogicalTypeRoot columnType = field.getOutputDataType().getLogicalType().getTypeRoot();
        LogicalTypeRoot valueType = value.getOutputDataType().getLogicalType().getTypeRoot();
        if (!strings.contains(field.getName())
                || !IDENTIFIER.matcher(field.getName()).matches()
                || columnType != LogicalTypeRoot.VARCHAR
                || (valueType != LogicalTypeRoot.VARCHAR && valueType != LogicalTypeRoot.CHAR)
                || value.isNull()) {
            return false;
        }
        Optional<String> text = value.getValueAs(String.class);
        if (text.isEmpty() || (text.get().contains("\"") && text.get().contains("'"))) {
            return false;
        }
        into.add(Map.entry(field.getName(), text.get()));
        return true;
    }

    private static String quoted(String value) {
        return value.contains("\"") ? "'" + value + "'" : "\"" + value + "\"";
    }
}

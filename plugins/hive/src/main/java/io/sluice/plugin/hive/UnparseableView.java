package io.sluice.plugin.hive;

import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.CatalogView;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.QueryOperationCatalogView;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.operations.QueryOperation;
import org.apache.flink.table.operations.QueryOperationVisitor;
import org.apache.flink.table.types.DataType;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A view whose query Flink cannot parse, typically one Hive created with HiveQL of its own
 * ({@code LATERAL VIEW}, {@code SORT BY} ...). Handed to the planner as a view backed by this query
 * operation, it keeps the view's schema, comment and query for {@code DESCRIBE}, {@code SHOW CREATE
 * VIEW} and {@code DROP VIEW}; a query that reads it fails with an error naming the view and what
 * the parser found, where the planner's own says only "SQL parse failed" at a line and column of a
 * statement the user never wrote.
 */
final class UnparseableView implements QueryOperation {

    private final String view;
    private final String parseError;
    private final ResolvedSchema schema;

    private UnparseableView(String view, String parseError, ResolvedSchema schema) {
        this.view = view;
        this.parseError = parseError;
        this.schema = schema;
    }

    /**
     * The view as the planner should see it: unchanged if Flink parses its query (or if its schema
     * is not resolved, which a view of the metastore always is), else backed by the error.
     */
    static CatalogView check(String catalog, String database, String name, CatalogView view) {
        Optional<String> error = FlinkGrammar.parseError(view.getExpandedQuery());
        if (error.isEmpty()) {
            return view;
        }
        Optional<ResolvedSchema> schema = resolved(view.getUnresolvedSchema());
        if (schema.isEmpty()) {
            return view;
        }
        String qualified = "`" + catalog + "`.`" + database + "`.`" + name + "`";
        return new QueryOperationCatalogView(new UnparseableView(qualified, error.get(), schema.get()), view);
    }

    private static Optional<ResolvedSchema> resolved(Schema schema) {
        List<Column> columns = new ArrayList<>();
        for (Schema.UnresolvedColumn column : schema.getColumns()) {
            if (!(column instanceof Schema.UnresolvedPhysicalColumn)
                    || !(((Schema.UnresolvedPhysicalColumn) column).getDataType() instanceof DataType)) {
                return Optional.empty();
            }
            columns.add(Column.physical(
                    column.getName(), (DataType) ((Schema.UnresolvedPhysicalColumn) column).getDataType()));
        }
        return Optional.of(ResolvedSchema.of(columns));
    }

    String message() {
        return "View " + view + " has a query Flink cannot parse (" + parseError
                + "); it was likely created in Hive with HiveQL that Flink's SQL does not have. Recreate the view"
                + " in Flink SQL, or read its tables directly";
    }

    @Override
    public <T> T accept(QueryOperationVisitor<T> visitor) {
        throw new ValidationException(message());
    }

    @Override
    public ResolvedSchema getResolvedSchema() {
        return schema;
    }

    @Override
    public List<QueryOperation> getChildren() {
        return List.of();
    }

    @Override
    public String asSummaryString() {
        return "UnparseableView: " + view;
    }
}

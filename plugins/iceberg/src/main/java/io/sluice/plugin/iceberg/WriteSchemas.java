package io.sluice.plugin.iceberg;

import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.flink.FlinkSchemaUtil;
import org.apache.iceberg.types.TypeUtil;

/**
 * Whether a sink's rows fit a table: every column must exist in the table's schema by name, in
 * the same order, with a type Iceberg can write into the table's type (INT into a {@code long}
 * column, say), and a nullable column cannot go into a required one. These are the rules of
 * Iceberg's own Flink sink, so a table that one accepts the other does too.
 */
final class WriteSchemas {

    private WriteSchemas() {}

    /**
     * @throws IllegalArgumentException listing what does not fit
     */
    static void checkWritable(Table table, RowType rowType) {
        Schema tableSchema = table.schema();
        try {
            // the sink's columns with the table's field ids, matched by name
            Schema writeSchema = FlinkSchemaUtil.convert(tableSchema, FlinkSchemaUtil.toResolvedSchema(rowType));
            TypeUtil.validateWriteSchema(tableSchema, writeSchema, true, true);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("Rows of type " + rowType + " cannot be written to Iceberg table '" + table.name()
                    + "' ('" + IcebergOptions.CATALOG_TABLE.key() + "'): " + e.getMessage(), e);
        }
    }
}

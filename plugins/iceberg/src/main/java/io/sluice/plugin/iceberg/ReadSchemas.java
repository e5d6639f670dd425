package io.sluice.plugin.iceberg;

import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.utils.LogicalTypeDuplicator;
import org.apache.iceberg.Schema;
import org.apache.iceberg.flink.FlinkSchemaUtil;
import org.apache.iceberg.types.Types;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Which columns of a table a scan source reads: the table's columns named by the source's row
 * type, in the row type's order, each with the Flink type of the table's column (nullability
 * aside: a required column reads fine into a nullable one, and the framework decides what a NOT
 * NULL column of the source promises).
 *
 * <p>The order is built here rather than by {@link Schema#select}: that keeps the table's order,
 * while Iceberg's readers produce the fields in the order of the schema they are given, and the
 * rows must come out in the row type's.
 */
final class ReadSchemas {

    private ReadSchemas() {}

    /**
     * @throws IllegalArgumentException naming the columns that are not top-level columns of the
     *     table, or whose type differs from the table's
     */
    static Schema projection(Schema tableSchema, RowType rowType, boolean caseSensitive, String tableName) {
        List<Types.NestedField> selected = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        for (String name : rowType.getFieldNames()) {
            Types.NestedField field =
                    caseSensitive ? tableSchema.findField(name) : tableSchema.caseInsensitiveFindField(name);
            // findField also finds nested fields by their dotted name: only top-level columns count
            if (field == null || tableSchema.asStruct().field(field.fieldId()) == null) {
                missing.add(name);
            } else {
                selected.add(field);
            }
        }
        if (!missing.isEmpty()) {
            throw new IllegalArgumentException("Columns " + missing + " are not columns of Iceberg table '" + tableName
                    + "' ('" + IcebergOptions.CATALOG_TABLE.key() + "'); its columns are "
                    + tableSchema.columns().stream()
                            .map(Types.NestedField::name)
                            .collect(Collectors.toList())
                    + (caseSensitive
                            ? " (case-sensitive: '" + IcebergReadOptions.CASE_SENSITIVE.key() + "' = true)"
                            : ""));
        }
        Schema projection = new Schema(selected);
        RowType tableTypes = FlinkSchemaUtil.convert(projection);
        List<String> mismatched = new ArrayList<>();
        for (int i = 0; i < rowType.getFieldCount(); i++) {
            LogicalType declared = rowType.getTypeAt(i);
            LogicalType actual = tableTypes.getTypeAt(i);
            if (!NullableNoDescriptions.normalize(declared).equals(NullableNoDescriptions.normalize(actual))) {
                mismatched.add("'" + rowType.getFieldNames().get(i) + "' is " + declared.copy(true)
                        + " in the source but " + actual.copy(true) + " in the table");
            }
        }
        if (!mismatched.isEmpty()) {
            throw new IllegalArgumentException("Columns of the source do not have the types of Iceberg table '"
                    + tableName + "' ('" + IcebergOptions.CATALOG_TABLE.key() + "'): " + String.join("; ", mismatched));
        }
        return projection;
    }

    /**
     * A type with every level nullable and row fields without descriptions (Iceberg's column docs
     * become descriptions), so that two types compare equal when they read the same data.
     */
    private static final class NullableNoDescriptions extends LogicalTypeDuplicator {

        private static final NullableNoDescriptions INSTANCE = new NullableNoDescriptions();

        static LogicalType normalize(LogicalType type) {
            return type.accept(INSTANCE);
        }

        @Override
        public LogicalType visit(RowType rowType) {
            List<RowType.RowField> fields = new ArrayList<>();
            for (RowType.RowField field : rowType.getFields()) {
                fields.add(new RowType.RowField(field.getName(), field.getType().accept(this)));
            }
            return new RowType(true, fields);
        }

        @Override
        public LogicalType visit(org.apache.flink.table.types.logical.ArrayType arrayType) {
            return super.visit(arrayType).copy(true);
        }

        @Override
        public LogicalType visit(org.apache.flink.table.types.logical.MultisetType multisetType) {
            return super.visit(multisetType).copy(true);
        }

        @Override
        public LogicalType visit(org.apache.flink.table.types.logical.MapType mapType) {
            return super.visit(mapType).copy(true);
        }

        @Override
        protected LogicalType defaultMethod(LogicalType logicalType) {
            return logicalType.copy(true);
        }
    }
}

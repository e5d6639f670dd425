package io.sluice.plugin.formats.avro;

import io.sluice.plugin.formats.bulk.DeclaredTypes;

import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;

/**
 * The table's declared column types against an Avro file's, as {@link DeclaredTypes} describes.
 */
final class AvroDeclaredTypes {

    private AvroDeclaredTypes() {}

    /**
     * The check of Avro files read as {@code rowType}, fields by name. Avro's own schema resolution
     * refuses most mismatches (a long read as an int), but not those its logical types hide: a
     * decimal is bytes whatever its scale, a timestamp a long whatever its unit, so a file's
     * DECIMAL(10, 2) read as DECIMAL(5, 1), or its microseconds read as milliseconds, would return
     * other numbers and other years.
     */
    static DeclaredTypes.Check check(RowType rowType, boolean legacyTimestampMapping) {
        return file -> {
            org.apache.avro.Schema reader = AvroFormatFactory.schema(rowType, legacyTimestampMapping);
            org.apache.avro.Schema schema;
            try (FSDataInputStream in = file.getFileSystem().open(file);
                    org.apache.avro.file.DataFileStream<Object> header = new org.apache.avro.file.DataFileStream<>(
                            in, new org.apache.avro.generic.GenericDatumReader<>())) {
                schema = header.getSchema();
            }
            if (schema.getType() != org.apache.avro.Schema.Type.RECORD) {
                return;
            }
            for (RowType.RowField field : rowType.getFields()) {
                org.apache.avro.Schema.Field fileField = schema.getField(field.getName());
                if (fileField == null) {
                    continue;
                }
                org.apache.avro.Schema fileType = nonNull(fileField.schema());
                String problem = avroProblem(field.getType(), fileType);
                if (problem == null) {
                    // what Avro's schema resolution refuses (a long read as an int, a string as a
                    // number) it reports naming neither the field nor the declared type
                    org.apache.avro.Schema declared =
                            reader.getField(field.getName()).schema();
                    if (org.apache.avro.SchemaCompatibility.checkReaderWriterCompatibility(declared, fileField.schema())
                                    .getType()
                            == org.apache.avro.SchemaCompatibility.SchemaCompatibilityType.INCOMPATIBLE) {
                        problem = "Avro cannot read the file's values as " + describe(nonNull(declared));
                    }
                }
                if (problem != null) {
                    throw DeclaredTypes.mismatch(field, describe(fileType), problem);
                }
            }
        };
    }

    /** An Avro type as a message shows it: its type and logical type ({@code long timestamp-millis}). */
    private static String describe(org.apache.avro.Schema schema) {
        org.apache.avro.LogicalType logical = schema.getLogicalType();
        String type = schema.getType().getName().toUpperCase(java.util.Locale.ROOT);
        if (logical instanceof org.apache.avro.LogicalTypes.Decimal) {
            org.apache.avro.LogicalTypes.Decimal d = (org.apache.avro.LogicalTypes.Decimal) logical;
            return type + " DECIMAL(" + d.getPrecision() + "," + d.getScale() + ")";
        }
        return logical == null ? type : type + " " + logical.getName();
    }

    private static org.apache.avro.Schema nonNull(org.apache.avro.Schema schema) {
        if (schema.getType() == org.apache.avro.Schema.Type.UNION) {
            for (org.apache.avro.Schema branch : schema.getTypes()) {
                if (branch.getType() != org.apache.avro.Schema.Type.NULL) {
                    return branch;
                }
            }
        }
        return schema;
    }

    private static String avroProblem(LogicalType declared, org.apache.avro.Schema file) {
        org.apache.avro.LogicalType logical = file.getLogicalType();
        if (declared instanceof DecimalType) {
            DecimalType d = (DecimalType) declared;
            if (!(logical instanceof org.apache.avro.LogicalTypes.Decimal)) {
                return null; // Avro's resolution decides (bytes without a scale read as they are)
            }
            org.apache.avro.LogicalTypes.Decimal f = (org.apache.avro.LogicalTypes.Decimal) logical;
            if (f.getScale() != d.getScale()) {
                return "the scale differs, so every value would read as another number";
            }
            if (f.getPrecision() > d.getPrecision()) {
                return "the file's values may have more digits than the declared precision holds";
            }
            return null;
        }
        if (declared instanceof TimestampType || declared instanceof LocalZonedTimestampType) {
            int precision = declared instanceof TimestampType
                    ? ((TimestampType) declared).getPrecision()
                    : ((LocalZonedTimestampType) declared).getPrecision();
            String fileUnit = logical == null ? null : logical.getName();
            if (fileUnit == null || !fileUnit.contains("timestamp")) {
                return null;
            }
            // the reader schema stores precision <= 3 as milliseconds, else microseconds
            boolean fileMillis = fileUnit.endsWith("millis");
            if (fileMillis != (precision <= 3)) {
                return "the file holds " + fileUnit + ", which TIMESTAMP(" + precision + ") would read as "
                        + (fileMillis ? "microseconds" : "milliseconds") + ", another point in time";
            }
        }
        return null;
    }
}

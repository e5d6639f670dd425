package io.sluice.plugin.formats;

import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.core.fs.Path;
import org.apache.flink.formats.parquet.ParquetInputFile;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.hadoop.conf.Configuration;
import org.apache.orc.OrcFile;
import org.apache.orc.Reader;
import org.apache.orc.TypeDescription;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;

import java.io.IOException;
import java.io.Serializable;
import java.util.List;

/**
 * The table's declared column types against the types a Parquet or ORC file holds, checked once
 * when a reader opens a file (its footer), before any row is read.
 *
 * <p>The vectorized readers underneath do not: Flink's Parquet reader reads a DECIMAL(10, 2)
 * column declared DECIMAL(3, 1) as other numbers, and ORC's schema evolution turns a string
 * column declared INT into NULLs. Only a read that gives each value exactly passes: the same
 * type; for decimals the same scale and no less precision; for timestamps no less precision
 * than the file's unit; for ORC, a narrower integer or float than declared (which ORC widens
 * exactly). Anything else is an error naming the column, the file's type and the declared one
 * (the caller adds the file). A column the file lacks reads as null, as before; nested types
 * are compared by kind only.
 */
final class DeclaredTypes {

    private DeclaredTypes() {}

    /** Checks a file before it is read. */
    interface Check extends Serializable {
        void check(Path file) throws IOException;
    }

    /** The check of Parquet files read as {@code rowType}, columns by name (case-sensitive). */
    static Check parquet(RowType rowType) {
        return file -> {
            MessageType schema;
            try (FSDataInputStream in = file.getFileSystem().open(file);
                    ParquetFileReader reader = ParquetFileReader.open(new ParquetInputFile(
                            in, file.getFileSystem().getFileStatus(file).getLen()))) {
                schema = reader.getFooter().getFileMetaData().getSchema();
            }
            for (RowType.RowField field : rowType.getFields()) {
                if (!schema.containsField(field.getName())) {
                    continue;
                }
                Type fileType = schema.getType(field.getName());
                String problem = parquetProblem(field.getType(), fileType);
                if (problem != null) {
                    throw mismatch(
                            field, fileType.isPrimitive() ? describe(fileType.asPrimitiveType()) : "a group", problem);
                }
            }
        };
    }

    private static String describe(PrimitiveType type) {
        LogicalTypeAnnotation a = type.getLogicalTypeAnnotation();
        return type.getPrimitiveTypeName() + (a == null ? "" : " " + a);
    }

    private static String parquetProblem(LogicalType declared, Type fileType) {
        switch (declared.getTypeRoot()) {
            case ROW:
            case ARRAY:
            case MAP:
            case MULTISET:
                return fileType.isPrimitive() ? "a nested type cannot be read from a primitive column" : null;
            default:
                break;
        }
        if (!fileType.isPrimitive()) {
            return "a group cannot be read as a primitive type";
        }
        PrimitiveType p = fileType.asPrimitiveType();
        PrimitiveType.PrimitiveTypeName physical = p.getPrimitiveTypeName();
        LogicalTypeAnnotation a = p.getLogicalTypeAnnotation();
        boolean decimalFile = a instanceof LogicalTypeAnnotation.DecimalLogicalTypeAnnotation;
        switch (declared.getTypeRoot()) {
            case BOOLEAN:
                return physical == PrimitiveType.PrimitiveTypeName.BOOLEAN ? null : "not a boolean";
            case TINYINT:
            case SMALLINT:
            case INTEGER:
                if (physical == PrimitiveType.PrimitiveTypeName.INT64) {
                    return "a 64-bit integer does not fit a narrower integer";
                }
                return physical == PrimitiveType.PrimitiveTypeName.INT32 && !decimalFile && !isDateOrTime(a)
                        ? null
                        : "not an integer";
            case BIGINT:
                return physical == PrimitiveType.PrimitiveTypeName.INT64 && !decimalFile && !isTimestamp(a)
                        ? null
                        : "not a 64-bit integer";
            case FLOAT:
                return physical == PrimitiveType.PrimitiveTypeName.FLOAT ? null : "not a float";
            case DOUBLE:
                return physical == PrimitiveType.PrimitiveTypeName.DOUBLE ? null : "not a double";
            case CHAR:
            case VARCHAR:
                return physical == PrimitiveType.PrimitiveTypeName.BINARY && !decimalFile ? null : "not a string";
            case BINARY:
            case VARBINARY:
                return (physical == PrimitiveType.PrimitiveTypeName.BINARY
                                        || physical == PrimitiveType.PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY)
                                && !decimalFile
                        ? null
                        : "not bytes";
            case DATE:
                return a instanceof LogicalTypeAnnotation.DateLogicalTypeAnnotation ? null : "not a date";
            case TIME_WITHOUT_TIME_ZONE:
                return a instanceof LogicalTypeAnnotation.TimeLogicalTypeAnnotation ? null : "not a time";
            case DECIMAL:
                DecimalType decimal = (DecimalType) declared;
                if (!decimalFile) {
                    return "not a decimal";
                }
                LogicalTypeAnnotation.DecimalLogicalTypeAnnotation d =
                        (LogicalTypeAnnotation.DecimalLogicalTypeAnnotation) a;
                if (d.getScale() != decimal.getScale()) {
                    return "a decimal of scale " + d.getScale() + " is not one of scale " + decimal.getScale();
                }
                return d.getPrecision() <= decimal.getPrecision()
                        ? null
                        : "a decimal of precision " + d.getPrecision() + " does not fit precision "
                                + decimal.getPrecision();
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                int precision = declared instanceof TimestampType
                        ? ((TimestampType) declared).getPrecision()
                        : ((LocalZonedTimestampType) declared).getPrecision();
                if (physical == PrimitiveType.PrimitiveTypeName.INT96) {
                    return null; // INT96 is what Flink writes for every precision, and reads back at any
                }
                if (!isTimestamp(a)) {
                    return "not a timestamp";
                }
                int filePrecision = unitPrecision(((LogicalTypeAnnotation.TimestampLogicalTypeAnnotation) a).getUnit());
                return filePrecision <= precision
                        ? null
                        : "timestamps of precision " + filePrecision + " would lose digits as precision " + precision;
            default:
                return null; // types without a Parquet mapping fail in the reader, with its message
        }
    }

    private static boolean isTimestamp(LogicalTypeAnnotation a) {
        return a instanceof LogicalTypeAnnotation.TimestampLogicalTypeAnnotation;
    }

    private static boolean isDateOrTime(LogicalTypeAnnotation a) {
        return a instanceof LogicalTypeAnnotation.DateLogicalTypeAnnotation
                || a instanceof LogicalTypeAnnotation.TimeLogicalTypeAnnotation;
    }

    private static int unitPrecision(LogicalTypeAnnotation.TimeUnit unit) {
        switch (unit) {
            case MILLIS:
                return 3;
            case MICROS:
                return 6;
            default:
                return 9;
        }
    }

    /** The check of ORC files read as {@code rowType}, columns by name. */
    static Check orc(RowType rowType) {
        return file -> {
            if (file.getFileSystem().getFileStatus(file).getLen() == 0) {
                // ORC's reader takes a zero-byte file for one without rows; Parquet and Avro refuse
                // it, and so does every format here: no writer leaves such a file
                throw new IOException(file + " is empty (0 bytes), not an ORC file: an ORC file ends with its"
                        + " footer and postscript even without rows");
            }
            Configuration conf = HadoopConfigurations.create(); // per file: a Hadoop configuration does not serialize
            TypeDescription schema;
            org.apache.hadoop.fs.Path hadoopPath = new org.apache.hadoop.fs.Path(file.toUri());
            try (Reader reader = OrcFile.createReader(
                    hadoopPath,
                    OrcFile.readerOptions(conf)
                            .filesystem(new FlinkBackedHadoopFileSystem(
                                    FlinkFileSystemOrcShim.rootOf(file.toUri()), conf)))) {
                schema = reader.getSchema();
            }
            List<String> names = schema.getFieldNames();
            for (RowType.RowField field : rowType.getFields()) {
                int i = names.indexOf(field.getName());
                if (i < 0) {
                    continue;
                }
                TypeDescription fileType = schema.getChildren().get(i);
                String problem = orcProblem(field.getType(), fileType);
                if (problem != null) {
                    throw mismatch(field, fileType.toString(), problem);
                }
            }
        };
    }

    private static String orcProblem(LogicalType declared, TypeDescription file) {
        TypeDescription.Category c = file.getCategory();
        switch (declared.getTypeRoot()) {
            case BOOLEAN:
                return c == TypeDescription.Category.BOOLEAN ? null : "not a boolean";
            case TINYINT:
                return intRank(c) >= 0 && intRank(c) <= 0 ? null : intProblem(c);
            case SMALLINT:
                return intRank(c) >= 0 && intRank(c) <= 1 ? null : intProblem(c);
            case INTEGER:
                return intRank(c) >= 0 && intRank(c) <= 2 ? null : intProblem(c);
            case BIGINT:
                return intRank(c) >= 0 ? null : intProblem(c);
            case FLOAT:
                return c == TypeDescription.Category.FLOAT ? null : "not a float";
            case DOUBLE:
                return c == TypeDescription.Category.DOUBLE || c == TypeDescription.Category.FLOAT
                        ? null
                        : "not a double";
            case CHAR:
            case VARCHAR:
                return c == TypeDescription.Category.STRING
                                || c == TypeDescription.Category.VARCHAR
                                || c == TypeDescription.Category.CHAR
                        ? null
                        : "not a string";
            case BINARY:
            case VARBINARY:
                return c == TypeDescription.Category.BINARY ? null : "not bytes";
            case DATE:
                return c == TypeDescription.Category.DATE ? null : "not a date";
            case DECIMAL:
                DecimalType decimal = (DecimalType) declared;
                if (c != TypeDescription.Category.DECIMAL) {
                    return "not a decimal";
                }
                if (file.getScale() != decimal.getScale()) {
                    return "a decimal of scale " + file.getScale() + " is not one of scale " + decimal.getScale();
                }
                return file.getPrecision() <= decimal.getPrecision()
                        ? null
                        : "a decimal of precision " + file.getPrecision() + " does not fit precision "
                                + decimal.getPrecision();
            case TIMESTAMP_WITHOUT_TIME_ZONE:
                return c == TypeDescription.Category.TIMESTAMP ? null : "not a timestamp without time zone";
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                // ORC 1.5 (Flink's) has no timestamp-with-local-time-zone category: Flink writes TIMESTAMP
                return c == TypeDescription.Category.TIMESTAMP ? null : "not a timestamp";
            case ROW:
                return c == TypeDescription.Category.STRUCT ? null : "not a struct";
            case ARRAY:
                return c == TypeDescription.Category.LIST ? null : "not a list";
            case MAP:
            case MULTISET:
                return c == TypeDescription.Category.MAP ? null : "not a map";
            default:
                return null;
        }
    }

    private static int intRank(TypeDescription.Category c) {
        switch (c) {
            case BYTE:
                return 0;
            case SHORT:
                return 1;
            case INT:
                return 2;
            case LONG:
                return 3;
            default:
                return -1;
        }
    }

    private static String intProblem(TypeDescription.Category c) {
        return intRank(c) < 0 ? "not an integer" : "a wider integer does not fit";
    }

    /**
     * The check of Avro files read as {@code rowType}, fields by name. Avro's own schema resolution
     * refuses most mismatches (a long read as an int), but not those its logical types hide: a
     * decimal is bytes whatever its scale, a timestamp a long whatever its unit, so a file's
     * DECIMAL(10, 2) read as DECIMAL(5, 1), or its microseconds read as milliseconds, would return
     * other numbers and other years.
     */
    static Check avro(RowType rowType, boolean legacyTimestampMapping) {
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
                    throw mismatch(field, describe(fileType), problem);
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

    private static IOException mismatch(RowType.RowField field, String fileType, String problem) {
        return new IOException("column '" + field.getName() + "' is " + fileType
                + " in the file, but the table declares " + field.getType().asSummaryString() + ": " + problem);
    }
}

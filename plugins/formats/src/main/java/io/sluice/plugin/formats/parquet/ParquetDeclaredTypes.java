package io.sluice.plugin.formats.parquet;

import io.sluice.plugin.formats.bulk.DeclaredTypes;

import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.formats.parquet.ParquetInputFile;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;

/**
 * The table's declared column types against a Parquet file's, as {@link DeclaredTypes} describes:
 * Flink's Parquet reader reads a DECIMAL(10, 2) column declared DECIMAL(3, 1) as other numbers.
 */
final class ParquetDeclaredTypes {

    private ParquetDeclaredTypes() {}

    /** The check of Parquet files read as {@code rowType}, columns by name (case-sensitive). */
    static DeclaredTypes.Check check(RowType rowType) {
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
                    throw DeclaredTypes.mismatch(
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
}

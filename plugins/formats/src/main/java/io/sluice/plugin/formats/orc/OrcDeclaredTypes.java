package io.sluice.plugin.formats.orc;

import io.sluice.plugin.formats.bulk.DeclaredTypes;
import io.sluice.plugin.formats.hadoop.HadoopConfigurations;

import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.hadoop.conf.Configuration;
import org.apache.orc.OrcFile;
import org.apache.orc.Reader;
import org.apache.orc.TypeDescription;

import java.io.IOException;
import java.util.List;

/**
 * The table's declared column types against an ORC file's, as {@link DeclaredTypes} describes:
 * ORC's schema evolution turns a string column declared INT into NULLs. A narrower integer or
 * float than declared passes, since ORC widens it exactly.
 */
final class OrcDeclaredTypes {

    private OrcDeclaredTypes() {}

    /** The check of ORC files read as {@code rowType}, columns by name. */
    static DeclaredTypes.Check check(RowType rowType) {
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
                    throw DeclaredTypes.mismatch(field, fileType.toString(), problem);
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
}

package io.sluice.plugin.formats.bulk;

import org.apache.flink.core.fs.Path;
import org.apache.flink.table.types.logical.RowType;

import java.io.IOException;
import java.io.Serializable;

/**
 * The table's declared column types against the types a Parquet, ORC or Avro file holds, checked once
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
 *
 * <p>Each bulk format checks its own files ({@code ParquetDeclaredTypes}, {@code OrcDeclaredTypes},
 * {@code AvroDeclaredTypes}); {@link FileNamingBulkFormat} runs the check and names the file.
 */
public final class DeclaredTypes {

    private DeclaredTypes() {}

    /** Checks a file before it is read. */
    public interface Check extends Serializable {
        void check(Path file) throws IOException;
    }

    /** The error for a column whose file type the declared one cannot read exactly: {@code problem} says why. */
    public static IOException mismatch(RowType.RowField field, String fileType, String problem) {
        return new IOException("column '" + field.getName() + "' is " + fileType
                + " in the file, but the table declares " + field.getType().asSummaryString() + ": " + problem);
    }
}

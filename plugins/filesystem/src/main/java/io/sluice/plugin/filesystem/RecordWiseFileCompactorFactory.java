package io.sluice.plugin.filesystem;

import io.sluice.spi.compact.CompactionInputs;
import io.sluice.spi.compact.CompactionOutput;
import io.sluice.spi.compact.CompactorContext;
import io.sluice.spi.compact.FileCompactor;
import io.sluice.spi.compact.FileCompactorFactory;
import io.sluice.spi.compact.RowReader;
import io.sluice.spi.compact.RowWriter;

import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.RowData;
import org.pf4j.Extension;

import java.io.IOException;

/**
 * {@code record-wise}: reads every row of the inputs with the format's reader and writes it with
 * the format's writer, so the output is one well-formed file of any readable format (Parquet and
 * ORC get one footer, Avro one header).
 */
@Extension
public final class RecordWiseFileCompactorFactory implements FileCompactorFactory {

    @Override
    public String identifier() {
        return "record-wise";
    }

    @Override
    public void validate(CompactorContext context) {
        if (!context.readableFormat()) {
            throw new IllegalArgumentException("Invalid 'compaction.compactor' 'record-wise': format '"
                    + context.format() + "' has no reader to read its files back"
                    + (context.bulkFormat() ? "" : "; use 'concat'"));
        }
    }

    @Override
    public FileCompactor createCompactor(CompactorContext context) {
        return RecordWiseFileCompactorFactory::copyRows;
    }

    private static void copyRows(CompactionInputs inputs, CompactionOutput output) throws IOException {
        RowWriter out = output.rows();
        for (Path file : inputs.files()) {
            try (RowReader in = inputs.readRows(file)) {
                for (RowData row = in.next(); row != null; row = in.next()) {
                    out.write(row);
                }
            }
        }
    }
}

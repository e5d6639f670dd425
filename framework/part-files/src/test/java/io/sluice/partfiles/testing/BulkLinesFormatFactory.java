package io.sluice.partfiles.testing;

import io.sluice.spi.format.BulkWritingFormat;
import io.sluice.spi.format.FormatContext;

import org.apache.flink.api.common.serialization.BulkWriter;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.table.data.RowData;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Test bulk format {@code bulk-lines}: buffers the first column of each row and writes the lines
 * only on {@link BulkWriter#finish()}, like a columnar format writing its footer.
 */
public final class BulkLinesFormatFactory implements BulkWritingFormat {

    @Override
    public String identifier() {
        return "bulk-lines";
    }

    @Override
    public BulkWriter.Factory<RowData> createBulkWriterFactory(FormatContext context) {
        return BulkLinesWriter::new;
    }

    private static final class BulkLinesWriter implements BulkWriter<RowData> {
        private final FSDataOutputStream out;
        private final StringBuilder buffer = new StringBuilder();

        BulkLinesWriter(FSDataOutputStream out) {
            this.out = out;
        }

        @Override
        public void addElement(RowData row) {
            buffer.append(row.getString(0)).append('\n');
        }

        @Override
        public void flush() {
            // a bulk format cannot write a partial file: nothing until finish()
        }

        @Override
        public void finish() throws IOException {
            out.write(buffer.toString().getBytes(StandardCharsets.UTF_8));
            out.flush();
            buffer.setLength(0);
        }
    }
}

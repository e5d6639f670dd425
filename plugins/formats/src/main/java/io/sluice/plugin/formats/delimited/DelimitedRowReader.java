package io.sluice.plugin.formats.delimited;

import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.connector.file.src.reader.StreamFormat;
import org.apache.flink.metrics.Counter;
import org.apache.flink.table.data.RowData;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.Closeable;
import java.io.IOException;

/**
 * Reads the rows of one file of delimited records; see {@link DelimitedRowFormat}.
 *
 * <p>Records skipped under {@code ignore-parse-errors} are counted, in the source's {@code
 * numRecordsInErrors} metric and per file: the first one is logged with
 * its position at WARN, the rest at DEBUG, and the total at WARN when the reader closes, so that
 * dropped data shows in the task manager's log without flooding it.
 */
final class DelimitedRowReader implements StreamFormat.Reader<RowData> {

    private static final Logger LOG = LoggerFactory.getLogger(DelimitedRowReader.class);

    private final String format;
    private final RecordSplitter records;
    private final Closeable stream;
    private final DeserializationSchema<RowData> schema;
    private final Counter skippedMetric; // shared by the readers of a source subtask
    private long skipped;

    DelimitedRowReader(
            String format,
            RecordSplitter records,
            Closeable stream,
            DeserializationSchema<RowData> schema,
            Counter skippedMetric) {
        this.format = format;
        this.records = records;
        this.stream = stream;
        this.schema = schema;
        this.skippedMetric = skippedMetric;
    }

    @Override
    public RowData read() throws IOException {
        while (records.next()) {
            if (!carriesRow()) {
                continue;
            }
            RowData row = parse();
            if (row != null) {
                return row;
            }
            // the schema was told to ignore parse errors and dropped the record
            countSkipped();
        }
        return null;
    }

    private boolean carriesRow() {
        return !records.syntax().carriesNoRow(records.bytes(), records.length());
    }

    private RowData parse() throws IOException {
        try {
            return schema.deserialize(records.copy());
        } catch (IOException | RuntimeException e) {
            throw new IOException(
                    String.format(
                            "Cannot parse %s record at line %d (byte offset %d): %s",
                            format, records.recordLine(), records.recordOffset(), e.getMessage()),
                    e);
        }
    }

    private void countSkipped() {
        skipped++;
        skippedMetric.inc();
        String message = "Skipped a malformed {} record at line {} (byte offset {})";
        if (skipped == 1) {
            LOG.warn(message, format, records.recordLine(), records.recordOffset());
        } else {
            LOG.debug(message, format, records.recordLine(), records.recordOffset());
        }
    }

    /** How many records this reader skipped as malformed so far. */
    long skippedRecords() {
        return skipped;
    }

    @Override
    public void close() throws IOException {
        if (skipped > 0) {
            LOG.warn(
                    "Skipped {} malformed {} record(s) of this file, as '{}.ignore-parse-errors'" + " asks",
                    skipped,
                    format,
                    format);
        }
        stream.close();
    }
}

package io.sluice.plugin.formats.delimited;

import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.file.src.reader.SimpleStreamFormat;
import org.apache.flink.connector.file.src.reader.StreamFormat;
import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.metrics.Counter;
import org.apache.flink.table.data.RowData;

import java.io.IOException;

/**
 * Reads a file of delimited records (one CSV record or JSON object per line) with a Flink {@link
 * DeserializationSchema} per record.
 *
 * <p>Not splittable: a split boundary may fall inside a quoted CSV value that spans lines, and
 * finding the next record boundary from an arbitrary byte would need the whole quoting state. Large
 * files are read by one reader, as Flink's own line formats do.
 *
 * <p>A record the schema cannot parse fails the read with an {@link IOException} naming the format,
 * the line and the byte offset where the record starts (the framework adds the file). With {@code
 * ignore-parse-errors} the schema drops such records itself; the reader counts them and logs the
 * count when it closes (see {@link DelimitedRowReader}).
 */
public final class DelimitedRowFormat extends SimpleStreamFormat<RowData> {

    private static final long serialVersionUID = 1L;

    private final String format;
    private final DeserializationSchema<RowData> schema;
    private final RecordSyntax syntax;
    // task side only: the format is created where it reads and never serialized
    private final transient Counter skipped;

    /**
     * @param format the format's name, for messages
     * @param schema parses one record; returns null for a record it was told to ignore
     */
    public DelimitedRowFormat(
            String format, DeserializationSchema<RowData> schema, RecordSyntax syntax, Counter skipped) {
        this.format = format;
        this.schema = schema;
        this.syntax = syntax;
        this.skipped = skipped;
    }

    @Override
    public StreamFormat.Reader<RowData> createReader(Configuration config, FSDataInputStream stream)
            throws IOException {
        open();
        // a non-splittable format is always read from the start of the file
        return new DelimitedRowReader(format, new RecordSplitter(stream, syntax, 0L), stream, schema, skipped);
    }

    private void open() throws IOException {
        try {
            schema.open(new PluginInitializationContext());
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException("Could not open the " + format + " deserialization schema", e);
        }
    }

    @Override
    public TypeInformation<RowData> getProducedType() {
        return schema.getProducedType();
    }
}

package io.sluice.plugin.formats.delimited;

import org.apache.flink.api.common.serialization.Encoder;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.table.data.RowData;

import java.io.IOException;
import java.io.OutputStream;

/**
 * Writes each row as the bytes of a Flink {@link SerializationSchema} followed by {@code \n}, so
 * that one row is one line.
 *
 * <p>Flink's CSV and JSON schemas both write a bare record with no line separator (the format
 * tests pin this down), so the delimiter is added here, exactly once.
 */
public final class SerializationSchemaEncoder implements Encoder<RowData> {

    private static final long serialVersionUID = 1L;

    private static final int LINE_DELIMITER = '\n';

    private final SerializationSchema<RowData> schema;

    // the schemas build their mappers in open(); after deserialization they need it again
    private transient boolean opened;

    /** @param schema the serializer of one row, which must not end the record with a newline */
    public SerializationSchemaEncoder(SerializationSchema<RowData> schema) {
        this.schema = schema;
    }

    @Override
    public void encode(RowData row, OutputStream out) throws IOException {
        if (!opened) {
            open();
        }
        out.write(schema.serialize(row));
        out.write(LINE_DELIMITER);
    }

    private void open() throws IOException {
        try {
            schema.open(new PluginInitializationContext());
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException("Could not open serialization schema " + schema, e);
        }
        opened = true;
    }
}

package io.sluice.plugin.formats.text;

import org.apache.flink.api.common.serialization.Encoder;
import org.apache.flink.table.data.RowData;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

/**
 * Writes the first column of each row as a line ended by {@code \n}. A null value becomes an empty
 * line: a line has no way to mark null, and dropping the row would change the row count. A value
 * that itself contains {@code \n} is written as it is and reads back as several lines.
 */
final class TextLineEncoder implements Encoder<RowData> {

    private static final long serialVersionUID = 1L;

    // Charset is not Serializable, and Encoder is: keep the name and resolve it once per instance
    private final String charsetName;
    private transient Charset charset;
    private transient byte[] lineDelimiter;

    TextLineEncoder(Charset charset) {
        this.charsetName = charset.name();
    }

    @Override
    public void encode(RowData row, OutputStream out) throws IOException {
        if (charset == null) {
            charset = Charset.forName(charsetName);
            lineDelimiter = "\n".getBytes(charset);
        }
        if (!row.isNullAt(0)) {
            out.write(bytesOf(row));
        }
        out.write(lineDelimiter);
    }

    private byte[] bytesOf(RowData row) {
        if (StandardCharsets.UTF_8.equals(charset)) {
            // Flink keeps strings as UTF-8 bytes: no need to decode and encode them again
            return row.getString(0).toBytes();
        }
        return row.getString(0).toString().getBytes(charset);
    }
}

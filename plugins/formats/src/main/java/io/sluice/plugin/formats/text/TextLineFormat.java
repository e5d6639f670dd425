package io.sluice.plugin.formats.text;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.file.src.reader.SimpleStreamFormat;
import org.apache.flink.connector.file.src.reader.StreamFormat;
import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.Charset;

/**
 * Reads a text file as one row per line, the line being the row's only (string) column.
 *
 * <p>Lines end at {@code \n}, the only delimiter {@link TextLineEncoder} writes; a {@code \r}
 * right before it is dropped so that files from Windows read the same. Lines are found in decoded
 * characters, not bytes, because in UTF-16 a {@code \n} is two bytes. An empty line is an empty
 * string: the encoder writes null as an empty line too, and a line cannot tell the two apart.
 *
 * <p>Not splittable, like Flink's own {@code TextLineInputFormat}: in a multi-byte charset such as
 * UTF-16 a split boundary need not fall on a character, let alone a line.
 */
final class TextLineFormat extends SimpleStreamFormat<RowData> {

    private static final long serialVersionUID = 1L;

    private final RowType rowType;
    // Charset is not Serializable, and a StreamFormat is
    private final String charsetName;

    TextLineFormat(RowType rowType, Charset charset) {
        this.rowType = rowType;
        this.charsetName = charset.name();
    }

    @Override
    public StreamFormat.Reader<RowData> createReader(Configuration config, FSDataInputStream stream) {
        return new LineReader(new BufferedReader(new InputStreamReader(stream, Charset.forName(charsetName))));
    }

    @Override
    public TypeInformation<RowData> getProducedType() {
        return InternalTypeInfo.of(rowType);
    }

    /** The lines of one file. */
    private static final class LineReader implements StreamFormat.Reader<RowData> {

        // fully qualified: inside a StreamFormat, Reader names StreamFormat.Reader
        private final java.io.Reader in;
        private final StringBuilder line = new StringBuilder();

        LineReader(java.io.Reader in) {
            this.in = in;
        }

        @Override
        public RowData read() throws IOException {
            line.setLength(0);
            int c;
            while ((c = in.read()) != -1 && c != '\n') {
                line.append((char) c);
            }
            if (c == -1 && line.length() == 0) {
                return null;
            }
            if (line.length() > 0 && line.charAt(line.length() - 1) == '\r') {
                line.setLength(line.length() - 1);
            }
            return GenericRowData.of(StringData.fromString(line.toString()));
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }
}

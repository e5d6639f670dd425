package io.sluice.partfiles.testing;

import io.sluice.spi.format.FormatContext;
import io.sluice.spi.format.RowEncodingFormat;
import io.sluice.spi.format.StreamReadingFormat;

import org.apache.flink.api.common.serialization.Encoder;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.file.src.reader.SimpleStreamFormat;
import org.apache.flink.connector.file.src.reader.StreamFormat;
import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.RowType;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * Test row format {@code lines}: writes the first column of each row plus {@code "\n"}, behind the
 * optional {@code lines.line-prefix}. Remembers the row type it was asked to encode.
 */
public final class LinesFormatFactory implements RowEncodingFormat, StreamReadingFormat {

    public static final ConfigOption<String> LINE_PREFIX =
            ConfigOptions.key("line-prefix").stringType().defaultValue("");

    /** The row type of the last encoder created: the columns a part file holds. */
    public volatile RowType lastRowType;

    @Override
    public String identifier() {
        return "lines";
    }

    /** Reads the lines back (without the prefix handling: tests read what they wrote). */
    @Override
    public StreamFormat<RowData> createStreamFormat(FormatContext context) {
        return new SimpleStreamFormat<RowData>() {
            @Override
            public Reader<RowData> createReader(Configuration config, FSDataInputStream stream) {
                BufferedReader lines = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8));
                return new Reader<RowData>() {
                    @Override
                    public RowData read() throws IOException {
                        String line = lines.readLine();
                        return line == null ? null : GenericRowData.of(StringData.fromString(line));
                    }

                    @Override
                    public void close() throws IOException {
                        lines.close();
                    }
                };
            }

            @Override
            public TypeInformation<RowData> getProducedType() {
                return TypeInformation.of(RowData.class);
            }
        };
    }

    @Override
    public Encoder<RowData> createEncoder(FormatContext context) {
        lastRowType = context.rowType();
        String prefix = context.options().get(LINE_PREFIX);
        return (row, stream) -> stream.write((prefix + row.getString(0) + "\n").getBytes(StandardCharsets.UTF_8));
    }
}

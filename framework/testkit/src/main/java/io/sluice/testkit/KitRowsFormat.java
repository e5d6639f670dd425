package io.sluice.testkit;

import io.sluice.spi.format.FormatContext;
import io.sluice.spi.format.RowEncodingFormat;
import io.sluice.spi.format.StreamReadingFormat;

import org.apache.flink.api.common.serialization.Encoder;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.file.src.reader.SimpleStreamFormat;
import org.apache.flink.connector.file.src.reader.StreamFormat;
import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.RowType;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The kits' own row format {@code kit-rows}, for testing a file target without a formats plugin:
 * one line per row, columns separated by tabs, {@code \N} for null, backslash, tab and newline in
 * strings escaped. Columns may be BIGINT, INT or STRING. {@link #line(String)} and {@link
 * #parse(String)} let a test read the files as plain text, an independent reader.
 */
public final class KitRowsFormat implements RowEncodingFormat, StreamReadingFormat {

    public static final String IDENTIFIER = "kit-rows";

    @Override
    public String identifier() {
        return IDENTIFIER;
    }

    @Override
    public Encoder<RowData> createEncoder(FormatContext context) {
        List<RowData.FieldGetter> getters = getters(context.rowType());
        return (row, out) -> {
            StringBuilder b = new StringBuilder();
            for (int c = 0; c < getters.size(); c++) {
                if (c > 0) {
                    b.append('\t');
                }
                Object v = getters.get(c).getFieldOrNull(row);
                b.append(v == null ? "\\N" : escape(v.toString()));
            }
            out.write(b.append('\n').toString().getBytes(StandardCharsets.UTF_8));
        };
    }

    @Override
    public StreamFormat<RowData> createStreamFormat(FormatContext context) {
        List<LogicalTypeRoot> roots = roots(context.rowType());
        return new SimpleStreamFormat<>() {
            @Override
            public Reader<RowData> createReader(Configuration config, FSDataInputStream in) {
                BufferedReader lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
                return new Reader<>() {
                    @Override
                    public RowData read() throws IOException {
                        String line = lines.readLine();
                        if (line == null) {
                            return null;
                        }
                        List<String> fields = parse(line);
                        GenericRowData row = new GenericRowData(roots.size());
                        for (int c = 0; c < roots.size(); c++) {
                            String f = fields.get(c);
                            row.setField(
                                    c,
                                    f == null
                                            ? null
                                            : roots.get(c) == LogicalTypeRoot.BIGINT
                                                    ? (Object) Long.parseLong(f)
                                                    : roots.get(c) == LogicalTypeRoot.INTEGER
                                                            ? (Object) Integer.parseInt(f)
                                                            : StringData.fromString(f));
                        }
                        return row;
                    }

                    @Override
                    public void close() throws IOException {
                        lines.close();
                    }
                };
            }

            @Override
            public TypeInformation<RowData> getProducedType() {
                return null;
            }
        };
    }

    /** The fields of one line ({@code null} for {@code \N}), unescaped. */
    public static List<String> parse(String line) {
        List<String> fields = new ArrayList<>();
        for (String raw : line.split("\t", -1)) {
            if (raw.equals("\\N")) {
                fields.add(null);
                continue;
            }
            StringBuilder b = new StringBuilder();
            for (int i = 0; i < raw.length(); i++) {
                char c = raw.charAt(i);
                if (c == '\\' && i + 1 < raw.length()) {
                    char n = raw.charAt(++i);
                    b.append(n == 't' ? '\t' : n == 'n' ? '\n' : n);
                } else {
                    b.append(c);
                }
            }
            fields.add(b.toString());
        }
        return fields;
    }

    /** A line as {@code a,b,...} of its fields, for comparing with rows written as such text. */
    public static String line(String line) {
        return String.join(",", parse(line));
    }

    private static String escape(String s) {
        return s.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n");
    }

    private static List<LogicalTypeRoot> roots(RowType type) {
        List<LogicalTypeRoot> roots = new ArrayList<>();
        for (LogicalType t : type.getChildren()) {
            LogicalTypeRoot root = t.getTypeRoot();
            if (root != LogicalTypeRoot.BIGINT
                    && root != LogicalTypeRoot.INTEGER
                    && root != LogicalTypeRoot.VARCHAR
                    && root != LogicalTypeRoot.CHAR) {
                throw new IllegalArgumentException("kit-rows writes BIGINT, INT and STRING columns, not " + t);
            }
            roots.add(root);
        }
        return roots;
    }

    private static List<RowData.FieldGetter> getters(RowType type) {
        roots(type);
        List<RowData.FieldGetter> getters = new ArrayList<>();
        for (int c = 0; c < type.getFieldCount(); c++) {
            getters.add(RowData.createFieldGetter(type.getTypeAt(c), c));
        }
        return getters;
    }
}

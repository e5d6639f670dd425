package io.sluice.testkit;

import io.sluice.spi.format.FormatContext;
import io.sluice.spi.format.FormatFactory;
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
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The format kit must catch broken formats: each nested class runs it against a tab-separated
 * line format with one defect, and only the checks that defect breaks may fail.
 */
class ConformanceKitCatchesBrokenFormatsTest {

    private static final String CAPABILITIES = "offersACapabilityAndWritesOneWayOnly";
    private static final String ROUND_TRIP = "whatTheWriterWritesTheReaderReadsBack";
    private static final String EMPTY = "anEmptyFileReadsAsNoRows";
    private static final String OPTIONS = "invalidOptionsAreRefusedByName";

    private static Set<String> failedChecks(Class<?> kit) {
        return ConformanceRuns.failedChecks(kit, CAPABILITIES, ROUND_TRIP, EMPTY, OPTIONS);
    }

    @Test
    void aCorrectFormatPassesEveryCheck() {
        assertThat(failedChecks(Correct.class)).isEmpty();
    }

    @Test
    void aReaderThatDropsTheLastRowFails() {
        assertThat(failedChecks(DroppingLastRow.class)).containsExactly(ROUND_TRIP);
    }

    @Test
    void aFormatThatAcceptsAnyOptionsFails() {
        assertThat(failedChecks(AcceptingAnyOptions.class)).containsExactly(OPTIONS);
    }

    /** {@code id<TAB>name} lines; a null name is {@code \N}; option {@code separator} must be one character. */
    static final class TabLines implements RowEncodingFormat, StreamReadingFormat {
        final boolean dropLast;
        final boolean checkOptions;

        TabLines(boolean dropLast, boolean checkOptions) {
            this.dropLast = dropLast;
            this.checkOptions = checkOptions;
        }

        @Override
        public String identifier() {
            return "tab-lines";
        }

        private void check(FormatContext c) {
            String separator = c.options().toMap().getOrDefault("separator", "\t");
            if (checkOptions && separator.length() != 1) {
                throw new IllegalArgumentException("Option 'separator' must be one character, not '" + separator + "'");
            }
        }

        @Override
        public Encoder<RowData> createEncoder(FormatContext c) {
            check(c);
            return (row, out) -> out.write((row.getLong(0) + "\t"
                            + (row.isNullAt(1) ? "\\N" : row.getString(1).toString()).replace("\t", "\\t") + "\n")
                    .getBytes(StandardCharsets.UTF_8));
        }

        @Override
        public StreamFormat<RowData> createStreamFormat(FormatContext c) {
            check(c);
            boolean drop = dropLast;
            return new SimpleStreamFormat<>() {
                @Override
                public Reader<RowData> createReader(Configuration config, FSDataInputStream in) {
                    BufferedReader lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
                    return new Reader<>() {
                        String next;

                        @Override
                        public RowData read() throws java.io.IOException {
                            String line = next != null ? next : lines.readLine();
                            next = null;
                            if (line == null) {
                                return null;
                            }
                            if (drop && (next = lines.readLine()) == null) {
                                return null;
                            }
                            int tab = line.indexOf('\t');
                            String name = line.substring(tab + 1);
                            return GenericRowData.of(
                                    Long.parseLong(line.substring(0, tab)),
                                    name.equals("\\N") ? null : StringData.fromString(name.replace("\\t", "\t")));
                        }

                        @Override
                        public void close() throws java.io.IOException {
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
    }

    abstract static class Kit extends FormatConformance {
        @Override
        protected Map<String, String> invalidOptions() {
            return Map.of("separator", "ab");
        }
    }

    static final class Correct extends Kit {
        @Override
        protected FormatFactory formatFactory() {
            return new TabLines(false, true);
        }
    }

    static final class DroppingLastRow extends Kit {
        @Override
        protected FormatFactory formatFactory() {
            return new TabLines(true, true);
        }
    }

    static final class AcceptingAnyOptions extends Kit {
        @Override
        protected FormatFactory formatFactory() {
            return new TabLines(false, false);
        }
    }
}

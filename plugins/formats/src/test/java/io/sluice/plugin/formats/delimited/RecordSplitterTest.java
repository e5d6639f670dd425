package io.sluice.plugin.formats.delimited;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link RecordSplitter} against a byte-at-a-time oracle (this test's own, written for clarity):
 * random CSV-like text from a printed seed (quoted line ends, doubled quotes, escapes, CR LF, empty
 * lines, records longer than the splitter's buffer, a last record without its line end), read
 * through a stream that hands out a few bytes at a time, gives the same records with the same
 * line numbers and byte offsets.
 */
class RecordSplitterTest {

    private static final class Record {
        final String bytes;
        final long line;
        final long offset;

        Record(byte[] bytes, int length, long line, long offset) {
            this.bytes = Arrays.toString(Arrays.copyOf(bytes, length));
            this.line = line;
            this.offset = offset;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Record
                    && ((Record) o).bytes.equals(bytes)
                    && ((Record) o).line == line
                    && ((Record) o).offset == offset;
        }

        @Override
        public int hashCode() {
            return bytes.hashCode();
        }

        @Override
        public String toString() {
            return "line " + line + " @" + offset + ": " + bytes;
        }
    }

    @Test
    void splitsAsTheByteAtATimeOracleDoes() throws IOException {
        long seed = System.nanoTime();
        System.out.println("RecordSplitterTest seed: " + seed);
        Random random = new Random(seed);
        for (int round = 0; round < 20; round++) {
            byte[] text = randomText(random);
            for (RecordSyntax syntax : List.of(
                    RecordSyntax.csv('"', null, false),
                    RecordSyntax.csv('"', '\\', true),
                    RecordSyntax.csv(null, null, false))) {
                List<Record> expected = oracle(text, syntax, 17);
                List<Record> actual = split(new Trickle(text, random.nextLong()), syntax, 17);
                assertThat(actual).as("seed %s round %s", seed, round).isEqualTo(expected);
            }
        }
    }

    private static List<Record> split(InputStream in, RecordSyntax syntax, long startOffset) throws IOException {
        RecordSplitter splitter = new RecordSplitter(in, syntax, startOffset);
        List<Record> records = new ArrayList<>();
        while (splitter.next()) {
            records.add(
                    new Record(splitter.bytes(), splitter.length(), splitter.recordLine(), splitter.recordOffset()));
        }
        return records;
    }

    /** The rule, one byte at a time: a line end outside quotes ends a record; a final CR goes. */
    private static List<Record> oracle(byte[] text, RecordSyntax syntax, long startOffset) {
        List<Record> records = new ArrayList<>();
        int i = 0;
        long line = 1;
        while (i < text.length) {
            long recordLine = line;
            long recordOffset = startOffset + i;
            java.io.ByteArrayOutputStream record = new java.io.ByteArrayOutputStream();
            boolean quoted = false;
            boolean escaped = false;
            boolean ended = false;
            while (i < text.length) {
                int b = text[i++] & 0xFF;
                if (b == '\n') {
                    line++;
                    if (!quoted) {
                        ended = true;
                        break;
                    }
                }
                if (escaped) {
                    escaped = false;
                } else if (b == syntax.escape()) {
                    escaped = true;
                } else if (b == syntax.quote()) {
                    quoted = !quoted;
                }
                record.write(b);
            }
            byte[] bytes = record.toByteArray();
            int length = bytes.length > 0 && bytes[bytes.length - 1] == '\r' ? bytes.length - 1 : bytes.length;
            records.add(new Record(bytes, length, recordLine, recordOffset));
            if (!ended) {
                break;
            }
        }
        return records;
    }

    private static byte[] randomText(Random random) {
        StringBuilder text = new StringBuilder();
        String[] pieces = {"a", "b,c", "\"", "\"\"", "\\", "\n", "\r\n", ",", "x\"y\nz\"", "ü", "#c"};
        int size = random.nextInt(4) == 0 ? 200_000 : random.nextInt(2_000);
        while (text.length() < size) {
            if (random.nextInt(50) == 0) {
                text.append("q".repeat(70_000 + random.nextInt(10))); // beyond the 64 KB buffer
            }
            text.append(pieces[random.nextInt(pieces.length)]);
        }
        return text.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    /** Hands out one to a few bytes per read, so that records straddle every refill. */
    private static final class Trickle extends InputStream {
        private final ByteArrayInputStream in;
        private final Random random;

        Trickle(byte[] bytes, long seed) {
            this.in = new ByteArrayInputStream(bytes);
            this.random = new Random(seed);
        }

        @Override
        public int read() {
            return in.read();
        }

        @Override
        public int read(byte[] b, int off, int len) {
            int chunk = random.nextInt(10) == 0 ? len : 1 + random.nextInt(7);
            return in.read(b, off, Math.min(len, chunk));
        }
    }
}

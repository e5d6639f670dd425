package io.sluice.spi.partition;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** Proves Hive-style partition path escaping keeps every value one harmless path segment and decodes back exactly. */
class PartitionPathsTest {

    @Test
    void leavesOrdinaryValuesAlone() {
        for (String v : List.of("2024-01-02", "abc", "a b", "ünïcödé €", "12.50", "-3", "...", ".x", "x.", "a-b_c~d")) {
            assertThat(PartitionPaths.escape(v)).as(v).isEqualTo(v);
            assertThat(PartitionPaths.unescape(v)).as(v).isSameAs(v);
        }
    }

    @Test
    void escapesHiveSpecialCharactersAsUpperCaseHex() {
        assertThat(PartitionPaths.escape("a/b")).isEqualTo("a%2Fb");
        assertThat(PartitionPaths.escape("a\\b")).isEqualTo("a%5Cb");
        assertThat(PartitionPaths.escape("k=v")).isEqualTo("k%3Dv");
        assertThat(PartitionPaths.escape("03:04:05")).isEqualTo("03%3A04%3A05");
        assertThat(PartitionPaths.escape("50%")).isEqualTo("50%25");
        assertThat(PartitionPaths.escape("\"#'*?{}[]^\u007F")).isEqualTo("%22%23%27%2A%3F%7B%7D%5B%5D%5E%7F");
        assertThat(PartitionPaths.escape("tab\tnl\n\u0000")).isEqualTo("tab%09nl%0A%00");
        assertThat(PartitionPaths.escape("../../etc")).isEqualTo("..%2F..%2Fetc");
    }

    @Test
    void dotAndDotDotAreEscapedAsAWhole() {
        assertThat(PartitionPaths.escape(".")).isEqualTo("%2E");
        assertThat(PartitionPaths.escape("..")).isEqualTo("%2E%2E");
        assertThat(PartitionPaths.unescape("%2E")).isEqualTo(".");
        assertThat(PartitionPaths.unescape("%2E%2E")).isEqualTo("..");
    }

    @Test
    void unescapeKeepsMalformedSequences() {
        assertThat(PartitionPaths.unescape("100%")).isEqualTo("100%");
        assertThat(PartitionPaths.unescape("%2")).isEqualTo("%2");
        assertThat(PartitionPaths.unescape("%zz%2f")).isEqualTo("%zz/");
        assertThat(PartitionPaths.unescape("a%2Fb%3d")).isEqualTo("a/b=");
    }

    @Test
    void pathAndSpecAreInverse() {
        LinkedHashMap<String, String> spec = new LinkedHashMap<>();
        spec.put("dt", "2024-01-02");
        spec.put("ts", "2024-01-02 03:04:05");
        spec.put("s", "a/b=c%d");
        spec.put("dots", "..");
        spec.put("empty", "");
        String path = PartitionPaths.path(spec);
        assertThat(path).isEqualTo("dt=2024-01-02/ts=2024-01-02 03%3A04%3A05/s=a%2Fb%3Dc%25d/dots=%2E%2E/empty=");
        assertThat(PartitionPaths.spec(path)).containsExactlyEntriesOf(spec);
        assertThat(PartitionPaths.values(spec))
                .containsExactly("2024-01-02", "2024-01-02 03:04:05", "a/b=c%d", "..", "");
        assertThat(PartitionPaths.path(new LinkedHashMap<>())).isEmpty();
    }

    @Test
    void specIgnoresSegmentsThatAreNotKeyValue() {
        assertThat(PartitionPaths.spec("/warehouse/t/dt=1/junk/=nokey/hr=02/"))
                .containsExactly(Map.entry("dt", "1"), Map.entry("hr", "02"));
        assertThat(PartitionPaths.spec("")).isEmpty();
    }

    @Test
    void keysAreEscapedToo() {
        LinkedHashMap<String, String> spec = new LinkedHashMap<>();
        spec.put("a=b/c", "v");
        assertThat(PartitionPaths.path(spec)).isEqualTo("a%3Db%2Fc=v");
        assertThat(PartitionPaths.spec("a%3Db%2Fc=v")).containsExactly(Map.entry("a=b/c", "v"));
    }

    @Test
    void anyValueRoundTripsAndStaysOneHarmlessSegment() {
        Random random = new Random(42);
        String alphabet = "./\\=:%ab. -_\u0000\u001F\u007F\"#'*?{}[]^é€😀";
        for (int i = 0; i < 20_000; i++) {
            StringBuilder sb = new StringBuilder();
            int len = random.nextInt(6);
            for (int j = 0; j < len; j++) {
                sb.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            String value = sb.toString();
            String escaped = PartitionPaths.escape(value);
            assertThat(PartitionPaths.unescape(escaped)).as("value '%s'", value).isEqualTo(value);
            assertThat(escaped)
                    .as("value '%s'", value)
                    .doesNotContain("/", "\\", "=", ":")
                    .isNotIn(".", "..");
            assertThat(escaped.chars().noneMatch(c -> c < ' ' || c == 0x7F))
                    .as("value '%s'", value)
                    .isTrue();

            LinkedHashMap<String, String> spec = new LinkedHashMap<>();
            spec.put("k", value);
            spec.put(value.isEmpty() ? "e" : value, "v");
            assertThat(PartitionPaths.spec(PartitionPaths.path(spec)))
                    .as("value '%s'", value)
                    .containsExactlyEntriesOf(spec);
        }
    }
}

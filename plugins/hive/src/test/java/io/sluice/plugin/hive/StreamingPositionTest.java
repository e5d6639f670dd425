package io.sluice.plugin.hive;

import io.sluice.plugin.hive.StreamingPosition.KeyKind;
import io.sluice.spi.Payload;

import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The consumed position of a streaming Hive read: what counts as new, how the offset moves, that
 * it stays small, and that the bytes of every version it wrote are still read (checked in under
 * {@code streaming-position-migration/}; a missing file is written on a run with {@code
 * -Dsluice.migration.write=true}, never overwritten).
 */
class StreamingPositionTest {

    @Test
    void namesAtOrAfterTheStartAreNewOnce() {
        StreamingPosition start = StreamingPosition.start(KeyKind.NAME, "dt=2026-12-02");
        assertThat(start.isNew("dt=2026-12-01", "dt=2026-12-01")).isFalse();
        assertThat(start.isNew("dt=2026-12-02", "dt=2026-12-02")).isTrue(); // the start is inclusive

        StreamingPosition after = start.after(names("dt=2026-12-02", "dt=2026-12-03"), 0);
        assertThat(after.isNew("dt=2026-12-03", "dt=2026-12-03")).isFalse();
        assertThat(after.isNew("dt=2026-12-02", "dt=2026-12-02")).isFalse();
        assertThat(after.isNew("dt=2026-12-04", "dt=2026-12-04")).isTrue();
        // a name below the newest one taken is behind the position: the order's promise
        assertThat(after.isNew("dt=2026-12-02a", "dt=2026-12-02a")).isFalse();
        assertThat(after.offset()).isEqualTo("dt=2026-12-03");
        assertThat(after.size()).isEqualTo(1);
    }

    @Test
    void timesKeepThePartitionsOfTheNewestTimeAndOfTheLookback() {
        StreamingPosition start = StreamingPosition.start(KeyKind.TIME, null);
        Map<String, Long> first = new LinkedHashMap<>();
        first.put("dt=1/region=a", 1_000L);
        first.put("dt=2/region=a", 2_000L);
        StreamingPosition ties = start.after(first, 0);
        assertThat(ties.offset()).isEqualTo(2_000L);
        assertThat(ties.size()).isEqualTo(1);
        // another partition of the newest time is still new; one of an older time is not
        assertThat(ties.isNew("dt=2/region=b", 2_000L)).isTrue();
        assertThat(ties.isNew("dt=2/region=a", 2_000L)).isFalse();
        assertThat(ties.isNew("dt=1/region=b", 1_000L)).isFalse();

        StreamingPosition lookback = start.after(first, 1_500);
        assertThat(lookback.offset()).isEqualTo(500L);
        assertThat(lookback.isNew("dt=1/region=b", 1_000L)).isTrue();
        assertThat(lookback.isNew("dt=1/region=a", 1_000L)).isFalse();
        assertThat(lookback.size()).isEqualTo(2);
        // the offset never moves back
        assertThat(lookback.after(Map.of("old", 600L), 1_500).offset()).isEqualTo(500L);
    }

    @Test
    void thePositionOfTwentyThousandPartitionsIsItsNewestOnly() {
        StreamingPosition position = StreamingPosition.start(KeyKind.NAME, null);
        Map<String, String> taken = new LinkedHashMap<>();
        for (int i = 0; i < 20_000; i++) {
            String name = String.format("dt=%06d/hr=%02d", i / 24, i % 24);
            taken.put(name, name);
        }
        position = position.after(taken, 0);
        assertThat(position.size()).isEqualTo(1);
        assertThat(position.toPayload().bytes().length).isLessThan(100);
    }

    @Test
    void payloadsRoundTrip() throws Exception {
        for (StreamingPosition p : new StreamingPosition[] {
            StreamingPosition.start(KeyKind.NAME, null), StreamingPosition.start(KeyKind.TIME, 42L), sample()
        }) {
            assertThat(StreamingPosition.fromPayload(p.toPayload())).isEqualTo(p);
        }
        assertThatThrownBy(() -> StreamingPosition.fromPayload(new Payload(2, new byte[0])))
                .hasMessageContaining("version 2");
        assertThatThrownBy(() -> StreamingPosition.fromPayload(new Payload(1, new byte[] {0, 1, 0, 0, 0, 7})))
                .hasMessageContaining("7 bytes");
    }

    @Test
    void version1BytesAreRead() throws Exception {
        String resource = "streaming-position-migration/v1.b64";
        if (Boolean.getBoolean("sluice.migration.write")) {
            java.nio.file.Path file = Paths.get("src", "test", "resources").resolve(resource);
            if (!Files.exists(file)) {
                Files.createDirectories(file.getParent());
                Files.write(
                        file,
                        Base64.getMimeEncoder().encode(sample().toPayload().bytes()));
            }
        }
        byte[] bytes;
        try (InputStream in = getClass().getClassLoader().getResourceAsStream(resource)) {
            assertThat(in).as("checked-in bytes " + resource).isNotNull();
            bytes = Base64.getMimeDecoder().decode(new String(in.readAllBytes(), StandardCharsets.US_ASCII));
        }
        StreamingPosition read = StreamingPosition.fromPayload(new Payload(1, bytes));
        assertThat(read).isEqualTo(sample());
        assertThat(read.kind()).isEqualTo(KeyKind.TIME);
        assertThat(read.offset()).isEqualTo(1_764_547_200_000L);
        assertThat(read.isNew("dt=2025-12-01/region=eu", 1_764_547_200_000L)).isFalse();
        assertThat(read.isNew("dt=2025-12-01/region=us", 1_764_547_200_000L)).isTrue();
    }

    /** Two partitions of one time, taken from the start. */
    private static StreamingPosition sample() {
        Map<String, Long> taken = new LinkedHashMap<>();
        taken.put("dt=2025-12-01/region=eu", 1_764_547_200_000L);
        taken.put("dt=2025-12-01/region=asia", 1_764_547_200_000L);
        taken.put("dt=2025-11-30/region=eu", 1_764_460_800_000L);
        return StreamingPosition.start(KeyKind.TIME, null).after(taken, 0);
    }

    private static Map<String, String> names(String... names) {
        Map<String, String> m = new LinkedHashMap<>();
        for (String n : names) {
            m.put(n, n);
        }
        return m;
    }
}

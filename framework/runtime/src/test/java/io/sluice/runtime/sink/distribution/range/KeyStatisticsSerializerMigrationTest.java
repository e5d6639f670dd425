package io.sluice.runtime.sink.distribution.range;

import io.sluice.testshared.CheckedInBytes;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Range statistics of every version stay readable: the shuffle operators' state, the
 * coordinator's checkpoint and the events all hold these bytes. {@code
 * range-statistics-migration/<scenario>/v1} was written by the commit that added version 1.
 */
class KeyStatisticsSerializerMigrationTest {

    private static final String[] SCENARIOS = {"empty-map", "map", "sketch"};

    private final KeyStatisticsSerializer serializer = KeyStatisticsSerializer.INSTANCE;

    @ParameterizedTest
    @ValueSource(strings = {"empty-map", "map", "sketch"})
    void version1ReadsToWhatItHeldAndIsWrittenSo(String scenario) throws IOException {
        byte[] checkedIn = CheckedInBytes.read(resource(scenario, 1));

        assertThat(serializer.deserialize(1, checkedIn)).isEqualTo(expected(scenario));
        // the current version: the same bytes again, or the layout changed without a new version
        assertThat(serializer.getVersion()).isEqualTo(1);
        assertThat(serializer.serialize(expected(scenario))).isEqualTo(checkedIn);
    }

    @Test
    void anUnknownVersionIsAnErrorNamingTheVersionsRead() {
        assertThatThrownBy(() -> serializer.deserialize(2, new byte[0]))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("Unknown version 2 of range statistics")
                .hasMessageContaining("reads up to 1");
    }

    /** Checks in the bytes of the current version (run with -Dsluice.migration.write=true). */
    @Test
    @EnabledIfSystemProperty(named = CheckedInBytes.WRITE_PROPERTY, matches = "true")
    void writeCurrentVersion() throws IOException {
        for (String scenario : SCENARIOS) {
            CheckedInBytes.write(resource(scenario, serializer.getVersion()), serializer.serialize(expected(scenario)));
        }
    }

    private static String resource(String scenario, int version) {
        return "range-statistics-migration/" + scenario + "/v" + version + ".b64";
    }

    private static KeyStatistics expected(String scenario) {
        switch (scenario) {
            case "empty-map":
                return KeyStatistics.ofCounts(3, Collections.emptyMap());
            case "map": {
                Map<String, Long> counts = new LinkedHashMap<>();
                counts.put("\u0001p1\u0000\u0000", 120L);
                counts.put("\u0001p0\u0000\u0000", 7L);
                counts.put("\u0000", 1L); // a null key
                counts.put("\u0001\u00ff\u0080", 3L); // bytes above 0x7f
                return KeyStatistics.ofCounts(42, counts);
            }
            case "sketch":
                return KeyStatistics.ofSample(
                        43, 9_000, Arrays.asList("\u0001a\u0000\u0000", "\u0001b\u0000\u0000", "\u0001a\u0000\u0000"));
            default:
                throw new IllegalArgumentException(scenario);
        }
    }
}

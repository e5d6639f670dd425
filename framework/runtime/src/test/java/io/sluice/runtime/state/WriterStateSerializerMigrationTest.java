package io.sluice.runtime.state;

import io.sluice.spi.Payload;
import io.sluice.testshared.CheckedInBytes;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collections;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Sink writer states of every version stay readable. {@code writer-state-migration/<scenario>/v1}
 * was written by f2cb40f (version 1 is the only version so far, unchanged since 072b437).
 */
class WriterStateSerializerMigrationTest {

    private final WriterStateSerializer serializer = new WriterStateSerializer();

    @ParameterizedTest
    @ValueSource(strings = {"empty", "two-payloads"})
    void version1ReadsToWhatItHeldAndIsWrittenSo(String scenario) throws IOException {
        byte[] checkedIn = CheckedInBytes.read(resource(scenario, 1));

        assertThat(serializer.deserialize(1, checkedIn))
                .usingRecursiveComparison()
                .isEqualTo(expected(scenario));
        // the current version: the same bytes again, or the layout changed without a new version
        assertThat(serializer.getVersion()).isEqualTo(1);
        assertThat(serializer.serialize(expected(scenario))).isEqualTo(checkedIn);
    }

    @Test
    void anUnknownVersionIsAnErrorNamingTheVersionsRead() {
        assertThatThrownBy(() -> serializer.deserialize(2, new byte[0]))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("Sluice writer state of version 2")
                .hasMessageContaining("reads version 1");
    }

    /** Checks in the bytes of the current version (run with -Dsluice.migration.write=true). */
    @Test
    @EnabledIfSystemProperty(named = CheckedInBytes.WRITE_PROPERTY, matches = "true")
    void writeCurrentVersion() throws IOException {
        for (String scenario : Arrays.asList("empty", "two-payloads")) {
            CheckedInBytes.write(resource(scenario, serializer.getVersion()), serializer.serialize(expected(scenario)));
        }
    }

    private static String resource(String scenario, int version) {
        return "writer-state-migration/" + scenario + "/v" + version + ".b64";
    }

    private static WriterState expected(String scenario) {
        if (scenario.equals("empty")) {
            return new WriterState(Collections.emptyList());
        }
        return new WriterState(Arrays.asList(
                new Envelope("filesystem", "filesystem", new Payload(3, "writer-a".getBytes(StandardCharsets.UTF_8))),
                new Envelope("filesystem", "filesystem", new Payload(2, "writer-b".getBytes(StandardCharsets.UTF_8)))));
    }
}

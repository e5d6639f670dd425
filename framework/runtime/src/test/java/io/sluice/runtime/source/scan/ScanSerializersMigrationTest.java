package io.sluice.runtime.source.scan;

import io.sluice.runtime.state.Envelope;
import io.sluice.spi.Payload;
import io.sluice.testshared.CheckedInBytes;

import org.apache.flink.connector.file.src.util.CheckpointedPosition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collections;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Scan splits and scan enumerator states of every version stay readable. {@code v1} under {@code
 * scan-split-migration/} and {@code scan-enumerator-state-migration/} were written by f2cb40f (both
 * unchanged since 60c0ac3); {@code v2} of the enumerator state by {@link #writeCurrentVersion}.
 */
class ScanSerializersMigrationTest {

    /** What Flink's split serializer keeps of a split it read: not part of the split. */
    static final String SERIALIZED_FORM_CACHE = ".*serializedFormCache";

    private final ScanSplitSerializer splits = new ScanSplitSerializer();
    private final ScanEnumeratorStateSerializer states = new ScanEnumeratorStateSerializer();

    @ParameterizedTest
    @ValueSource(strings = {"unread", "with-position"})
    void splitVersion1ReadsToWhatItHeldAndIsWrittenSo(String scenario) throws IOException {
        byte[] checkedIn = CheckedInBytes.read("scan-split-migration/" + scenario + "/v1.b64");

        ScanSourceSplit read = splits.deserialize(1, checkedIn);
        assertThat(read)
                .usingRecursiveComparison()
                .ignoringFieldsMatchingRegexes(SERIALIZED_FORM_CACHE)
                .isEqualTo(split(scenario));
        assertThat(read.splitId()).isEqualTo(scenario.equals("unread") ? "0" : "1");
        // the current version: the same bytes again, or the layout changed without a new version
        assertThat(splits.getVersion()).isEqualTo(1);
        assertThat(splits.serialize(split(scenario))).isEqualTo(checkedIn);
    }

    @ParameterizedTest(name = "{0} v{1}")
    @CsvSource({"empty, 1", "empty, 2", "splits-and-position, 1", "splits-and-position, 2"})
    void everyEnumeratorStateVersionReadsToWhatItHeld(String scenario, int version) throws IOException {
        ScanEnumeratorState read = states.deserialize(version, CheckedInBytes.read(stateResource(scenario, version)));

        assertThat(read)
                .usingRecursiveComparison()
                .ignoringFieldsMatchingRegexes(SERIALIZED_FORM_CACHE)
                .isEqualTo(state(scenario));
    }

    @Test
    void theCurrentEnumeratorStateVersionWritesItsCheckedInBytes() throws IOException {
        assertThat(states.getVersion()).isEqualTo(2);
        for (String scenario : Arrays.asList("empty", "splits-and-position")) {
            assertThat(states.serialize(state(scenario)))
                    .as(scenario)
                    .isEqualTo(CheckedInBytes.read(stateResource(scenario, 2)));
        }
    }

    @Test
    void unknownVersionsAreErrorsNamingTheVersionsRead() {
        assertThatThrownBy(() -> splits.deserialize(2, new byte[0]))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("Sluice scan split of version 2")
                .hasMessageContaining("reads version 1");
        assertThatThrownBy(() -> states.deserialize(3, new byte[0]))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("Sluice scan enumerator state of version 3")
                .hasMessageContaining("versions 1 and 2");
    }

    /** Checks in the bytes of the current versions (run with -Dsluice.migration.write=true). */
    @Test
    @EnabledIfSystemProperty(named = CheckedInBytes.WRITE_PROPERTY, matches = "true")
    void writeCurrentVersion() throws IOException {
        for (String scenario : Arrays.asList("unread", "with-position")) {
            CheckedInBytes.write(
                    "scan-split-migration/" + scenario + "/v" + splits.getVersion() + ".b64",
                    splits.serialize(split(scenario)));
        }
        for (String scenario : Arrays.asList("empty", "splits-and-position")) {
            CheckedInBytes.write(stateResource(scenario, states.getVersion()), states.serialize(state(scenario)));
        }
    }

    private static String stateResource(String scenario, int version) {
        return "scan-enumerator-state-migration/" + scenario + "/v" + version + ".b64";
    }

    private static Envelope iceberg(int version, String bytes) {
        return new Envelope("iceberg", "iceberg", new Payload(version, bytes.getBytes(StandardCharsets.UTF_8)));
    }

    private static ScanSourceSplit split(String scenario) {
        return scenario.equals("unread")
                ? new ScanSourceSplit("0", "file:/warehouse/db/t/data/a.parquet", iceberg(3, "split-a"), null)
                : new ScanSourceSplit(
                        "1",
                        "file:/warehouse/db/t/data/b.parquet and 2 more",
                        iceberg(3, "split-b"),
                        new CheckpointedPosition(0, 42));
    }

    private static ScanEnumeratorState state(String scenario) {
        return scenario.equals("empty")
                ? new ScanEnumeratorState(Collections.emptyList(), null, 0)
                : new ScanEnumeratorState(
                        Arrays.asList(split("unread"), split("with-position")), iceberg(1, "snapshot-42"), 5);
    }
}

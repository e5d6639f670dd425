package io.sluice.runtime.source.file;

import io.sluice.testshared.CheckedInBytes;

import org.apache.flink.connector.file.src.FileSourceSplit;
import org.apache.flink.connector.file.src.util.CheckpointedPosition;
import org.apache.flink.core.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * File source enumerator states of every version stay readable. Under {@code
 * enumerator-state-migration/<scenario>/}: {@code v1} written by f2cb40f (version 1 unchanged
 * since 19f829d), {@code v2} by {@link #writeCurrentVersion}.
 */
class EnumeratorStateSerializerMigrationTest {

    /** What Flink's split serializer keeps of a split it read: not part of the split. */
    static final String SERIALIZED_FORM_CACHE = ".*serializedFormCache";

    static final long T0 = 1709622489010L;
    static final List<String> SCENARIOS = Arrays.asList("empty", "splits-and-seen-files");

    private final EnumeratorStateSerializer serializer = new EnumeratorStateSerializer();

    @ParameterizedTest(name = "{0} v{1}")
    @CsvSource({"empty, 1", "empty, 2", "splits-and-seen-files, 1", "splits-and-seen-files, 2"})
    void everyVersionReadsToWhatItHeld(String scenario, int version) throws IOException {
        EnumeratorState read = serializer.deserialize(version, CheckedInBytes.read(resource(scenario, version)));

        assertThat(read)
                .usingRecursiveComparison()
                .ignoringFieldsMatchingRegexes(SERIALIZED_FORM_CACHE)
                .isEqualTo(expected(scenario));
    }

    @Test
    void theCurrentVersionWritesItsCheckedInBytes() throws IOException {
        assertThat(serializer.getVersion()).isEqualTo(2);
        for (String scenario : SCENARIOS) {
            assertThat(serializer.serialize(expected(scenario)))
                    .as(scenario)
                    .isEqualTo(CheckedInBytes.read(resource(scenario, 2)));
        }
    }

    @Test
    void anUnknownVersionIsAnErrorNamingTheVersionsRead() {
        assertThatThrownBy(() -> serializer.deserialize(3, new byte[0]))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("file source enumerator state of version 3")
                .hasMessageContaining("versions 1 and 2");
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
        return "enumerator-state-migration/" + scenario + "/v" + version + ".b64";
    }

    private static EnumeratorState expected(String scenario) {
        if (scenario.equals("empty")) {
            return new EnumeratorState(Collections.emptyList(), null); // a bounded read: no seen files
        }
        Path file = new Path("file:/data/t/dt=2024-03-05/part-0.csv");
        List<FileSourceSplit> splits = Arrays.asList(
                new FileSourceSplit("part-0.csv-0-1709622489010", file, 0, 100, T0, 250, new String[] {"host-a"}, null),
                new FileSourceSplit(
                        "part-0.csv-100-1709622489010",
                        file,
                        100,
                        150,
                        T0,
                        250,
                        new String[0],
                        new CheckpointedPosition(120, 3)));
        Map<String, Long> recent = new HashMap<>();
        recent.put("file:/data/t/dt=2024-03-05/part-0.csv", T0);
        return new EnumeratorState(splits, new SeenFiles(60_000, T0 - 60_000, recent));
    }
}

package io.sluice.runtime.state;

import io.sluice.spi.Payload;
import io.sluice.testshared.CheckedInBytes;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Committables of every version stay readable: the committer's state, the aggregator's pending
 * handovers and unaligned checkpoints' in-flight data hold them. The bytes under {@code
 * committable-migration/} were written by the serializer of their time: {@code
 * v1-without-due-partitions} by 072b437, {@code v1} by 8d5cec3, {@code v2-without-epoch} by
 * 26cf8fe, {@code v2} by f2cb40f (how: {@code src/test/migration-generators/}), {@code v3} by {@link
 * #writeCurrentVersion}. Each scenario is one committable, with what its version could hold.
 */
class CommittableSerializerMigrationTest {

    static final long T0 = 1709622489010L;
    static final String JOB = "0123456789abcdef0123456789abcdef";
    static final String OP = "fedcba9876543210fedcba9876543210";
    static final String EPOCH = "7f3b0a4c-9d2e-4c1b-8a5f-3e2d1c0b9a87";
    static final List<String> SCENARIOS = Arrays.asList("writer", "aggregated", "empty");

    private final CommittableSerializer serializer = new CommittableSerializer();

    /** The layouts ever written: file name, version, and what a committable of it holds. */
    enum Layout {
        V1_WITHOUT_DUE_PARTITIONS("v1-without-due-partitions", 1),
        V1("v1", 1),
        V2_WITHOUT_EPOCH("v2-without-epoch", 2),
        V2("v2", 2),
        V3("v3", 3);

        final String file;
        final int version;

        Layout(String file, int version) {
            this.file = file;
            this.version = version;
        }

        boolean hasDuePartitions() {
            return this != V1_WITHOUT_DUE_PARTITIONS;
        }

        boolean hasIdsSizesAndUnits() {
            return version >= 2;
        }

        boolean hasEpoch() {
            return this == V2 || version >= 3;
        }
    }

    static Stream<Arguments> checkedIn() {
        List<Arguments> all = new ArrayList<>();
        for (String scenario : SCENARIOS) {
            for (Layout layout : Layout.values()) {
                all.add(Arguments.of(scenario, layout));
            }
        }
        return all.stream();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("checkedIn")
    void everyVersionReadsToWhatItHeld(String scenario, Layout layout) throws IOException {
        Committable read = serializer.deserialize(layout.version, CheckedInBytes.read(resource(scenario, layout)));

        assertThat(read).usingRecursiveComparison().isEqualTo(expected(scenario, layout));
    }

    @Test
    void theCurrentVersionWritesItsCheckedInBytes() throws IOException {
        assertThat(serializer.getVersion()).isEqualTo(3);
        for (String scenario : SCENARIOS) {
            byte[] checkedIn = CheckedInBytes.read(resource(scenario, Layout.V3));
            assertThat(serializer.serialize(expected(scenario, Layout.V3)))
                    .as(scenario)
                    .isEqualTo(checkedIn);
            // version 3 is the later layout of version 2 under a number of its own
            assertThat(checkedIn).as(scenario).isEqualTo(CheckedInBytes.read(resource(scenario, Layout.V2)));
        }
    }

    @Test
    void damagedVersion2BytesAreAnErrorNamingBothReadings() {
        byte[] v2 = CheckedInBytes.read(resource("aggregated", Layout.V2));
        byte[] cut = Arrays.copyOf(v2, v2.length - 3);

        assertThatThrownBy(() -> serializer.deserialize(2, cut))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("committable of version 2")
                .hasMessageContaining("with or without an epoch");
    }

    @Test
    void anUnknownVersionIsAnErrorNamingTheVersionsRead() {
        assertThatThrownBy(() -> serializer.deserialize(4, new byte[0]))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("Sluice committable of version 4")
                .hasMessageContaining("versions 1 to 3");
    }

    /** Checks in the bytes of the current version (run with -Dsluice.migration.write=true). */
    @Test
    @EnabledIfSystemProperty(named = CheckedInBytes.WRITE_PROPERTY, matches = "true")
    void writeCurrentVersion() throws IOException {
        Layout current = Layout.values()[Layout.values().length - 1];
        assertThat(current.version).isEqualTo(serializer.getVersion());
        for (String scenario : SCENARIOS) {
            CheckedInBytes.write(resource(scenario, current), serializer.serialize(expected(scenario, current)));
        }
    }

    private static String resource(String scenario, Layout layout) {
        return "committable-migration/" + scenario + "/" + layout.file + ".b64";
    }

    static Envelope envelope(String bytes) {
        return new Envelope("filesystem", "filesystem", new Payload(2, bytes.getBytes(StandardCharsets.UTF_8)));
    }

    /** The committable of a scenario, as a committable of that layout held it. */
    static Committable expected(String scenario, Layout layout) {
        boolean v2 = layout.hasIdsSizesAndUnits();
        List<Committable.Entry> entries = Arrays.asList(
                new Committable.Entry(envelope("part-0-0"), "dt=2024-03-05", T0, v2 ? 1024 : -1, false),
                new Committable.Entry(envelope("part-0-1"), null, T0 + 1, -1, v2));
        List<String> due =
                layout.hasDuePartitions() ? Arrays.asList("dt=2024-03-04", "dt=2024-03-05") : Collections.emptyList();
        switch (scenario) {
            case "writer":
                return new Committable(entries);
            case "aggregated":
                return new Committable(
                        7,
                        v2 ? JOB : "",
                        v2 ? OP : "",
                        layout.hasEpoch() ? EPOCH : "",
                        entries,
                        v2
                                ? Arrays.asList(new Committable.Unit(
                                        "dt=2024-03-05", Arrays.asList(envelope("part-1-0"), envelope("part-0-0"))))
                                : Collections.emptyList(),
                        due);
            case "empty":
                return new Committable(
                        3, "", "", "", Collections.emptyList(), Collections.emptyList(), Collections.emptyList());
            default:
                throw new IllegalArgumentException(scenario);
        }
    }
}

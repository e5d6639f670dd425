package org.apache.iceberg.flink.source.enumerator;

import io.sluice.testshared.CheckedInBytes;

import org.junit.jupiter.api.Test;

import java.io.IOException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A streaming read's position, as the iceberg plugin keeps it (upstream's serialized {@link
 * IcebergEnumeratorPosition}, its serializer's version the payload's; see {@link
 * SluiceSplitPlanning}), stays readable. In upstream's package, like {@link SluiceSplitPlanning},
 * because the position and its serializer are package-private. The bytes under {@code
 * scan-position-migration/streaming/} were written by {@code IcebergPayloadsMigrationTest}'s
 * writer method: the position after the first plan of a table with one snapshot.
 */
class SluicePositionPayloadMigrationTest {

    @Test
    void version1ReadsToItsSnapshot() throws IOException {
        byte[] checkedIn = CheckedInBytes.read("scan-position-migration/streaming/v1.b64");

        IcebergEnumeratorPosition position = IcebergEnumeratorPositionSerializer.INSTANCE.deserialize(1, checkedIn);
        assertThat(position.snapshotId()).isEqualTo(SNAPSHOT_ID);
        assertThat(position.snapshotTimestampMs()).isEqualTo(SNAPSHOT_TIMESTAMP_MS);
        // upstream's current version: the same bytes again
        assertThat(SluiceSplitPlanning.positionVersion()).isEqualTo(1);
        assertThat(IcebergEnumeratorPositionSerializer.INSTANCE.serialize(position))
                .isEqualTo(checkedIn);
    }

    /** The snapshot of the generating table (random id, its commit time). */
    static final long SNAPSHOT_ID = 6027188319873491298L;

    static final long SNAPSHOT_TIMESTAMP_MS = 1796128861965L;
}

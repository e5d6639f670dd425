package io.sluice.plugin.iceberg;

import io.sluice.spi.Payload;
import io.sluice.spi.sink.TargetCommitter;
import io.sluice.spi.sink.TargetWriter;
import io.sluice.testkit.TestSinkContext;

import org.apache.iceberg.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static io.sluice.plugin.iceberg.Writes.request;
import static io.sluice.plugin.iceberg.Writes.snapshots;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Overwrites without a cluster: a commit replaces exactly the partitions its files are in (the
 * whole table when unpartitioned), records the checkpoint like any commit so a retry is a no-op,
 * and carries the user's snapshot properties.
 */
class IcebergOverwriteTest {

    private static final String OPERATOR = "000000000000000000000000000000bb";

    @TempDir
    Path warehouse;

    private final IcebergTargetFactory target = new IcebergTargetFactory();

    @Test
    void replacesOnlyThePartitionsWritten() throws Exception {
        TestSinkContext append =
                IcebergSinks.hadoop(warehouse, Writes.ROW).partitionKeys("name").build();
        target.validate(append);
        commit(append, "00000000000000000000000000000001", 1, 4, "p", "q"); // 1 p, 2 q, 3 p, 4 q
        TestSinkContext overwrite = IcebergSinks.hadoop(warehouse, Writes.ROW)
                .partitionKeys("name")
                .overwrite(true)
                .option("snapshot-properties", "audit:nightly,owner:etl")
                .build();
        commit(overwrite, "00000000000000000000000000000002", 10, 11, "p", "p");
        commit(overwrite, "00000000000000000000000000000002", 10, 11, "p", "p"); // a retry
        try (CatalogTable table = CatalogTable.load(append.options())) {
            Table t = table.table();
            assertThat(IcebergUpsertTest.contents(t)).isEqualTo(Map.of(2L, "q", 4L, "q", 10L, "p", 11L, "p"));
            assertThat(snapshots(t)).isEqualTo(2);
            assertThat(t.currentSnapshot().operation()).isEqualTo("overwrite");
            assertThat(t.currentSnapshot().summary())
                    .containsEntry("audit", "nightly")
                    .containsEntry("owner", "etl")
                    .containsEntry("flink.job-id", "00000000000000000000000000000002")
                    .containsEntry("replace-partitions", "true");
        }
    }

    @Test
    void replacesAnUnpartitionedTableWhole() throws Exception {
        TestSinkContext append = IcebergSinks.hadoop(warehouse, Writes.ROW).build();
        target.validate(append);
        commit(append, "00000000000000000000000000000001", 1, 4, "p", "q");
        commit(
                IcebergSinks.hadoop(warehouse, Writes.ROW)
                        .option("overwrite-enabled", "true")
                        .build(),
                "00000000000000000000000000000002",
                7,
                7,
                "z",
                "z");
        try (CatalogTable table = CatalogTable.load(append.options())) {
            assertThat(IcebergUpsertTest.contents(table.table())).isEqualTo(Map.of(7L, "z"));
        }
    }

    /** Writes ids {@code from..to}, named alternately {@code odd} and {@code even}, and commits them as checkpoint 1 of {@code job}. */
    private void commit(TestSinkContext context, String job, long from, long to, String odd, String even)
            throws Exception {
        List<Payload> pending = new ArrayList<>();
        try (TargetWriter writer = target.createWriter(context, new ArrayList<>())) {
            for (long id = from; id <= to; id++) {
                writer.write(Writes.row(id, id % 2 == 1 ? odd : even), Writes.NO_TIME);
            }
            writer.prepareCommit(true).forEach(c -> pending.add(c.payload()));
        }
        try (TargetCommitter committer = target.createCommitter(context)) {
            committer.commit(request(job, OPERATOR, 1, pending));
        }
    }
}

package io.sluice.plugin.iceberg;

import io.sluice.spi.source.ScanPlan;
import io.sluice.spi.source.ScanPlanner;

import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Continuous reads with upstream's planner: each starting strategy's first plans, then only what
 * later snapshots append, positions handed back as the framework does.
 */
class IcebergScanStreamingTest {

    @TempDir
    Path warehouse;

    private TestSourceContext streaming(String strategy) {
        return TestSourceContext.hadoop(warehouse, Writes.ROW)
                .set("streaming", "true")
                .set("starting-strategy", strategy);
    }

    @Test
    void tableScanThenIncrementalReadsTheTableThenEachNewAppendOnce() throws Exception {
        ScanFixture table =
                new ScanFixture(IcebergSinks.hadoop(warehouse, Writes.ROW).build());
        table.append(1, 2);
        table.append(3, 3);
        TestSourceContext context = streaming("TABLE_SCAN_THEN_INCREMENTAL").set("monitor-interval", "5s");
        table.source.validate(context);
        assertThat(table.source.monitorInterval(context)).contains(Duration.ofSeconds(5));

        try (ScanPlanner planner = table.source.createPlanner(context)) {
            ScanPlan first = planner.plan(null);
            assertThat(table.read(context, first.splits())).containsExactlyInAnyOrder("1,n1", "2,n2", "3,n3");

            table.append(4, 5);
            ScanPlan second = planner.plan(first.position());
            assertThat(second.splits()).hasSize(1);
            assertThat(table.read(context, second.splits())).containsExactlyInAnyOrder("4,n4", "5,n5");
            assertThat(second.position()).isNotEqualTo(first.position());

            ScanPlan third = planner.plan(second.position());
            assertThat(third.splits()).isEmpty();
            assertThat(third.position()).isEqualTo(second.position());
        }
    }

    @Test
    void aRestoredPlannerContinuesAfterTheCheckpointedPosition() throws Exception {
        ScanFixture table =
                new ScanFixture(IcebergSinks.hadoop(warehouse, Writes.ROW).build());
        table.append(1, 1);
        TestSourceContext context = streaming("TABLE_SCAN_THEN_INCREMENTAL");
        io.sluice.spi.Payload position;
        try (ScanPlanner planner = table.source.createPlanner(context)) {
            position = planner.plan(null).position();
        }
        table.append(2, 2);
        try (ScanPlanner restored = table.source.createPlanner(context)) {
            assertThat(table.read(context, restored.plan(position).splits())).containsExactly("2,n2");
        }
    }

    @Test
    void incrementalFromSnapshotIdStartsWithThatSnapshotsAppends() throws Exception {
        ScanFixture table =
                new ScanFixture(IcebergSinks.hadoop(warehouse, Writes.ROW).build());
        table.append(1, 1);
        long second = table.append(2, 2);
        table.append(3, 3);
        TestSourceContext context =
                streaming("INCREMENTAL_FROM_SNAPSHOT_ID").set("start-snapshot-id", String.valueOf(second));
        table.source.validate(context);
        try (ScanPlanner planner = table.source.createPlanner(context)) {
            ScanPlan first = planner.plan(null);
            // upstream: the first plan of an incremental strategy only finds the position to start from
            assertThat(first.splits()).isEmpty();
            ScanPlan next = planner.plan(first.position());
            assertThat(table.read(context, next.splits())).containsExactlyInAnyOrder("2,n2", "3,n3");
        }
    }

    @Test
    void incrementalFromLatestSnapshotSkipsOlderSnapshotsButReadsTheLatest() throws Exception {
        ScanFixture table =
                new ScanFixture(IcebergSinks.hadoop(warehouse, Writes.ROW).build());
        table.append(1, 1);
        table.append(2, 2);
        // upstream's default strategy; inclusive of the latest snapshot
        TestSourceContext context =
                TestSourceContext.hadoop(warehouse, Writes.ROW).set("streaming", "true");
        try (ScanPlanner planner = table.source.createPlanner(context)) {
            ScanPlan first = planner.plan(null);
            assertThat(first.splits()).isEmpty();
            ScanPlan next = planner.plan(first.position());
            assertThat(table.read(context, next.splits())).containsExactly("2,n2");
            table.append(3, 3);
            assertThat(table.read(context, planner.plan(next.position()).splits()))
                    .containsExactly("3,n3");
        }
    }

    @Test
    void incrementalFromLatestSnapshotExclusiveSkipsAllExistingData() throws Exception {
        ScanFixture table =
                new ScanFixture(IcebergSinks.hadoop(warehouse, Writes.ROW).build());
        table.append(1, 1);
        table.append(2, 2);
        TestSourceContext context =
                streaming("incremental_from_latest_snapshot_exclusive"); // any case, as Flink's enums
        try (ScanPlanner planner = table.source.createPlanner(context)) {
            ScanPlan first = planner.plan(null);
            ScanPlan nothing = planner.plan(first.position());
            assertThat(nothing.splits()).isEmpty();
            table.append(3, 3);
            assertThat(table.read(context, planner.plan(nothing.position()).splits()))
                    .containsExactly("3,n3");
        }
    }

    @Test
    void anEmptyTableIsReadFromItsFirstSnapshot() throws Exception {
        ScanFixture table =
                new ScanFixture(IcebergSinks.hadoop(warehouse, Writes.ROW).build());
        TestSourceContext context = streaming("TABLE_SCAN_THEN_INCREMENTAL");
        try (ScanPlanner planner = table.source.createPlanner(context)) {
            ScanPlan first = planner.plan(null);
            assertThat(first.splits()).isEmpty();
            table.append(1, 1);
            table.append(2, 2);
            assertThat(table.read(context, planner.plan(first.position()).splits()))
                    .containsExactlyInAnyOrder("1,n1", "2,n2");
        }
    }

    @Test
    void maxPlanningSnapshotCountPlansFewSnapshotsAtATime() throws Exception {
        ScanFixture table =
                new ScanFixture(IcebergSinks.hadoop(warehouse, Writes.ROW).build());
        TestSourceContext context = streaming("TABLE_SCAN_THEN_INCREMENTAL").set("max-planning-snapshot-count", "1");
        try (ScanPlanner planner = table.source.createPlanner(context)) {
            ScanPlan first = planner.plan(null);
            table.append(1, 1);
            table.append(2, 2);
            ScanPlan one = planner.plan(first.position());
            assertThat(table.read(context, one.splits())).containsExactly("1,n1");
            ScanPlan two = planner.plan(one.position());
            assertThat(table.read(context, two.splits())).containsExactly("2,n2");
        }
    }

    @Test
    void planningFailuresAreToleratedUpToTheLimit() throws Exception {
        ScanFixture table =
                new ScanFixture(IcebergSinks.hadoop(warehouse, Writes.ROW).build());
        table.append(1, 1);
        TestSourceContext context = streaming("TABLE_SCAN_THEN_INCREMENTAL").set("max-allowed-planning-failures", "1");
        try (ScanPlanner planner = table.source.createPlanner(context)) {
            ScanPlan first = planner.plan(null);
            try (HadoopCatalog catalog = new HadoopCatalog(
                    new org.apache.hadoop.conf.Configuration(),
                    warehouse.toUri().toString())) {
                catalog.dropTable(TableIdentifier.of(Namespace.of("db"), "t"), true);
            }
            ScanPlan tolerated = planner.plan(first.position());
            assertThat(tolerated.splits()).isEmpty();
            assertThat(tolerated.position()).isEqualTo(first.position());
            assertThatThrownBy(() -> planner.plan(first.position()))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("db.t")
                    .hasMessageContaining("'max-allowed-planning-failures' = 1");
        }
    }

    @Test
    void aStreamingPlannerRefusesABoundedPosition() throws Exception {
        ScanFixture table =
                new ScanFixture(IcebergSinks.hadoop(warehouse, Writes.ROW).build());
        TestSourceContext bounded = TestSourceContext.hadoop(warehouse, Writes.ROW);
        io.sluice.spi.Payload position = table.planOnce(bounded).position();
        try (ScanPlanner planner = table.source.createPlanner(streaming("TABLE_SCAN_THEN_INCREMENTAL"))) {
            assertThatThrownBy(() -> planner.plan(position))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("bounded read");
        }
    }
}

package io.sluice.plugin.iceberg.it;

import io.sluice.testshared.campaign.CampaignSchedule;

import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The failure campaign for the iceberg target ({@link IcebergCampaign}), append and upsert, on
 * schedules drawn from a seed ({@link CampaignSchedule}: STREAMING or BATCH, parallelism 1-4,
 * uneven and empty source subtasks, checkpoint interval) with one or several failures: in the
 * source after a split finished, before or after Iceberg's commit ({@code chaos-iceberg}), and in
 * the job right after a checkpoint was committed; a Hadoop catalog in a local warehouse. The same
 * campaign on S3 and HDFS, with the store's own faults: {@link IcebergObjectStoreFailureCampaignIT}.
 *
 * <p>Seeds: {@code sluice.campaign.runs} from {@code sluice.campaign.seed} (defaults: 12 from
 * 20261201); profile {@code soak} runs more.
 */
@Tag("both-lines")
class IcebergFailureCampaignIT {

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(4)
                    .build());

    @TempDir
    Path tmp;

    @BeforeAll
    static void onlyAfterPackaging() {
        TestPluginsDir.assumeIntegrationTestPhase();
    }

    static LongStream seeds() {
        long base = Long.getLong("sluice.campaign.seed", 20261201L);
        int runs = Integer.getInteger("sluice.campaign.runs", 12);
        return LongStream.range(base, base + runs);
    }

    /**
     * Seeds that drew BATCH upserts whose last version of a key lost to an earlier one: the rows
     * were routed with keyBy, and BATCH sorts a keyed operator's input by key without keeping the
     * order of a key's versions. Run in CI whatever the seed range is.
     */
    static LongStream batchUpsertSeeds() {
        return LongStream.of(20261403L, 20261470L, 20261473L);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("batchUpsertSeeds")
    void batchUpsertsKeepTheLastVersionOfEachKey(long seed) throws Exception {
        everyRecordExactlyOnce(seed);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void everyRecordExactlyOnce(long seed) throws Exception {
        IcebergCampaign run = new IcebergCampaign(seed, tmp.resolve("markers"));
        System.out.println("campaign iceberg " + run);
        Path warehouse = tmp.resolve("warehouse");
        TableIdentifier id = TableIdentifier.of(Namespace.of("db"), "numbers");
        Table table;
        try (HadoopCatalog catalog = IcebergTables.catalog(warehouse)) {
            table = run.createTable(catalog, id);
        }
        run.execute(
                Map.of(
                        "catalog-type", "hadoop",
                        "warehouse", warehouse.toUri().toString(),
                        "catalog-database", "db",
                        "catalog-table", "numbers"),
                () -> IcebergTables.load(warehouse, "db", "numbers"),
                Duration.ofMillis(100));
        run.check(table, "iceberg", run.injectedFailures(), "local warehouse");
        List<String> unreferenced = IcebergTables.unreferencedLocalDataFiles(table);
        System.out.println("campaign iceberg seed " + seed + ": " + unreferenced.size() + " unreferenced data files");
        // a restored writer deletes what its failed predecessors wrote and nothing commits
        assertThat(unreferenced).as("data files no snapshot references; " + run).isEmpty();
    }
}

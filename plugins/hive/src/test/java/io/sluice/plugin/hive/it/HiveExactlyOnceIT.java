package io.sluice.plugin.hive.it;

import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.net.URI;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Exactly-once into a partitioned Parquet Hive table under failure. A STREAMING job (parallelism 2
 * or 3, 100 ms checkpoints, a fixed-delay restart strategy) writes a few thousand numbered rows
 * from source splits of uneven size (the sources finish at different checkpoints) over several
 * partitions, with {@code 'chaos-metastore,success-file'} partition commit, and is failed once by
 * the test plugin {@code hive-chaos} in front of the real {@code hive} target and {@code metastore}
 * policy: in the writer after a commit made files visible; inside the commit before the files are
 * published or right after; inside the metastore policy after a partition's files are visible and
 * before it is added. Afterwards parquet-java reads every id exactly once, Hive's metastore client
 * lists every partition with data exactly once at its directory, and {@code _SUCCESS} is in
 * exactly the committed partitions. Half of the seeds write with {@code auto-compaction} (units every
 * one to three checkpoints; {@code -Dsluice.hive.compaction=true} or {@code false} forces it): then
 * the files wait hidden, the commits carry compaction units, and no compaction input is left hidden
 * at the end.
 *
 * <p>The run itself is {@link HiveExactlyOnceRun}; {@link HiveObjectStoreExactlyOnceIT} runs it on S3
 * (with the store's own faults) and HDFS.
 *
 * <p>Where each failure strikes (the record, the commit, the partition), the split sizes, the
 * parallelism, the number of partitions and whether it compacts are drawn from a seed that the test prints: {@code
 * sluice.hive.seed} (default 20261201; case i uses seed + i), so {@code -Dsluice.hive.seed=<printed
 * seed> -Dsluice.it.rounds=1} with the case's failure reruns a failing case.
 */
@Tag("both-lines")
class HiveExactlyOnceIT {

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
        HivePluginDir.assumeIntegrationTestPhase();
    }

    static Stream<Arguments> cases() {
        long base = Long.getLong("sluice.hive.seed", 20261201L);
        int rounds = Integer.getInteger("sluice.it.rounds", 1);
        String only = System.getProperty("sluice.hive.failure");
        String[] failures = HiveExactlyOnceRun.FAILURES.toArray(new String[0]);
        List<Arguments> cases = new java.util.ArrayList<>();
        for (int round = 0; round < rounds; round++) {
            for (int f = 0; f < failures.length; f++) {
                if (only == null || only.equals(failures[f])) {
                    cases.add(Arguments.of(failures[f], base + round * failures.length + f));
                }
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "fails in {0}, seed {1}")
    @MethodSource("cases")
    void everyRowAndPartitionExactlyOnce(String failure, long seed) throws Exception {
        HiveExactlyOnceRun run = new HiveExactlyOnceRun(failure, seed, tmp.resolve("markers"));
        System.out.println("hive exactly-once " + run);
        Path metastore = tmp.resolve("metastore");
        TableEnvironment tEnv = HiveExactlyOnceRun.catalog(metastore);
        run.execute(tEnv, metastore, null, 3);

        Path table = metastore.resolve("warehouse").resolve("db.db").resolve("numbers");
        String location;
        try (MetastoreProbe probe = MetastoreProbe.of(tEnv.getCatalog("h").orElseThrow())) {
            location = probe.table("db", "numbers").location();
        }
        assertThat(Paths.get(URI.create(location))).isEqualTo(table);
        run.check(tEnv, table, location, "local warehouse");
    }
}

package io.sluice.it;

import io.sluice.testshared.campaign.FaultyFileSystem;
import io.sluice.testshared.campaign.StorageFaults;

import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.LongStream;

/**
 * The failure campaign for the filesystem target on local files ({@link FileSinkCampaign}: a job
 * drawn from a seed, failing in the source after some subtasks finished, in the writer, in the
 * commit aggregator, before or after the commit, in a partition commit policy), with the storage's
 * faults at random in create, close, rename and delete of a Flink file system over local files.
 * The committed files, read as plain text or with parquet-java, hold every number exactly once; no
 * in-progress file is visible; every partition with data has its {@code _SUCCESS}.
 * {@link ObjectStoreFailureCampaignIT} runs the same jobs on S3 and HDFS.
 *
 * <p>CI runs {@code sluice.campaign.runs} seeds from {@code sluice.campaign.seed} (defaults: 20
 * from 20261201); profile {@code soak} runs more, from a fresh seed. A failed run prints its
 * schedule; rerun it with {@code -Dsluice.campaign.seed=<seed> -Dsluice.campaign.runs=1}.
 */
@Tag("both-lines")
class FileSinkFailureCampaignIT {

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(4)
                    .build());

    @TempDir
    Path tmp;

    static LongStream seeds() {
        long base = Long.getLong("sluice.campaign.seed", 20261201L);
        int runs = Integer.getInteger("sluice.campaign.runs", 20);
        return LongStream.range(base, base + runs);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void everyRecordExactlyOnce(long seed) throws Exception {
        FileSinkCampaign run = new FileSinkCampaign(seed, tmp.resolve("markers"));
        System.out.println("campaign filesystem " + run);
        Path out = tmp.resolve("out");
        if (run.failsStorage()) {
            StorageFaults.arm(
                    out.toAbsolutePath().toString(), seed, run.storageFaultProbability, run.storageFaultBudget);
        }
        List<String> storageFaults;
        try {
            run.execute(run.failsStorage() ? FaultyFileSystem.uri(out) : out.toString(), Duration.ofMillis(50));
        } finally {
            storageFaults = StorageFaults.disarm();
        }
        run.check(out, "filesystem", run.injectedFailures() + storageFaults.size(), "storage faults " + storageFaults);
    }
}

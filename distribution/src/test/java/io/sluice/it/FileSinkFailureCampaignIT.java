package io.sluice.it;

import io.sluice.runtime.sink.SluiceSink;
import io.sluice.runtime.sink.SluiceSinkBuilder;
import io.sluice.testshared.campaign.CampaignLog;
import io.sluice.testshared.campaign.CampaignSchedule;
import io.sluice.testshared.campaign.FaultyFileSystem;
import io.sluice.testshared.campaign.Pacer;
import io.sluice.testshared.campaign.SkewedNumberSource;
import io.sluice.testshared.campaign.StorageFaults;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The failure campaign for the filesystem target: jobs whose schedule is drawn from a seed
 * ({@link CampaignSchedule}: STREAMING or BATCH, parallelism 1-4, uneven and empty source
 * subtasks, checkpoint interval, compaction; distribution mode none, hash or range) fail in one or several places: in the source after
 * some subtasks finished, in the writer, in the commit aggregator (a partition time extractor it
 * asks), before or after the commit, in a partition commit policy
 * (after the success file of the same partition was written), and at random in the storage
 * (create, close, rename, delete of a Flink file system over local files). The committed files,
 * read as plain text or with parquet-java, hold every number exactly once; no in-progress file is
 * visible; every partition with data has its {@code _SUCCESS}.
 *
 * <p>CI runs {@code sluice.campaign.runs} seeds from {@code sluice.campaign.seed} (defaults: 20
 * from 20261201); profile {@code soak} runs more, from a fresh seed. A failed run prints its
 * schedule; rerun it with {@code -Dsluice.campaign.seed=<seed> -Dsluice.campaign.runs=1}.
 */
class FileSinkFailureCampaignIT {

    static final List<String> FAILURES =
            List.of("source-after-finish", "writer", "aggregator", "commit", "policy", "storage");

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(4)
                    .build());

    private static final RowType ROW = RowType.of(
            new LogicalType[] {new BigIntType(false), new VarCharType(false, 10)}, new String[] {"id", "bucket"});

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
        CampaignSchedule schedule = CampaignSchedule.draw(seed, FAILURES);
        String format = schedule.random.nextBoolean() ? "csv" : "parquet";
        // drawn apart from the schedule, so that a seed's schedule stays what it was before
        String distribution = new String[] {"none", "hash", "range"}[new java.util.Random(seed * 31 + 7).nextInt(3)];
        String described = schedule + ", " + format + ", distribution " + distribution;
        System.out.println("campaign filesystem " + described);
        String runId = UUID.randomUUID().toString();
        Path out = tmp.resolve("out");
        Path markers = tmp.resolve("markers");
        long records = schedule.records();

        Map<String, String> options = new HashMap<>();
        options.put("chaos.marker-dir", markers.toString());
        options.put("distribution-mode", distribution);
        if (schedule.fails("writer")) {
            options.put(
                    "chaos.writer.fail-after-records",
                    String.valueOf(1 + schedule.random.nextInt((int) Math.max(1, records / schedule.parallelism))));
            // in BATCH nothing is visible before the end
            options.put("chaos.writer.wait-for-commit", String.valueOf(schedule.streaming));
        }
        if (schedule.fails("commit")) {
            options.put("chaos.commit.fail", schedule.random.nextBoolean() ? "before" : "after");
        }
        // the test plugin's policy after success-file: a failure between a partition's two policies
        options.put(
                "sink.partition-commit.policy.kind", schedule.fails("policy") ? "success-file,custom" : "success-file");
        if (schedule.fails("policy")) {
            options.put("sink.partition-commit.policy.class", "chaos-failing-policy");
        }
        if (schedule.fails("aggregator")) {
            // the aggregator asks the test plugin's extractor for a partition's time: it fails once
            options.put("sink.partition-commit.trigger", "partition-time");
            options.put("partition.time-extractor.kind", "custom");
            options.put("partition.time-extractor.class", "chaos-failing-extractor");
        }
        if (schedule.compaction) {
            options.put("auto-compaction", "true");
            options.put("compaction.file-size", (1 + schedule.random.nextInt(8)) + "kb");
        }
        boolean storage = schedule.fails("storage");
        if (storage) {
            StorageFaults.arm(
                    out.toAbsolutePath().toString(),
                    seed,
                    0.01 + schedule.random.nextDouble() * 0.04,
                    1 + schedule.random.nextInt(3));
        }

        StreamExecutionEnvironment env = schedule.environment(20, Duration.ofMillis(50));
        SluiceSinkBuilder sink = SluiceSink.forRowData(ROW)
                .withTarget("chaos-filesystem")
                .withPluginsDir(TestDistribution.pluginsDirWithTestPlugins())
                .withPath(storage ? FaultyFileSystem.uri(out) : out.toString())
                .withFormat(format)
                .withPartitionKeys("bucket")
                .withRollingPolicy(io.sluice.runtime.sink.RollingPolicies.defaultPolicy()
                        .withMaxPartSize(MemorySize.parse((1 + schedule.random.nextInt(16)) + "kb")))
                .withOptions(options);
        long[] ends = SkewedNumberSource.splitEnds(schedule.splitSizes);
        // watermarks for the partition-time trigger: the numbers as event time
        env.fromSource(
                        new SkewedNumberSource(schedule.splitSizes),
                        WatermarkStrategy.<Long>forMonotonousTimestamps().withTimestampAssigner((n, t) -> n),
                        "numbers")
                .map(new Pacer(runId, ends, schedule.recordsPerSecondPerSubtask, schedule.fails("source-after-finish")))
                .returns(Types.LONG)
                .map(i -> (RowData) GenericRowData.of(i, StringData.fromString("b" + (i % 3))))
                .returns(InternalTypeInfo.of(ROW))
                .sinkTo(sink.build());
        List<String> storageFaults;
        try {
            env.execute("campaign " + described);
        } finally {
            storageFaults = StorageFaults.disarm();
        }

        int injected = storageFaults.size()
                + (Pacer.injected(runId) ? 1 : 0)
                + (Files.exists(markers.resolve("writer-failed")) ? 1 : 0)
                + (Files.exists(markers.resolve("commit-failed")) ? 1 : 0)
                + (Files.exists(markers.resolve("policy-failed")) ? 1 : 0)
                + (Files.exists(markers.resolve("aggregator-failed")) ? 1 : 0);
        Pacer.forget(runId);
        List<Long> ids = format.equals("csv")
                ? CommittedFiles.lines(out).stream()
                        .map(l -> Long.parseLong(l.split(",")[0]))
                        .collect(Collectors.toList())
                : CommittedFiles.parquet(out, g -> g.getLong("id", 0));
        Map<Long, Integer> counts = new TreeMap<>();
        ids.forEach(id -> counts.merge(id, 1, Integer::sum));
        long lost = LongStream.rangeClosed(1, records)
                .filter(i -> !counts.containsKey(i))
                .count();
        long duplicates = counts.values().stream().mapToLong(c -> c - 1).sum();
        CampaignLog.record("filesystem-" + format, schedule, injected, records, lost, duplicates);

        String context = described + "; storage faults " + storageFaults + "; visible " + CommittedFiles.visible(out)
                + "; hidden " + CommittedFiles.inProgress(out);
        assertThat(lost).as("rows lost: " + context).isZero();
        assertThat(duplicates).as("duplicates: " + context).isZero();
        assertThat(counts.keySet()).as(context).allMatch(id -> id >= 1 && id <= records);
        assertThat(CommittedFiles.visible(out))
                .as(context)
                .allSatisfy(f -> assertThat(f.getFileName().toString())
                        .doesNotContain("inprogress")
                        .doesNotStartWith("."));
        List<Path> partitions = CommittedFiles.visible(out).stream()
                .map(Path::getParent)
                .distinct()
                .collect(Collectors.toList());
        assertThat(CommittedFiles.named(out, "_SUCCESS"))
                .extracting(Path::getParent)
                .as(context)
                .containsExactlyInAnyOrderElementsOf(partitions);
    }
}

package io.sluice.it;

import io.sluice.runtime.sink.RollingPolicies;
import io.sluice.runtime.sink.SluiceSink;
import io.sluice.testshared.campaign.CampaignLog;
import io.sluice.testshared.campaign.CampaignSchedule;
import io.sluice.testshared.campaign.Pacer;
import io.sluice.testshared.campaign.SkewedNumberSource;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;

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
 * One run of the filesystem target's failure campaign, on any storage: the job a seed's
 * {@link CampaignSchedule} draws (mode, parallelism, uneven input, checkpoints, compaction,
 * distribution, format) with the failures it picks (source after finish, writer, commit
 * aggregator, commit, partition commit policy), and the checks on what it committed: every number
 * exactly once, no in-progress file visible, a {@code _SUCCESS} in every partition with data. The
 * storage's own faults are the caller's: a faulty local file system, or an S3 server's proxy.
 */
final class FileSinkCampaign {

    /** The failure kinds of the schedule; "storage" is the caller's to inject. */
    static final List<String> FAILURES =
            List.of("source-after-finish", "writer", "aggregator", "commit", "policy", "storage");

    private static final RowType ROW = RowType.of(
            new LogicalType[] {new BigIntType(false), new VarCharType(false, 10)}, new String[] {"id", "bucket"});

    final CampaignSchedule schedule;
    final String format;
    /** The partitions the rows go to, {@code b0 ...}. */
    final int partitions;

    final String distribution;
    final long records;
    /** For storage faults, when the schedule asks for them: a probability and a budget drawn from the seed. */
    final double storageFaultProbability;

    final int storageFaultBudget;
    private final Map<String, String> options = new HashMap<>();
    private final int partSizeKb;
    private final Path markers;
    private final String runId = UUID.randomUUID().toString();

    /** Draws the run of {@code seed}; the chaos plugins leave their markers under {@code markers}. */
    FileSinkCampaign(long seed, Path markers) {
        // the draws keep their order: a seed's schedule stays what it was
        this.schedule = CampaignSchedule.draw(seed, FAILURES);
        this.markers = markers;
        this.format = schedule.random.nextBoolean() ? "csv" : "parquet";
        this.distribution = new String[] {"none", "hash", "range"}[new java.util.Random(seed * 31 + 7).nextInt(3)];
        this.records = schedule.records();
        // a third of the runs write many partitions under the least memory budget: Parquet's open
        // files outgrow it and the writers hold the rows of the partitions until the checkpoint
        this.partitions = new java.util.Random(seed * 53 + 3).nextInt(3) == 0 ? 120 : 3;
        if (partitions > 3) {
            options.put("sink.writer.memory-budget", "4mb");
        }
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
        if (schedule.fails("storage")) {
            storageFaultProbability = 0.01 + schedule.random.nextDouble() * 0.04;
            storageFaultBudget = 1 + schedule.random.nextInt(3);
        } else {
            storageFaultProbability = 0;
            storageFaultBudget = 0;
        }
        this.partSizeKb = 1 + schedule.random.nextInt(16);
    }

    boolean failsStorage() {
        return schedule.fails("storage");
    }

    @Override
    public String toString() {
        return schedule + ", " + format + ", distribution " + distribution + ", " + partitions + " partitions";
    }

    /** Runs the job into {@code path}, any Flink file system URI. */
    void execute(String path, Duration restartDelay) throws Exception {
        StreamExecutionEnvironment env = schedule.environment(20, restartDelay);
        long[] ends = SkewedNumberSource.splitEnds(schedule.splitSizes);
        int spread = partitions; // the lambda must not capture this campaign
        // watermarks for the partition-time trigger: the numbers as event time
        env.fromSource(
                        new SkewedNumberSource(schedule.splitSizes),
                        WatermarkStrategy.<Long>forMonotonousTimestamps().withTimestampAssigner((n, t) -> n),
                        "numbers")
                .map(new Pacer(runId, ends, schedule.recordsPerSecondPerSubtask, schedule.fails("source-after-finish")))
                .returns(Types.LONG)
                .map(i -> (RowData) GenericRowData.of(i, StringData.fromString("b" + (i % spread))))
                .returns(InternalTypeInfo.of(ROW))
                .sinkTo(SluiceSink.forRowData(ROW)
                        .withTarget("chaos-filesystem")
                        .withPluginsDir(TestDistribution.pluginsDirWithTestPlugins())
                        .withPath(path)
                        .withFormat(format)
                        .withPartitionKeys("bucket")
                        .withRollingPolicy(
                                RollingPolicies.defaultPolicy().withMaxPartSize(MemorySize.parse(partSizeKb + "kb")))
                        .withOptions(options)
                        .build());
        env.execute("campaign " + this);
    }

    /** The failures the schedule's plugins and source injected (storage faults not counted). */
    int injectedFailures() {
        int injected = (Pacer.injected(runId) ? 1 : 0)
                + (Files.exists(markers.resolve("writer-failed")) ? 1 : 0)
                + (Files.exists(markers.resolve("commit-failed")) ? 1 : 0)
                + (Files.exists(markers.resolve("policy-failed")) ? 1 : 0)
                + (Files.exists(markers.resolve("aggregator-failed")) ? 1 : 0);
        Pacer.forget(runId);
        return injected;
    }

    /**
     * Checks what was committed, read from {@code out} (the table's directory, or a local copy of
     * it), and records the run in the campaign log under {@code target}.
     */
    void check(Path out, String target, int injected, String context) {
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
        CampaignLog.record(target + "-" + format, schedule, injected, records, lost, duplicates);

        String described = this + "; " + context + "; visible " + CommittedFiles.visible(out) + "; hidden "
                + CommittedFiles.inProgress(out);
        assertThat(lost).as("rows lost: " + described).isZero();
        assertThat(duplicates).as("duplicates: " + described).isZero();
        assertThat(counts.keySet()).as(described).allMatch(id -> id >= 1 && id <= records);
        assertThat(CommittedFiles.visible(out))
                .as(described)
                .allSatisfy(f -> assertThat(f.getFileName().toString())
                        .doesNotContain("inprogress")
                        .doesNotStartWith("."));
        List<Path> partitions = CommittedFiles.visible(out).stream()
                .map(Path::getParent)
                .distinct()
                .collect(Collectors.toList());
        assertThat(CommittedFiles.named(out, "_SUCCESS"))
                .extracting(Path::getParent)
                .as(described)
                .containsExactlyInAnyOrderElementsOf(partitions);
    }
}

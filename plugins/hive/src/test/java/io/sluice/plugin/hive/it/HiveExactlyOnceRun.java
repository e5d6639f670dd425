package io.sluice.plugin.hive.it;

import io.sluice.runtime.sink.SinkDescriptor;
import io.sluice.runtime.sink.SinkValidation;
import io.sluice.runtime.sink.SluiceSink;
import io.sluice.testshared.campaign.Pacer;
import io.sluice.testshared.campaign.SkewedNumberSource;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
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
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One run of the hive target's exactly-once test, on any storage: a STREAMING job (parallelism 2
 * or 3, 100 ms checkpoints, a fixed-delay restart strategy) writes a few thousand numbered rows
 * from source splits of uneven size over several partitions of a Parquet table, with {@code
 * 'chaos-metastore,success-file'} partition commit, failed once by the test plugin {@code
 * hive-chaos}: in the writer after a commit made files visible; inside the commit before the files
 * are published or right after; inside the metastore policy after a partition's files are visible
 * and before it is added. Half of the seeds compact. The checks read the table's directory (or a
 * copy of it): every id exactly once in its partition, read by parquet-java; every partition with
 * data in the metastore once, at its directory; {@code _SUCCESS} in exactly those; no compaction
 * input left hidden; and that the failure struck where it was meant to. Seeds are scrambled: the
 * draws of consecutive seeds differ.
 */
final class HiveExactlyOnceRun {

    static final List<String> FAILURES = List.of("writer", "commit-before", "commit-after", "metastore-policy");

    private static final RowType ROW = RowType.of(
            new LogicalType[] {
                new BigIntType(), new VarCharType(VarCharType.MAX_LENGTH), new VarCharType(VarCharType.MAX_LENGTH)
            },
            new String[] {"id", "msg", "dt"});

    final String failure;
    final long seed;
    final int parallelism;
    final int partitions;
    final long[] splits;
    final long rows;
    final boolean compaction;
    private final int compactEvery;
    private final Map<String, String> chaos = new HashMap<>();
    private final Path markers;
    private final String described;

    HiveExactlyOnceRun(String failure, long seed, Path markers) {
        this.failure = failure;
        this.seed = seed;
        this.markers = markers;
        // scrambled: java.util.Random's first draws of consecutive seeds are alike
        Random random = new Random(new java.util.SplittableRandom(seed).nextLong());
        this.parallelism = 2 + random.nextInt(2);
        this.partitions = 3 + random.nextInt(3);
        // one big split and smaller ones: the subtasks reach the end of their input at different checkpoints
        this.splits = new long[parallelism];
        splits[0] = 1500 + random.nextInt(1500);
        for (int i = 1; i < parallelism; i++) {
            splits[i] = 200 + random.nextInt(1000);
        }
        this.rows = Arrays.stream(splits).sum();
        chaos.put("chaos.marker-dir", markers.toString());
        String where;
        switch (failure) {
            case "writer":
                long after = 1 + random.nextInt((int) (splits[0] / 2));
                chaos.put("chaos.writer.fail-after-records", String.valueOf(after));
                where = "the writer after " + after + " records of a subtask, once files are visible";
                break;
            case "commit-before":
            case "commit-after":
                int commit = 2 + random.nextInt(3);
                chaos.put("chaos.commit.fail", failure.substring("commit-".length()));
                chaos.put("chaos.commit.fail-at", String.valueOf(commit));
                where = "non-empty commit " + commit + ", " + failure.substring("commit-".length())
                        + " the files are published";
                break;
            default:
                int partition = 1 + random.nextInt(partitions);
                chaos.put("chaos.policy.fail-at", String.valueOf(partition));
                where = "the metastore policy of the " + partition + ". partition, before it is added";
                break;
        }
        // drawn last, so that the draws above stay those of the seeds from before compaction was drawn
        boolean drawn = random.nextBoolean();
        // -Dsluice.hive.compaction=true|false forces it (every failure with compaction, say)
        String forced = System.getProperty("sluice.hive.compaction");
        this.compaction = forced == null ? drawn : Boolean.parseBoolean(forced);
        if (compaction && failure.equals("writer")) {
            // files become visible only with the first units, whose commit is slower (the compactor
            // opens the table): the writer fails in the second half of the big split
            long after = Long.parseLong(chaos.get("chaos.writer.fail-after-records")) + splits[0] / 2;
            chaos.put("chaos.writer.fail-after-records", String.valueOf(after));
            where = "the writer after " + after + " records of a subtask, once files are visible";
        }
        this.compactEvery = 1 + random.nextInt(3);
        this.described = "seed " + seed + ": parallelism " + parallelism + ", splits " + Arrays.toString(splits)
                + ", " + partitions + " partitions, "
                + (compaction ? "auto-compaction every " + compactEvery + " checkpoints" : "no compaction")
                + ", fails in " + where;
    }

    @Override
    public String toString() {
        return described;
    }

    /** A batch table environment with catalog {@code h} on the embedded metastore in {@code metastore}. */
    static TableEnvironment catalog(Path metastore) {
        TableEnvironment tEnv = TableEnvironment.create(
                EnvironmentSettings.newInstance().inBatchMode().build());
        tEnv.executeSql("CREATE CATALOG h WITH ('type' = 'sluice', 'target' = 'hive', "
                + "'sluice.plugins.dir' = '" + HivePluginDir.get() + "', "
                + "'metastore' = 'embedded', 'metastore.dir' = '" + metastore + "')");
        return tEnv;
    }

    /**
     * Creates {@code h.db.numbers} (database at {@code databaseLocation}, or the metastore's
     * warehouse if null) and runs the job into it, restarting up to {@code restartAttempts} times.
     */
    void execute(TableEnvironment tEnv, Path metastore, String databaseLocation, int restartAttempts) throws Exception {
        execute(tEnv, metastore, databaseLocation, restartAttempts, Duration.ofMillis(100));
    }

    /**
     * As above, with checkpoints every {@code checkpointInterval}. Each checkpoint rolls a Parquet
     * file per open partition (Hive's writer); on HDFS or S3 a roll costs round trips, and at
     * 100 ms a busy machine spent whole runs rolling files of two rows (one run: 977 files, 4 minutes).
     */
    void execute(
            TableEnvironment tEnv,
            Path metastore,
            String databaseLocation,
            int restartAttempts,
            Duration checkpointInterval)
            throws Exception {
        tEnv.executeSql("CREATE DATABASE h.db"
                + (databaseLocation == null
                        ? ""
                        : " WITH ('hive.database.location-uri' = '" + databaseLocation + "')"));
        tEnv.executeSql("CREATE TABLE h.db.numbers (id BIGINT, msg STRING, dt STRING) PARTITIONED BY (dt)"
                + " WITH ('hive.storage.file-format' = 'parquet')");

        Map<String, String> options = new HashMap<>(chaos);
        options.put("sluice.plugins.dir", HivePluginDir.get().toString());
        options.put("target", "chaos-hive");
        options.put("catalog-name", "h");
        options.put("catalog-database", "db");
        options.put("catalog-table", "numbers");
        options.put("metastore", "embedded");
        options.put("metastore.dir", metastore.toString());
        options.put("sink.partition-commit.policy.kind", "chaos-metastore,success-file");
        if (compaction) {
            options.put("auto-compaction", "true");
            options.put("compaction.checkpoints", String.valueOf(compactEvery));
        }
        SinkDescriptor descriptor = SinkDescriptor.resolve(options, ROW, List.of("dt"));
        SinkValidation.validate(descriptor);

        Configuration conf = new Configuration();
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, restartAttempts);
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(200));
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(parallelism);
        env.enableCheckpointing(checkpointInterval.toMillis());
        String runId = UUID.randomUUID().toString();
        int partitionCount = partitions;
        env.fromSource(new SkewedNumberSource(splits), WatermarkStrategy.noWatermarks(), "numbers")
                // about 600 rows a second per subtask: the job lives through many checkpoints and commits, also
                // when the first commits are slow (the committer and each policy call open the metastore)
                // with compaction half as fast: files become visible later, at the first units
                .map(new Pacer(runId, SkewedNumberSource.splitEnds(splits), compaction ? 300 : 600, false))
                .returns(Types.LONG)
                .map(i -> (RowData) GenericRowData.of(
                        i, StringData.fromString("m" + i), StringData.fromString("d" + (i % partitionCount))))
                .returns(InternalTypeInfo.of(ROW))
                .sinkTo(SluiceSink.of(descriptor));
        long started = System.nanoTime();
        env.execute("hive exactly-once, " + described);
        Pacer.forget(runId);
        System.out.println("hive exactly-once " + described + ": job took "
                + Duration.ofNanos(System.nanoTime() - started).toMillis() + " ms");
    }

    /**
     * Checks the table: its files from {@code table} (its directory, or a local copy of it), its
     * partitions from the metastore of {@code tEnv}'s catalog {@code h}, which must place each at
     * {@code tableLocation}/{@code <partition>}; {@code context} goes into every message.
     */
    void check(TableEnvironment tEnv, Path table, String tableLocation, String context) throws Exception {
        check(tEnv, table, tableLocation, context, true);
    }

    /**
     * As above; with {@code injectedFailureRequired} false the run's own failure need not have
     * fired: a storage fault of the run (a DataNode restart) restores the job too, and its counts
     * (records of a subtask, commits) start again after a restore, so it may never get there.
     */
    void check(TableEnvironment tEnv, Path table, String tableLocation, String context, boolean injectedFailureRequired)
            throws Exception {
        String described = this.described + "; " + context;
        String marker = failure.startsWith("commit-")
                ? "commit-failed"
                : failure.equals("writer") ? "writer-failed" : "policy-failed";
        if (injectedFailureRequired) {
            assertThat(markers.resolve(marker))
                    .as("the failure was injected: " + described)
                    .exists();
        } else if (!Files.exists(markers.resolve(marker))) {
            described += "; the run's own failure did not fire";
        }

        // every id exactly once, each in its partition's directory, read by parquet-java
        Map<Long, Integer> counts = new TreeMap<>();
        Set<String> withData = new TreeSet<>();
        List<Path> dirs;
        try (Stream<Path> list = Files.list(table)) {
            dirs = list.filter(Files::isDirectory).sorted().collect(Collectors.toList());
        }
        for (Path dir : dirs) {
            String name = dir.getFileName().toString();
            for (Path file : ParquetFiles.dataFiles(dir)) {
                assertThat(file.getFileName().toString()).as(described).doesNotContain("inprogress");
            }
            try (Stream<Path> files = Files.list(dir)) {
                assertThat(files.map(f -> f.getFileName().toString()))
                        .as("compaction inputs left hidden, " + described)
                        .noneMatch(n -> n.startsWith(".uncompacted-"));
            }
            for (String row : ParquetFiles.rows(dir, g -> g.getLong("id", 0) + "|" + g.getString("msg", 0))) {
                long id = Long.parseLong(row.substring(0, row.indexOf('|')));
                assertThat(row).as(described).isEqualTo(id + "|m" + id);
                assertThat(name).as(described).isEqualTo("dt=d" + (id % partitions));
                counts.merge(id, 1, Integer::sum);
                withData.add(name);
            }
        }
        long lost = LongStream.rangeClosed(1, rows)
                .filter(i -> !counts.containsKey(i))
                .count();
        long duplicates = counts.values().stream().mapToLong(c -> c - 1).sum();
        System.out.println(
                "hive exactly-once " + described + ": rows " + rows + ", lost " + lost + ", duplicates " + duplicates);
        assertThat(lost).as("rows lost, " + described).isZero();
        assertThat(duplicates).as("rows twice, " + described).isZero();
        assertThat(counts.keySet()).as(described).allMatch(id -> id >= 1 && id <= rows);
        assertThat(withData)
                .as(described)
                .containsExactlyInAnyOrderElementsOf(
                        IntStream.range(0, partitions).mapToObj(p -> "dt=d" + p).collect(Collectors.toList()));

        // every partition with data in the metastore once, at its directory; _SUCCESS exactly there
        try (MetastoreProbe probe = MetastoreProbe.of(tEnv.getCatalog("h").orElseThrow())) {
            assertThat(probe.table("db", "numbers").location()).as(described).isEqualTo(tableLocation);
            List<String> names = probe.partitionNames("db", "numbers");
            assertThat(names).as(described).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(withData);
            for (String name : names) {
                assertThat(probe.partitionLocation("db", "numbers", name))
                        .as(described)
                        .isEqualTo(tableLocation + "/" + name);
            }
        }
        assertThat(dirs.stream()
                        .filter(d -> Files.exists(d.resolve("_SUCCESS")))
                        .map(d -> d.getFileName().toString()))
                .as("partitions with _SUCCESS, " + described)
                .containsExactlyInAnyOrderElementsOf(withData);

        // the failure struck where it was meant to, and the retry went through the same place again;
        // not judged after the store's own faults, which fail and restore the job at moments of
        // their own (a restore from a later checkpoint has nothing of the failed commit to redo)
        if (!injectedFailureRequired) {
            return;
        }
        switch (failure) {
            case "commit-after":
                List<String> commits = Files.readAllLines(markers.resolve("commits"));
                assertThat(commits.stream().distinct().count())
                        .as("the checkpoint committed before the failure was committed again, commits " + commits)
                        .isLessThan(commits.size());
                break;
            case "metastore-policy":
                String[] failed =
                        Files.readString(markers.resolve("policy-failed")).split(" ");
                assertThat(Integer.parseInt(failed[1]))
                        .as("files visible when the policy failed")
                        .isPositive();
                assertThat(Files.readAllLines(markers.resolve("policy-calls")).stream()
                                .filter(l -> l.startsWith(failed[0] + " ")))
                        .as("the failed partition's policy ran again")
                        .hasSizeGreaterThan(1);
                break;
            default:
                break;
        }
    }
}

package io.sluice.it;

import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code distribution-mode} on the filesystem target, through SQL: with {@code hash} every
 * partition's rows reach one writer (its files carry one writer's uid), with {@code none} several
 * writers write each partition; every row is there once either way. Bad values are planning
 * errors naming the option.
 */
class HashDistributionIT {

    private static final int PARALLELISM = 4;
    private static final int PARTITIONS = 10;
    private static final long ROWS = 20_000;

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(PARALLELISM)
                    .build());

    @TempDir
    Path tmp;

    @Test
    void hashPutsEachPartitionOnOneWriterAndNoneSpreadsIt() throws Exception {
        Map<String, Set<String>> hash = writersPerPartition(write("hash"));
        Map<String, Set<String>> none = writersPerPartition(write("none"));

        assertThat(hash)
                .hasSize(PARTITIONS)
                .allSatisfy((partition, writers) ->
                        assertThat(writers).as(partition).hasSize(1));
        // the same input without the shuffle: a partition's rows come from several source subtasks,
        // and each one's writer writes them
        assertThat(none)
                .hasSize(PARTITIONS)
                .allSatisfy((partition, writers) ->
                        assertThat(writers).as(partition).hasSizeGreaterThan(1));
    }

    /**
     * RANGE in a BATCH job, which takes no checkpoints to aggregate statistics at: each partition
     * (the sort key) goes to one writer, as with hash, not round-robin to all of them.
     */
    @Test
    void rangeInBatchPutsEachSortKeyOnOneWriter() throws Exception {
        Path out = write("range-batch", "", "'distribution-mode' = 'range', ", RuntimeExecutionMode.BATCH);
        assertThat(writersPerPartition(out))
                .hasSize(PARTITIONS)
                .allSatisfy((partition, writers) ->
                        assertThat(writers).as(partition).hasSize(1));
    }

    @Test
    void anUnknownOrUnsupportedModeIsAPlanningErrorNamingTheOption() {
        assertThatThrownBy(() -> write("sorted"))
                .hasStackTraceContaining("Invalid 'distribution-mode' 'sorted'")
                .hasStackTraceContaining("one of none, hash, range");
        assertThat(tmp.resolve("sorted")).doesNotExist();
    }

    @Test
    void distributedByHashSetsTheColumnsAndTheBucketsTheWriters() throws Exception {
        // by the partition column: one writer per partition, as with 'hash'
        assertThat(writersPerPartition(write("by-p", "DISTRIBUTED BY HASH(p)", "")))
                .hasSize(PARTITIONS)
                .allSatisfy((partition, writers) ->
                        assertThat(writers).as(partition).hasSize(1));
        // by id into 3 buckets: 3 writers, each with rows of every partition
        Map<String, Set<String>> byId =
                writersPerPartition(write("by-id", "DISTRIBUTED BY HASH(id) INTO 3 BUCKETS", ""));
        assertThat(byId.values().stream().flatMap(Set::stream).distinct())
                .as("writers")
                .hasSize(3);
        assertThat(byId)
                .allSatisfy((partition, writers) ->
                        assertThat(writers).as(partition).hasSize(3));
    }

    @Test
    void aDistributionThatDisagreesWithTheOptionsOrIsNotHashIsAnError() {
        assertThatThrownBy(() -> write("disagree", "DISTRIBUTED BY HASH(p)", "'distribution-mode' = 'none', "))
                .hasStackTraceContaining("'distribution-mode' 'none' disagree");
        assertThatThrownBy(
                        () -> write("buckets", "DISTRIBUTED BY HASH(p) INTO 3 BUCKETS", "'sink.parallelism' = '2', "))
                .hasStackTraceContaining("'sink.parallelism' '2' disagree");
        assertThatThrownBy(() -> write("range", "DISTRIBUTED BY RANGE(id)", "")).hasStackTraceContaining("RANGE");
        assertThatThrownBy(() -> write("missing", "DISTRIBUTED BY HASH(nope)", ""))
                .hasStackTraceContaining("nope");
    }

    private Path write(String mode) throws Exception {
        return write(mode, "", "'distribution-mode' = '" + mode + "', ");
    }

    /**
     * Writes ids 1..ROWS, partition {@code p<id % PARTITIONS>}, from PARALLELISM source subtasks,
     * STREAMING, into a table with the given clause and options.
     */
    private Path write(String name, String distributedBy, String options) throws Exception {
        return write(name, distributedBy, options, RuntimeExecutionMode.STREAMING);
    }

    private Path write(String name, String distributedBy, String options, RuntimeExecutionMode mode) throws Exception {
        Path out = tmp.resolve(name);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setRuntimeMode(mode);
        env.setParallelism(PARALLELISM);
        if (mode == RuntimeExecutionMode.STREAMING) {
            env.enableCheckpointing(200);
        }
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(
                env,
                mode == RuntimeExecutionMode.STREAMING
                        ? EnvironmentSettings.inStreamingMode()
                        : EnvironmentSettings.inBatchMode());
        tEnv.executeSql("CREATE TABLE numbers (id BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '"
                + ROWS + "', 'rows-per-second' = '20000', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1',"
                + " 'fields.id.end' = '" + ROWS + "')");
        tEnv.executeSql("CREATE TABLE t (id BIGINT, p STRING) " + distributedBy + " PARTITIONED BY (p) WITH ("
                + options + "'connector' = 'sluice', 'target' = 'filesystem', " + FileSystemSqlIT.pluginsDirOption()
                + ", 'path' = '" + out + "', 'format' = 'csv')");
        tEnv.executeSql("INSERT INTO t SELECT id, CONCAT('p', CAST(id % " + PARTITIONS + " AS STRING)) FROM numbers")
                .await();

        List<Long> ids = CommittedFiles.lines(out).stream()
                .map(l -> Long.parseLong(l.split(",")[0]))
                .collect(Collectors.toList());
        assertThat(ids)
                .as("every row once")
                .hasSize((int) ROWS)
                .containsExactlyInAnyOrderElementsOf(
                        LongStream.rangeClosed(1, ROWS).boxed().collect(Collectors.toList()));
        return out;
    }

    /** partition directory -> the uids of the writers whose committed files are in it ({@code part-<uid>-<n>}). */
    private static Map<String, Set<String>> writersPerPartition(Path out) throws Exception {
        Map<String, Set<String>> writers = new TreeMap<>();
        for (Path file : CommittedFiles.visible(out)) {
            String name = file.getFileName().toString();
            assertThat(name).startsWith("part-");
            writers.computeIfAbsent(file.getParent().getFileName().toString(), k -> new TreeSet<>())
                    .add(name.substring("part-".length(), "part-".length() + 36));
        }
        return writers;
    }
}

package io.sluice.it;

import org.apache.flink.api.common.JobID;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.StatementSet;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * Exactly-once when a TaskManager process dies: a STREAMING Flink SQL job, submitted over REST to
 * a standalone cluster of separate JVM processes, writes a numbered sequence through
 * {@code 'connector' = 'sluice'} into partitioned Parquet and CSV tables (one statement set,
 * success files); after checkpoints have completed and Parquet files have been committed, the
 * TaskManager that runs every task of the job is killed with SIGKILL and a fresh TaskManager
 * process takes its place, as a supervisor would start one.
 *
 * <p>This proves what an exception thrown inside a task ({@link FileSinkExactlyOnceIT}) cannot:
 * the writers, the committer and the commit aggregator all lose their process at once, with
 * nothing closed or flushed, files half-written, in-progress CSV files open and possibly a
 * checkpoint completed whose commit never ran (when: drawn from the campaign's seed, the checkpoint
 * interval and how long after which committed checkpoint); the JobManager notices the lost TaskManager,
 * restores the job from its last checkpoint onto a TaskManager that never saw it (which loads the
 * plugins itself), and the result is still every row exactly once in the committed files of both
 * tables, read by independent readers, with {@code _SUCCESS} in every partition and no visible
 * in-progress file.
 */
@Tag("standalone-cluster")
@Tag("both-lines")
class KilledTaskManagerIT {

    /**
     * 15 s of input at the rate below: the first checkpoint alone can take 4 s (the TaskManager
     * loads Parquet and Hadoop for it) on a busy two-core machine, and the kill must still come
     * well before the end of the input.
     */
    private static final int ROWS = 6000;

    private static final int ROWS_PER_SECOND = 400;
    private static final int PARTITIONS = 4;

    private static Path work;
    private static StandaloneCluster cluster;

    @BeforeAll
    static void startCluster() throws Exception {
        work = Files.createTempDirectory(Paths.get("target").toAbsolutePath(), "killed-taskmanager-");
        Map<String, String> config = new LinkedHashMap<>();
        // the cluster default of StandaloneCluster is no restarts; recovering is the point here.
        // A few attempts: the lost TaskManager is one failure, and a checkpoint or deployment
        // racing with it may cost another
        config.put("restart-strategy.type", "fixed-delay");
        config.put("restart-strategy.fixed-delay.attempts", "5");
        config.put("restart-strategy.fixed-delay.delay", "1 s");
        // the JobManager learns of a dead TaskManager from its heartbeats, not from the closed
        // connection: a heartbeat RPC to the dead process fails at once (connection refused), and
        // heartbeat.rpc-failure-threshold (2) such failures in a row mark the TaskManager
        // unreachable; only a TaskManager that hangs without closing its port waits for
        // heartbeat.timeout. With Flink's 10 s interval the kill would go unnoticed for ~20 s; a
        // 1 s interval notices it in about 2 s (seen: 1.7-1.9 s). The timeout stays at 10 s, not
        // lower: on a busy two-core machine a live process can miss a few seconds of heartbeats,
        // and a spurious timeout would be a restart the test did not ask for
        config.put("heartbeat.interval", "1000");
        config.put("heartbeat.timeout", "10000");
        // the REST API serves job details and checkpoint statistics from a cache refreshed every
        // web.refresh-interval (3 s by default): the wait for checkpoints would see them late and
        // kill the TaskManager seconds after the moment it aims at
        config.put("web.refresh-interval", "500");
        cluster = StandaloneCluster.start(
                TestDistribution.home(), work, TestDistribution.pluginsDir(), config, Duration.ofSeconds(60));
    }

    @AfterAll
    static void stopCluster() throws Exception {
        // every process, the replacement TaskManager included; the killed one is already gone.
        // Logs and output stay in the work directory for inspection
        if (cluster != null) {
            cluster.close();
        }
    }

    /**
     * One kill per seed from {@code sluice.campaign.seed}: {@code sluice.campaign.kills} of them
     * (1 in CI, more in the soak profile), one after another on the same cluster.
     */
    static java.util.stream.LongStream seeds() {
        long base = Long.getLong("sluice.campaign.seed", 20261201L);
        return java.util.stream.LongStream.range(base, base + Integer.getInteger("sluice.campaign.kills", 1));
    }

    @org.junit.jupiter.params.ParameterizedTest(name = "seed {0}")
    @org.junit.jupiter.params.provider.MethodSource("seeds")
    void everyRowExactlyOnceAfterTaskManagerProcessIsKilled(long seed) throws Throwable {
        try {
            runKillAndCheck(seed);
        } catch (Throwable t) {
            t.addSuppressed(new AssertionError("Cluster logs:\n" + cluster.logTails()));
            throw t;
        }
    }

    private void runKillAndCheck(long seed) throws Exception {
        Path parquet = work.resolve("out-parquet-" + seed);
        Path csv = work.resolve("out-csv-" + seed);

        // an explicitly remote environment: a context environment another test class left
        // behind in this JVM cannot redirect the job to a MiniCluster
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createRemoteEnvironment(
                cluster.host(), cluster.restPort(), new Configuration());
        // the moment of the kill is drawn from the seed (printed; -Dsluice.campaign.seed=N reruns it)
        java.util.Random random = new java.util.Random(seed);
        long checkpointInterval = 300 + random.nextInt(500);
        int checkpointsBeforeKillAtLeast = 1 + random.nextInt(3);
        long extraDelayMs = random.nextInt(1500);
        System.out.printf(
                "seed %d: checkpoints every %d ms, kill after %d committed checkpoints and %d ms more%n",
                seed, checkpointInterval, checkpointsBeforeKillAtLeast, extraDelayMs);
        env.setParallelism(2);
        env.enableCheckpointing(checkpointInterval);
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(env, EnvironmentSettings.inStreamingMode());

        // datagen's sequence is checkpointed: after the restore it continues where the
        // checkpoint left it, and rows emitted after that checkpoint are emitted again
        tEnv.executeSql("CREATE TABLE src (id BIGINT) WITH ('connector' = 'datagen', "
                + "'number-of-rows' = '" + ROWS + "', 'rows-per-second' = '" + ROWS_PER_SECOND + "', "
                + "'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '" + ROWS + "')");
        String sluice = "'connector' = 'sluice', 'target' = 'filesystem', "
                + "'sluice.plugins.dir' = '" + TestDistribution.pluginsDir() + "', "
                + "'sink.partition-commit.policy.kind' = 'success-file'";
        // Parquet rolls at every checkpoint: files are committed before the kill, and the restore
        // must neither lose nor repeat them. CSV keeps its part files open across checkpoints
        // (default rolling): at the kill they are in-progress files the restored writers resume
        // (truncated to the checkpointed length) and commit only at the end of the input
        tEnv.executeSql("CREATE TABLE pq (id BIGINT, name STRING, part STRING) PARTITIONED BY (part) WITH (" + sluice
                + ", 'path' = '" + parquet + "', 'format' = 'parquet')");
        tEnv.executeSql("CREATE TABLE c (id BIGINT, name STRING, part STRING) PARTITIONED BY (part) WITH (" + sluice
                + ", 'path' = '" + csv + "', 'format' = 'csv')");
        String select = "SELECT id, CONCAT('n', CAST(id AS STRING)), CONCAT('p', CAST(MOD(id, " + PARTITIONS
                + ") AS STRING)) FROM src";
        StatementSet inserts = tEnv.createStatementSet();
        inserts.addInsertSql("INSERT INTO pq " + select);
        inserts.addInsertSql("INSERT INTO c " + select);

        long submitted = System.nanoTime();
        TableResult result = inserts.execute();
        JobID jobId =
                result.getJobClient().orElseThrow(IllegalStateException::new).getJobID();
        String job = "/jobs/" + jobId;

        // kill only once the job has something to lose: completed checkpoints (state to restore)
        // and committed files (output a careless recovery would duplicate)
        awaitCommittedCheckpoints(job, parquet, checkpointsBeforeKillAtLeast, Duration.ofSeconds(60));
        Thread.sleep(extraDelayMs);
        // the cluster's only TaskManager holds both slots, so it runs every task of the job
        Set<String> running = cluster.taskManagersOf(job);
        assertThat(running)
                .as("TaskManagers running the job: one runs every task")
                .hasSize(1);
        String victim = running.iterator().next();
        // only listed now, read after the job: decoding Parquet in this JVM for the first time
        // loads Hadoop and takes seconds, which the job would spend getting to its end
        List<Path> committedBeforeKill = CommittedFiles.visible(parquet);
        long checkpointsBeforeKill = cluster.get(job + "/checkpoints")
                .path("counts")
                .path("completed")
                .asLong();

        long killedAt = System.currentTimeMillis();
        cluster.killTaskManager(victim);
        long killMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - submitted);
        // the job cannot run without slots: start a replacement, as a supervisor (systemd,
        // Kubernetes) would. Its start overlaps with the JobManager noticing the loss
        long replacementStart = System.nanoTime();
        String replacement = cluster.startTaskManager(Duration.ofSeconds(60));
        long replacementMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - replacementStart);

        result.await(90, TimeUnit.SECONDS);
        long totalMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - submitted);

        JsonNode details = cluster.get(job);
        assertThat(details.path("state").asText()).isEqualTo("FINISHED");
        JsonNode checkpoints = cluster.get(job + "/checkpoints");
        JsonNode exceptions =
                cluster.get(job + "/exceptions").path("exceptionHistory").path("entries");
        long restartingAt = details.path("timestamps").path("RESTARTING").asLong();
        // a committed file is final: the recovery must not remove it (its rows count below)
        assertThat(committedBeforeKill)
                .as("parquet files committed before the kill")
                .allSatisfy(f -> assertThat(f).exists());
        int rowsBeforeKill = 0;
        for (Path f : committedBeforeKill) {
            rowsBeforeKill +=
                    CommittedFiles.parquetFile(f, g -> g.getLong("id", 0)).size();
        }
        System.out.printf(
                "killed %s at %d ms after submission, with %d checkpoints completed and %d parquet rows "
                        + "committed; replacement %s registered after %d ms; restart began %d ms after the kill; "
                        + "job finished %d ms after submission%n",
                victim,
                killMs,
                checkpointsBeforeKill,
                rowsBeforeKill,
                replacement,
                replacementMs,
                restartingAt - killedAt,
                totalMs);
        System.out.println("checkpoints: " + checkpoints.path("counts"));
        exceptions.forEach(
                e -> System.out.println("failure: " + e.path("taskManagerId").asText() + " "
                        + e.path("stacktrace").asText().lines().findFirst().orElse("")));

        // the kill hit the job half-way through its input, or it proves nothing about recovery
        assertThat(rowsBeforeKill).as("parquet rows committed before the kill").isBetween(1, ROWS - 1);
        // the job did go through a restart, caused by the lost TaskManager, and restored its state
        // from a checkpoint (not from scratch: that would rewrite committed rows)
        assertThat(restartingAt).as("time the job entered RESTARTING").isGreaterThan(0);
        assertThat(exceptions).as("exception history").isNotEmpty();
        assertThat(exceptions)
                .as("exception history")
                .anySatisfy(e -> assertThat(e.toString()).contains(victim));
        assertThat(checkpoints.path("counts").path("restored").asInt())
                .as("restores from a checkpoint")
                .isGreaterThanOrEqualTo(1);
        // and it finished on the replacement, which loaded the plugins from its own directory
        assertThat(cluster.taskManagersOf(job))
                .as("TaskManagers that ran the job to its end")
                .containsExactly(replacement);
        assertThat(cluster.taskManagerLog(replacement))
                .contains("Sluice plugins in "
                        + TestDistribution.pluginsDir().toAbsolutePath().normalize());

        RowIds.assertEachOnce("parquet", ROWS, CommittedFiles.parquet(parquet, g -> g.getLong("id", 0)));
        RowIds.assertEachOnce(
                "csv",
                ROWS,
                CommittedFiles.lines(csv).stream()
                        .map(l -> Long.parseLong(l.split(",")[0]))
                        .collect(Collectors.toList()));

        List<String> partitions =
                IntStream.range(0, PARTITIONS).mapToObj(i -> "part=p" + i).collect(Collectors.toList());
        for (Path out : List.of(parquet, csv)) {
            assertThat(CommittedFiles.visible(out))
                    .extracting(f -> f.getParent().getFileName().toString())
                    .as("partitions of %s", out)
                    .containsOnlyElementsOf(partitions);
            assertThat(CommittedFiles.named(out, "_SUCCESS"))
                    .extracting(f -> f.getParent().getFileName().toString())
                    .as("success files of %s", out)
                    .containsExactlyInAnyOrderElementsOf(partitions);
            // no in-progress or pending file under a visible name
            assertThat(CommittedFiles.visible(out))
                    .extracting(f -> f.getFileName().toString())
                    .as("visible files of %s", out)
                    .noneMatch(n -> n.contains("inprogress") || n.contains("pending"));
            System.out.println(
                    out.getFileName() + ": " + CommittedFiles.visible(out).size() + " committed files, "
                            + CommittedFiles.inProgress(out).size() + " hidden in-progress files left behind");
            // the killed writers left the in-progress files they opened after their last
            // checkpoint (for Parquet, 4 bytes of magic each); the restored writers removed them
            assertThat(CommittedFiles.inProgress(out))
                    .as("in-progress files left in %s", out)
                    .isEmpty();
        }
    }

    /**
     * Waits until at least {@code count} checkpoints of the running job have completed and
     * committed Parquet files are visible; fails if the job ends first.
     */
    private static void awaitCommittedCheckpoints(String job, Path parquet, int count, Duration timeout)
            throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        String last = "";
        while (System.nanoTime() < deadline) {
            String state;
            long completed;
            try {
                state = cluster.get(job).path("state").asText();
                completed = cluster.get(job + "/checkpoints")
                        .path("counts")
                        .path("completed")
                        .asLong();
            } catch (IOException e) {
                // a slow answer from a busy JobManager is no reason to give up; the deadline is
                last = e.toString();
                Thread.sleep(100);
                continue;
            }
            if (!state.equals("RUNNING") && !state.equals("CREATED") && !state.equals("INITIALIZING")) {
                fail("Job is " + state + " before the TaskManager was killed");
            }
            int files = CommittedFiles.visible(parquet).size();
            if (completed >= count && files > 0) {
                return;
            }
            last = completed + " checkpoints completed, " + files + " parquet files committed";
            Thread.sleep(100);
        }
        fail("No " + count + " completed checkpoints with committed files after " + timeout + ": " + last);
    }
}

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
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Sluice on a real Flink cluster of separate processes: a JobManager and a TaskManager JVM run
 * from the distribution's {@code lib/} (the framework jar, as in a Flink installation's
 * {@code lib/}) and Flink's jars, with the plugins directory set on the cluster. A Flink SQL job is
 * submitted over REST from this JVM without any user jar (the planner's generated code travels in
 * the job graph), writes a bounded numbered sequence through {@code 'connector' = 'sluice'} into
 * partitioned Parquet and CSV with success files, committing on checkpoints.
 *
 * <p>This proves what a MiniCluster cannot: the job graph crosses a process boundary with only
 * descriptors in it and deserializes on a TaskManager whose classpath holds just the framework jar
 * and Flink; the TaskManager loads the plugins from its own setting (the client names a different
 * directory); and the committed files, read by independent readers, hold every row exactly once,
 * with {@code _SUCCESS} in every partition and no in-progress file visible.
 */
@Tag("standalone-cluster")
@Tag("both-lines")
class StandaloneClusterIT {

    private static final int ROWS = 2000;
    private static final int PARTITIONS = 4;

    private static Path work;
    private static StandaloneCluster cluster;

    @BeforeAll
    static void startCluster() throws Exception {
        // a fresh directory per run: logs stay for inspection and concurrent runs do not collide
        work = Files.createTempDirectory(Paths.get("target").toAbsolutePath(), "standalone-cluster-");
        cluster = StandaloneCluster.start(
                TestDistribution.home(), work, TestDistribution.pluginsDir(), Duration.ofSeconds(60));
    }

    @AfterAll
    static void stopCluster() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
        // the logs and the output stay for inspection; the copy of the plugins is only bulk
        Path clientPlugins = work == null ? null : work.resolve("client-plugins");
        if (clientPlugins != null && Files.isDirectory(clientPlugins)) {
            try (Stream<Path> files = Files.walk(clientPlugins)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /**
     * The mistake the README warns of: Sluice's plugins copied into Flink's own plugins folder
     * ({@code $FLINK_HOME/plugins}). Flink's plugin loader wants the jars of each plugin directly
     * in its folder, finds Sluice's under {@code lib/}, and the JobManager and TaskManager stop. The README's
     * troubleshooting quotes the error Flink logs; this is where the quote is checked.
     */
    @Test
    void sluicePluginsInFlinksPluginsFolderStopTheClusterWithTheErrorTheReadmeQuotes() throws Exception {
        Path mistake = Files.createTempDirectory(Paths.get("target").toAbsolutePath(), "flink-plugins-mistake-");
        Path flinkPlugins = mistake.resolve("flink-plugins");
        TestDistribution.copyTree(TestDistribution.pluginsDir(), flinkPlugins);
        Throwable failure = org.assertj.core.api.Assertions.catchThrowable(() -> StandaloneCluster.start(
                        TestDistribution.home(), mistake, TestDistribution.pluginsDir(), Duration.ofSeconds(60))
                .close());
        assertThat(failure).as("cluster start").isNotNull().hasMessageContaining("exited with code");
        // both kinds of process load Flink's plugins first thing and stop on them; whichever
        // stops first ends the start (and the other is stopped with it), so either log says why,
        // naming the first of Sluice's plugin folders Flink lists, in directory order
        String logs = Files.readString(mistake.resolve("jobmanager.out"))
                + Files.readString(mistake.resolve("taskmanager-1.out"));
        assertThat(logs)
                .containsPattern(java.util.regex.Pattern.quote(
                                "Cannot find any jar files for plugin in directory [" + flinkPlugins + "/")
                        + "(filesystem|formats|iceberg)"
                        + java.util.regex.Pattern.quote(
                                "]. Please provide the jar files for the plugin or delete the directory."));
        String readme = Files.readString(Paths.get("..", "docs", "install.md"));
        assertThat(readme)
                .as("the install page's troubleshooting")
                .contains("Cannot find any jar files for plugin in directory [/opt/flink/plugins/filesystem]. "
                        + "Please provide the jar files for the plugin or delete the directory.");
    }

    @Test
    void sqlJobSubmittedOverRestCommitsEveryRowOnce() throws Throwable {
        try {
            runJobAndCheckOutput();
        } catch (Throwable t) {
            t.addSuppressed(new AssertionError("Cluster logs:\n" + cluster.logTails()));
            throw t;
        }
    }

    private void runJobAndCheckOutput() throws Exception {
        Path parquet = work.resolve("out-parquet");
        Path csv = work.resolve("out-csv");
        // the client's plugins (the table factory validates options with them) are a copy in
        // another directory, so the TaskManager's log shows whose directory the task side used
        Path clientPlugins = work.resolve("client-plugins");
        TestDistribution.copyTree(TestDistribution.pluginsDir(), clientPlugins);

        // an explicitly remote environment: a context environment another test class left
        // behind in this JVM cannot redirect the job to a MiniCluster
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createRemoteEnvironment(
                cluster.host(), cluster.restPort(), new Configuration());
        env.setParallelism(2);
        // STREAMING with checkpoints: files become visible through commits on checkpoints
        env.enableCheckpointing(500);
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(env, EnvironmentSettings.inStreamingMode());

        // rate-limited (about 8 s), so several checkpoints complete while the source still runs
        tEnv.executeSql("CREATE TABLE src (id BIGINT) WITH ('connector' = 'datagen', "
                + "'number-of-rows' = '" + ROWS + "', 'rows-per-second' = '" + ROWS / 8 + "', "
                + "'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '" + ROWS + "')");
        String sluice = "'connector' = 'sluice', 'target' = 'filesystem', "
                + "'sluice.plugins.dir' = '" + clientPlugins + "', "
                + "'sink.partition-commit.policy.kind' = 'success-file'";
        tEnv.executeSql("CREATE TABLE pq (id BIGINT, name STRING, part STRING) PARTITIONED BY (part) WITH (" + sluice
                + ", 'path' = '" + parquet + "', 'format' = 'parquet')");
        // Parquet rolls on every checkpoint and commits its partitions while the job runs; CSV keeps
        // its part files open (default rolling), so its partitions are committed only at the end of
        // the input: both paths must end with a success file in every partition
        tEnv.executeSql("CREATE TABLE c (id BIGINT, name STRING, part STRING) PARTITIONED BY (part) WITH (" + sluice
                + ", 'path' = '" + csv + "', 'format' = 'csv')");
        String select = "SELECT id, CONCAT('n', CAST(id AS STRING)), CONCAT('p', CAST(MOD(id, " + PARTITIONS
                + ") AS STRING)) FROM src";
        StatementSet inserts = tEnv.createStatementSet();
        inserts.addInsertSql("INSERT INTO pq " + select);
        inserts.addInsertSql("INSERT INTO c " + select);
        long started = System.nanoTime();
        TableResult result = inserts.execute();
        JobID jobId =
                result.getJobClient().orElseThrow(IllegalStateException::new).getJobID();
        result.await(90, TimeUnit.SECONDS);
        System.out.printf(
                "job %s finished in %d ms%n", jobId, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));

        // the job ran on the standalone cluster, not in this JVM
        JsonNode job = cluster.get("/jobs/" + jobId);
        assertThat(job.path("state").asText()).isEqualTo("FINISHED");
        JsonNode checkpoints = cluster.get("/jobs/" + jobId + "/checkpoints").path("counts");
        System.out.println("checkpoints: " + checkpoints);
        // commits happened on checkpoints while the job ran, not only at its end (failed ones are
        // not counted against it: Flink declines triggers while tasks deploy or finish, by design)
        assertThat(checkpoints.path("completed").asInt())
                .as("completed checkpoints")
                .isGreaterThanOrEqualTo(2);

        // the TaskManager loaded the plugins itself, from the directory config.yaml names (no
        // system property, no environment variable), and said so once, at INFO, with each plugin
        String tmLog = cluster.taskManagerLog();
        String loaded = "Sluice plugins in "
                + TestDistribution.pluginsDir().toAbsolutePath().normalize() + ": [";
        assertThat(tmLog).contains(loaded).doesNotContain("Sluice plugins in " + clientPlugins);
        assertThat(tmLog.lines().filter(l -> l.contains(loaded)))
                .singleElement()
                .satisfies(l -> assertThat(l)
                        .contains(" INFO ")
                        .contains("filesystem 0.1.0-SNAPSHOT [LOADED]")
                        .contains("formats 0.1.0-SNAPSHOT [LOADED]"));

        // with the README's log4j lines, the plugins' libraries keep quiet: no line per Parquet
        // file opened, no per-process native-hadoop warning, no PF4J chatter, no collision warning
        assertThat(tmLog.lines()
                        .filter(l -> l.contains(" CodecPool ")
                                || l.contains(" NativeCodeLoader ")
                                || l.contains("Name collision")
                                || l.contains("DefaultPluginManager")
                                || l.contains("AbstractPluginManager")))
                .as("log lines the README's log4j snippet quiets")
                .isEmpty();

        List<Long> expected =
                IntStream.rangeClosed(1, ROWS).mapToObj(i -> (long) i).collect(Collectors.toList());
        List<Long> parquetIds = CommittedFiles.parquet(parquet, g -> g.getLong("id", 0));
        assertThat(parquetIds).as("parquet ids").containsExactlyInAnyOrderElementsOf(expected);
        List<Long> csvIds = CommittedFiles.lines(csv).stream()
                .map(l -> Long.parseLong(l.split(",")[0]))
                .collect(Collectors.toList());
        assertThat(csvIds).as("csv ids").containsExactlyInAnyOrderElementsOf(expected);
        System.out.println("parquet files: " + CommittedFiles.visible(parquet).size() + ", csv files: "
                + CommittedFiles.visible(csv).size());

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
            assertThat(CommittedFiles.inProgress(out))
                    .as("in-progress files of %s", out)
                    .isEmpty();
        }
        // each of the 2 writers rolls a Parquet file per partition at each checkpoint: more than 2
        // files per partition means partitions were committed at several checkpoints
        assertThat(CommittedFiles.visible(parquet))
                .as("committed parquet files")
                .hasSizeGreaterThan(2 * PARTITIONS);
    }
}

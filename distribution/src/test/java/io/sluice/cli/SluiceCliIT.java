package io.sluice.cli;

import io.sluice.it.CommittedFiles;
import io.sluice.it.TestDistribution;
import io.sluice.testservers.s3.FlinkS3FileSystem;
import io.sluice.testservers.s3.S3Server;

import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * {@code bin/sluice} of the staged distribution ({@code sluice.test.dist}), run as a user runs it:
 * a child process with its own JVM, judged by its exit code, its output and the files it wrote.
 */
class SluiceCliIT {

    private static final Duration PLUGINS_TIMEOUT = Duration.ofMinutes(2);
    private static final Duration SQL_TIMEOUT = Duration.ofMinutes(10);
    /** Where examples/quickstart.sql writes; each test points it at its own directory. */
    private static final String QUICKSTART_DIR = "/tmp/sluice-quickstart";

    private static Path dist;

    @RegisterExtension
    static final S3Server S3 = S3Server.inMemory("cli-lake");

    @TempDir
    Path tmp;

    @BeforeAll
    static void distribution() {
        String dir = System.getProperty("sluice.test.dist");
        assertThat(dir)
                .as("system property sluice.test.dist (set by the distribution's pom)")
                .isNotNull();
        dist = Paths.get(dir);
        assertThat(dist.resolve("bin/sluice")).as("the staged bin/sluice").isExecutable();
    }

    @Test
    @Tag("both-lines")
    void pluginsListsTheDistributionsPluginsAsLoadedWithTheirExtensions() throws Exception {
        Run run = sluice(Collections.emptyMap(), PLUGINS_TIMEOUT, "plugins");

        assertThat(run.exitCode).as(run.describe()).isZero();
        assertThat(run.stdout)
                .contains("Plugins directory: " + dist.resolve("sluice-plugins").toRealPath());
        String formats = run.block("formats");
        assertThat(formats)
                .containsPattern("status:\\s+LOADED")
                .containsPattern("FormatFactory:\\s+.*\\bcsv\\b")
                .containsPattern("FormatFactory:\\s+.*\\bparquet\\b");
        String filesystem = run.block("filesystem");
        assertThat(filesystem)
                .containsPattern("status:\\s+LOADED")
                .containsPattern("TargetFactory:\\s+filesystem")
                .containsPattern("CommitPolicyFactory:\\s+.*\\bsuccess-file\\b");
        assertThat(run.stdout).containsPattern("\\d+ plugin\\(s\\): \\d+ loaded, 0 disabled, 0 failed");
    }

    /**
     * The release tarball stores each jar that several plugins carry once (hard links), and what
     * it unpacks to is an installation whose plugins all load, each from its own copy.
     */
    @Test
    @Tag("both-lines")
    void theTarballStoresSharedJarsOnceAndUnpacksToAnInstallationWhosePluginsLoad() throws Exception {
        Path tarball = dist.resolveSibling(dist.getFileName() + ".tar.gz");
        assertThat(tarball).exists();
        List<String> listing = tar(tmp, "tzvf", tarball.toString());
        String hadoop = "/lib/hadoop-client-runtime-";
        List<String> hadoopEntries =
                listing.stream().filter(l -> l.contains(hadoop)).collect(Collectors.toList());
        // every plugin but filesystem carries Hadoop's client: formats, iceberg and hive
        List<String> plugins = TestDistribution.plugins();
        List<String> withHadoop =
                plugins.stream().filter(p -> !p.equals("filesystem")).collect(Collectors.toList());
        assertThat(hadoopEntries)
                .as("%s each carry Hadoop's client", withHadoop)
                .hasSize(withHadoop.size());
        assertThat(hadoopEntries.stream().filter(l -> l.startsWith("-")))
                .as("stored once, linked to by the others")
                .hasSize(1);
        assertThat(hadoopEntries.stream().filter(l -> l.startsWith("h") && l.contains(" link to ")))
                .hasSize(withHadoop.size() - 1);

        Path unpacked = tmp.resolve("unpacked");
        Files.createDirectories(unpacked);
        tar(unpacked, "xzf", tarball.toString());
        Path home = unpacked.resolve(dist.getFileName().toString());
        for (String plugin : withHadoop) {
            try (Stream<Path> jars =
                    Files.list(home.resolve("sluice-plugins").resolve(plugin).resolve("lib"))) {
                Path copy = jars.filter(j -> j.toString().contains(hadoop))
                        .findFirst()
                        .orElseThrow();
                assertThat(Files.size(copy)).as(copy.toString()).isGreaterThan(1_000_000L);
            }
        }

        Run run = sluice(home, Collections.emptyMap(), PLUGINS_TIMEOUT, "plugins");

        assertThat(run.exitCode).as(run.describe()).isZero();
        for (String plugin : plugins) {
            assertThat(run.block(plugin)).containsPattern("status:\\s+LOADED");
        }
        assertThat(run.stdout)
                .contains(plugins.size() + " plugin(s): " + plugins.size() + " loaded, 0 disabled, 0 failed");
    }

    private static List<String> tar(Path directory, String... args) throws Exception {
        List<String> command = new ArrayList<>();
        command.add("tar");
        command.addAll(Arrays.asList(args));
        Process process = new ProcessBuilder(command)
                .directory(directory.toFile())
                .redirectErrorStream(true)
                .start();
        List<String> output;
        try (BufferedReader reader =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            output = reader.lines().collect(Collectors.toList());
        }
        assertThat(process.waitFor(2, TimeUnit.MINUTES)).isTrue();
        assertThat(process.exitValue()).as("tar %s: %s", command, output).isZero();
        return output;
    }

    @Test
    @Tag("both-lines")
    void aCorruptPluginArchiveIsReportedAsFailedAndTheOthersStillLoad() throws Exception {
        Path plugins = tmp.resolve("plugins");
        copyTree(dist.resolve("sluice-plugins"), plugins);
        byte[] garbage = new byte[4096];
        new Random(42).nextBytes(garbage);
        Files.write(plugins.resolve("broken.zip"), garbage);

        Run run =
                sluice(Collections.singletonMap("SLUICE_PLUGINS_DIR", plugins.toString()), PLUGINS_TIMEOUT, "plugins");

        assertThat(run.exitCode).as(run.describe()).isEqualTo(1);
        String broken = run.block("broken.zip");
        assertThat(broken)
                .containsPattern("status:\\s+FAILED")
                .containsPattern("error:\\s+.*broken\\.zip")
                .contains("corrupt");
        assertThat(run.block("formats")).containsPattern("status:\\s+LOADED");
        assertThat(run.block("filesystem")).containsPattern("status:\\s+LOADED");
        assertThat(run.stdout).contains("1 failed");
    }

    @Test
    @Tag("both-lines")
    void aMissingPluginsDirectoryIsAUsageError() throws Exception {
        Path missing = tmp.resolve("no-such-dir");

        Run run =
                sluice(Collections.singletonMap("SLUICE_PLUGINS_DIR", missing.toString()), PLUGINS_TIMEOUT, "plugins");

        assertThat(run.exitCode).as(run.describe()).isEqualTo(2);
        assertThat(run.stderr).contains("[ERROR]").contains(missing.toString()).contains("does not exist");
    }

    @Test
    @Tag("both-lines")
    void withoutACommandItPrintsUsage() throws Exception {
        Run none = sluice(Collections.emptyMap(), PLUGINS_TIMEOUT);
        Run unknown = sluice(Collections.emptyMap(), PLUGINS_TIMEOUT, "frobnicate");

        assertThat(none.exitCode).as(none.describe()).isEqualTo(2);
        assertThat(none.stderr).contains("Usage: sluice").contains("plugins").contains("sql -f FILE");
        assertThat(unknown.exitCode).as(unknown.describe()).isEqualTo(2);
        assertThat(unknown.stderr).contains("Unknown command 'frobnicate'").contains("Usage: sluice");
    }

    @Test
    @Tag("both-lines")
    void theQuickstartWritesPartitionedParquetWithSuccessFilesCsvAndAHiveTable() throws Exception {
        Path out = tmp.resolve("quickstart");
        Run run = sluice(
                Collections.emptyMap(),
                SQL_TIMEOUT,
                "sql",
                "-f",
                dist.resolve("examples/quickstart.sql").toString(),
                "-D",
                "lake=" + out,
                "-Dmetastore=" + out.resolve("hive-metastore"));

        Map<String, Long> recordsPerPartition =
                assertQuickstartsFileTables(dist.resolve("examples/quickstart.sql"), run, out);

        // Hive: the metastore lists the three partitions, whose Parquet files (Hive's writer) hold 5000 records
        assertThat(run.stdout).containsPattern("\\|\\s+dt=2024-06-01 \\|").containsPattern("\\|\\s+dt=2024-06-03 \\|");
        Path hive = out.resolve("hive/orders");
        Map<String, Long> hiveRecords = new TreeMap<>();
        for (String partition : names(hive)) {
            long records = 0;
            for (Path part : visibleFiles(hive.resolve(partition))) {
                records += parquetRecords(part);
            }
            hiveRecords.put(partition, records);
        }
        assertThat(hiveRecords).isEqualTo(recordsPerPartition);
    }

    /**
     * The filesystem tables under {@code out} of the quickstart {@code script} (whose tables'
     * location is {@code lake}): partitioned Parquet with success files and CSV, 5000 orders each;
     * returns the Parquet records per partition.
     */
    private Map<String, Long> assertQuickstartsFileTables(Path script, Run run, Path out) throws IOException {
        String example = Files.readString(script);
        assertThat(example).contains("${lake:-" + QUICKSTART_DIR + "}");
        assertThat(run.exitCode).as(run.describe()).isZero();
        assertThat(run.stdout)
                .contains("batch mode")
                .contains("Committed to default_catalog.default_database.orders_parquet")
                .contains("Committed to default_catalog.default_database.orders_csv")
                .containsPattern("\\d+ files? \\(\\d+ new\\), \\d+ bytes, 5000 lines")
                .contains("3 _SUCCESS markers")
                .contains("Done:");

        // Parquet: one directory per day, each with a success file, 5000 records in all
        Path parquet = out.resolve("orders_parquet");
        assertThat(names(parquet)).containsExactlyInAnyOrder("dt=2024-06-01", "dt=2024-06-02", "dt=2024-06-03");
        Map<String, Long> recordsPerPartition = new TreeMap<>();
        for (String partition : names(parquet)) {
            Path dir = parquet.resolve(partition);
            assertThat(dir.resolve("_SUCCESS"))
                    .as("success file of " + partition)
                    .isRegularFile();
            List<Path> parts = visibleFiles(dir);
            assertThat(parts).as("part files of " + partition).isNotEmpty();
            long records = 0;
            for (Path part : parts) {
                records += parquetRecords(part);
            }
            recordsPerPartition.put(partition, records);
        }
        // dt is 2024-06-0<order_id % 3 + 1> for order ids 1..5000
        assertThat(recordsPerPartition)
                .containsEntry("dt=2024-06-01", 1666L)
                .containsEntry("dt=2024-06-02", 1667L)
                .containsEntry("dt=2024-06-03", 1667L);

        // CSV: 5000 lines, each order id once
        List<String> lines = visibleFiles(out.resolve("orders_csv")).stream()
                .flatMap(SluiceCliIT::lines)
                .collect(Collectors.toList());
        assertThat(lines).hasSize(5000);
        Set<Long> ids = lines.stream()
                .map(l -> Long.parseLong(l.substring(0, l.indexOf(','))))
                .collect(Collectors.toCollection(TreeSet::new));
        assertThat(ids)
                .isEqualTo(LongStream.rangeClosed(1, 5000).boxed().collect(Collectors.toCollection(TreeSet::new)));
        return recordsPerPartition;
    }

    /**
     * Everything a run puts in the temporary directory (Flink's RPC jar, 21 MB, the MiniCluster's
     * directories, web uploads) is in a directory of its own, which is gone after the run: one that
     * succeeds, one whose job fails, and one interrupted with SIGTERM while its job runs.
     */
    /** The kinds of run the temporary-directory schedule draws from. */
    private enum RunKind {
        SUCCEEDS,
        JOB_FAILS,
        STATEMENT_REFUSED,
        WRITES_PARQUET,
        WRITES_HIVE_TABLE,
        TERMINATED,
        INTERRUPTED,
        KILLED
    }

    /**
     * Twenty runs of {@code bin/sluice} in a seeded order, each kind at least twice: after every
     * one the temporary directory is as it was before, except after a run killed outright (its
     * script and JVM get SIGKILL and cannot clean up), whose directory the next run removes.
     * Not tagged {@code both-lines}: CI runs it on Flink 1.20 only, where it is most of this
     * class's two minutes (docs/tests.md).
     */
    @Test
    void theTemporaryDirectoryIsLeftAsItWasAfterTwentyRunsThatSucceedFailOrAreInterrupted() throws Exception {
        Path tmpDir = Files.createDirectories(tmp.resolve("tmpdir"));
        Map<String, String> env = Map.of("TMPDIR", tmpDir.toString());
        long seed = Long.getLong("sluice.cli.tmpdir.seed", 20261206L);
        List<RunKind> schedule = new ArrayList<>();
        for (RunKind kind : RunKind.values()) {
            schedule.add(kind);
            schedule.add(kind);
        }
        schedule.addAll(
                List.of(RunKind.SUCCEEDS, RunKind.JOB_FAILS, RunKind.STATEMENT_REFUSED, RunKind.WRITES_PARQUET));
        Collections.shuffle(schedule, new Random(seed));
        if (schedule.get(schedule.size() - 1) == RunKind.KILLED) {
            // the last run's leftovers need a next run to remove them
            Collections.swap(schedule, schedule.size() - 1, 0);
        }
        System.out.println("temporary-directory schedule, seed " + seed + ": " + schedule);

        String numbers = "CREATE TEMPORARY TABLE numbers (n INT) WITH ('connector' = 'datagen', ";
        Path succeeding = script(
                "succeeding.sql",
                "SET 'execution.runtime-mode' = 'batch';",
                numbers + "'number-of-rows' = '10');",
                "SELECT COUNT(*) AS n FROM numbers;");
        Path failing = script(
                "failing.sql",
                "SET 'execution.runtime-mode' = 'batch';",
                numbers + "'number-of-rows' = '10', 'fields.n.kind' = 'sequence', 'fields.n.start' = '1',"
                        + " 'fields.n.end' = '10');",
                "CREATE TEMPORARY TABLE sink (n INT) WITH ('connector' = 'blackhole');",
                "INSERT INTO sink SELECT 10 / (n - n) FROM numbers;");
        // issue 31: a relative 'path' wrote into the CLI's working directory; now it is refused
        Path refused = script(
                "refused.sql",
                "CREATE TABLE rel (n INT) WITH ('connector' = 'sluice', 'target' = 'filesystem',"
                        + " 'path' = 'sluice-relative-t', 'format' = 'csv');",
                "INSERT INTO rel VALUES (1);");
        Path endless = script(
                "endless.sql",
                numbers + "'rows-per-second' = '100');",
                "CREATE TEMPORARY TABLE sink (n INT) WITH ('connector' = 'blackhole');",
                "INSERT INTO sink SELECT n FROM numbers;");

        boolean killedBefore = false;
        for (int i = 0; i < schedule.size(); i++) {
            RunKind kind = schedule.get(i);
            String what = "run " + (i + 1) + " (" + kind + ", seed " + seed + ")";
            switch (kind) {
                case SUCCEEDS:
                    expectExit(sluice(env, SQL_TIMEOUT, "sql", "-f", succeeding.toString()), 0, what);
                    break;
                case JOB_FAILS:
                    expectExit(sluice(env, SQL_TIMEOUT, "sql", "-f", failing.toString()), 1, what);
                    break;
                case STATEMENT_REFUSED:
                    Run run = sluice(env, SQL_TIMEOUT, "sql", "-f", refused.toString());
                    expectExit(run, 1, what);
                    assertThat(run.stderr)
                            .contains("'path' 'sluice-relative-t'")
                            .contains("absolute");
                    for (Path workingDirectory : List.of(tmp, dist)) {
                        assertThat(workingDirectory.resolve("sluice-relative-t"))
                                .as("%s: in the working directory", what)
                                .doesNotExist();
                    }
                    break;
                case WRITES_PARQUET:
                    Path out = tmp.resolve("parquet-" + i);
                    Path writing = script(
                            "parquet-" + i + ".sql",
                            "SET 'execution.runtime-mode' = 'batch';",
                            numbers + "'number-of-rows' = '100');",
                            "CREATE TABLE t (n INT) WITH ('connector' = 'sluice', 'target' = 'filesystem', 'path' = '"
                                    + out + "', 'format' = 'parquet');",
                            "INSERT INTO t SELECT n FROM numbers;");
                    expectExit(sluice(env, SQL_TIMEOUT, "sql", "-f", writing.toString()), 0, what);
                    assertThat(visibleFiles(out)).as(what).isNotEmpty();
                    break;
                case WRITES_HIVE_TABLE:
                    Path hive = script(
                            "hive-" + i + ".sql",
                            "SET 'execution.runtime-mode' = 'batch';",
                            hiveCatalog(tmp.resolve("metastore-" + i)),
                            "CREATE DATABASE h.db;",
                            "CREATE TABLE h.db.t (n INT) WITH ('hive.storage.file-format' = 'parquet');",
                            "INSERT INTO h.db.t VALUES (1), (2), (3);");
                    expectExit(sluice(env, SQL_TIMEOUT, "sql", "-f", hive.toString()), 0, what);
                    break;
                case TERMINATED:
                case INTERRUPTED:
                case KILLED:
                    interruptWhileRunning(env, tmpDir, endless, kind, what);
                    break;
                default:
                    throw new AssertionError(kind);
            }
            if (kind == RunKind.KILLED) {
                assertThat(names(tmpDir))
                        .as("left in TMPDIR by %s: its own directory, for the next run to remove", what)
                        .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
                        .startsWith("sluice-run.");
                killedBefore = true;
            } else {
                assertThat(names(tmpDir))
                        .as("left in TMPDIR after %s%s", what, killedBefore ? ", which followed a killed run" : "")
                        .isEmpty();
                killedBefore = false;
            }
        }
    }

    private Path script(String name, String... lines) throws IOException {
        Path file = tmp.resolve(name);
        Files.write(file, List.of(lines), StandardCharsets.UTF_8);
        return file;
    }

    private static void expectExit(Run run, int exitCode, String what) {
        assertThat(run.exitCode).as("exit code of %s: %s", what, run.describe()).isEqualTo(exitCode);
    }

    /**
     * Starts an endless job and, once it runs and Flink's files are in the run's directory, ends
     * {@code bin/sluice} as {@code kind} says: SIGTERM or SIGINT to the script (which passes it on
     * and cleans up), or SIGKILL to the script and then its JVM (nothing can clean up).
     */
    private void interruptWhileRunning(Map<String, String> env, Path tmpDir, Path endless, RunKind kind, String what)
            throws Exception {
        Path logs = Files.createTempDirectory(tmp, "run");
        // as from a terminal: a build started in the background of a script (nohup ... &) runs with
        // SIGINT ignored, every child inherits that, and a shell cannot trap a signal ignored when it
        // started (POSIX), so bin/sluice would never see the interrupt. env resets it first.
        ProcessBuilder builder = new ProcessBuilder(
                        "env",
                        "--default-signal=INT",
                        dist.resolve("bin/sluice").toString(),
                        "sql",
                        "-f",
                        endless.toString())
                .directory(tmp.toFile())
                .redirectOutput(logs.resolve("stdout").toFile())
                .redirectError(logs.resolve("stderr").toFile());
        asAUserRunsIt(builder, env);
        Process process = builder.start();
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
        // the job runs: its progress line is out, and the run's own directory holds Flink's files
        while (!read(logs.resolve("stdout").toFile()).contains(" RUNNING, ")) {
            assertThat(process.isAlive())
                    .as(
                            "the endless job of %s ended: %s",
                            what, read(logs.resolve("stderr").toFile()))
                    .isTrue();
            assertThat(System.nanoTime())
                    .as("no progress line of %s within 3 minutes", what)
                    .isLessThan(deadline);
            Thread.sleep(200);
        }
        List<String> during;
        try (Stream<Path> files = Files.walk(tmpDir)) {
            during = files.map(f -> tmpDir.relativize(f).toString()).collect(Collectors.toList());
        }
        assertThat(during).as("TMPDIR while the job of %s runs", what).anyMatch(f -> f.startsWith("sluice-run."));
        assertThat(during).as("TMPDIR while the job of %s runs", what).anyMatch(f -> f.contains("flink-rpc"));
        List<ProcessHandle> jvms = process.descendants().collect(Collectors.toList());
        if (kind == RunKind.KILLED) {
            process.destroyForcibly();
            assertThat(process.waitFor(1, TimeUnit.MINUTES))
                    .as("the script of %s ends on SIGKILL", what)
                    .isTrue();
            for (ProcessHandle jvm : jvms) {
                jvm.destroyForcibly();
                jvm.onExit().get(1, TimeUnit.MINUTES);
            }
            return;
        }
        if (kind == RunKind.INTERRUPTED) {
            new ProcessBuilder("kill", "-INT", Long.toString(process.pid()))
                    .inheritIO()
                    .start()
                    .waitFor();
        } else {
            process.destroy(); // SIGTERM
        }
        assertThat(process.waitFor(2, TimeUnit.MINUTES))
                .as("bin/sluice ends after %s", what)
                .isTrue();
        assertThat(process.exitValue()).as("exit code after %s", what).isNotZero();
        for (ProcessHandle jvm : jvms) {
            assertThat(jvm.isAlive())
                    .as("the JVM of %s outlived its script", what)
                    .isFalse();
        }
    }

    @Test
    @Tag("both-lines")
    void aFailingJobPrintsTheShortErrorFirstAndNoStackTraceAndStopsTheScript() throws Exception {
        Path script = tmp.resolve("failing.sql");
        Files.write(
                script,
                Arrays.asList(
                        "SET 'execution.runtime-mode' = 'batch';",
                        "CREATE TEMPORARY TABLE numbers (n INT) WITH ('connector' = 'datagen', 'number-of-rows' = '10',",
                        "  'fields.n.kind' = 'sequence', 'fields.n.start' = '1', 'fields.n.end' = '10');",
                        "CREATE TEMPORARY TABLE sink (n INT) WITH ('connector' = 'blackhole');",
                        "-- fails at run time, in the job, not while planning",
                        "INSERT INTO sink SELECT 10 / (n - n) FROM numbers;",
                        "SHOW TABLES;"),
                StandardCharsets.UTF_8);
        Path logDir = tmp.resolve("log");

        Run run = sluice(
                Collections.singletonMap("SLUICE_LOG_DIR", logDir.toString()),
                SQL_TIMEOUT,
                "sql",
                "-f",
                script.toString());

        assertThat(run.exitCode).as(run.describe()).isEqualTo(1);
        assertThat(run.firstErrorLine())
                .as(run.describe())
                .isEqualTo("[ERROR] java.lang.ArithmeticException: / by zero");
        assertThat(run.stderr)
                .contains("Statement 4 (line 6) failed: INSERT INTO sink")
                .containsPattern("Job [0-9a-f]{32} failed after")
                .contains("root cause: java.lang.ArithmeticException");
        assertNoStackTrace(run);
        assertThat(run.stdout).as("nothing runs after the failed statement").doesNotContain("[5]");
        // the stack traces are in the log file, which the error names
        assertThat(run.stderr).contains(logDir.resolve("sluice.log").toString());
        assertThat(read(logDir.resolve("sluice.log").toFile())).containsPattern("\\n\\s+at [\\w.$]+\\(");
    }

    @Test
    @Tag("both-lines")
    void anInvalidOptionIsTheFirstLineNamingOptionAndValueAndTheDataStays() throws Exception {
        Path out = tmp.resolve("t");
        Path script = tmp.resolve("invalid.sql");
        String table = "CREATE TABLE t (id INT) WITH ('connector' = 'sluice', 'target' = 'filesystem', " + "'path' = '"
                + out + "', 'format' = 'csv'";
        Files.write(
                script,
                Arrays.asList(
                        "SET 'execution.runtime-mode' = 'batch';",
                        table + ");",
                        "INSERT INTO t VALUES (1), (2);",
                        "CREATE TABLE bad (id INT) WITH ('connector' = 'sluice', 'target' = 'filesystem', "
                                + "'path' = '" + out
                                + "', 'format' = 'csv', 'sink.rolling-policy.file-size' = '10 parsecs');",
                        "INSERT INTO bad VALUES (3);"),
                StandardCharsets.UTF_8);

        Run run = sluice(
                Collections.singletonMap("SLUICE_LOG_DIR", tmp.resolve("log").toString()),
                SQL_TIMEOUT,
                "sql",
                "-f",
                script.toString());

        assertThat(run.exitCode).as(run.describe()).isEqualTo(1);
        assertThat(run.firstErrorLine())
                .as(run.describe())
                .startsWith("[ERROR] Invalid options of table default_catalog.default_database.bad")
                .contains("sink.rolling-policy.file-size")
                .contains("10 parsecs");
        assertThat(run.stderr).doesNotContain("Table options are");
        assertNoStackTrace(run);
        List<String> lines =
                visibleFiles(out).stream().flatMap(SluiceCliIT::lines).sorted().collect(Collectors.toList());
        assertThat(lines).as("the rows committed before the failed statement").containsExactly("1", "2");
    }

    /**
     * A misspelt option printed the list of supported options three times, 161-236 lines on stderr
     * (issue 31): the error names the unknown option once, with the close match, and lists the
     * supported options at most once.
     */
    @Test
    @Tag("both-lines")
    void anUnknownOptionIsSaidOnceWithTheCloseMatch() throws Exception {
        Path out = tmp.resolve("t");
        Path script = tmp.resolve("unknown.sql");
        Files.write(
                script,
                Arrays.asList(
                        "SET 'execution.runtime-mode' = 'batch';",
                        "CREATE TABLE t (id INT) WITH ('connector' = 'sluice', 'target' = 'filesystem', 'path' = '"
                                + out + "', 'format' = 'csv', 'sink.rolling-policy.file-sise' = '1mb');",
                        "INSERT INTO t VALUES (1);"),
                StandardCharsets.UTF_8);

        Run run = sluice(
                Map.of("SLUICE_LOG_DIR", tmp.resolve("log").toString()), SQL_TIMEOUT, "sql", "-f", script.toString());

        assertThat(run.exitCode).as(run.describe()).isEqualTo(1);
        assertThat(run.firstErrorLine())
                .as(run.describe())
                .contains("Unsupported options for target 'filesystem': [sink.rolling-policy.file-sise]")
                .contains("did you mean 'sink.rolling-policy.file-size'");
        assertThat(run.stderr.split("Supported options:", -1))
                .as(run.describe())
                .hasSizeLessThanOrEqualTo(2);
        assertThat(run.stderr.split("\\R")).as(run.describe()).hasSizeLessThan(70);
        assertNoStackTrace(run);
    }

    @Test
    @Tag("both-lines")
    void aStreamingJobLogsNoPendingCommittablesCollisionAtItsCheckpoints() throws Exception {
        Path out = tmp.resolve("s");
        Path logDir = tmp.resolve("log");
        Path script = tmp.resolve("streaming.sql");
        Files.write(
                script,
                Arrays.asList(
                        "SET 'execution.checkpointing.interval' = '300 ms';",
                        "CREATE TEMPORARY TABLE numbers (n INT) WITH ('connector' = 'datagen', 'number-of-rows' = '40',",
                        "  'rows-per-second' = '20', 'fields.n.kind' = 'sequence', 'fields.n.start' = '1', 'fields.n.end' = '40');",
                        "CREATE TABLE t (n INT) WITH ('connector' = 'sluice', 'target' = 'filesystem', 'path' = '" + out
                                + "', " + "'format' = 'csv', 'sink.rolling-policy.kind' = 'on-checkpoint');",
                        "INSERT INTO t SELECT n FROM numbers;"),
                StandardCharsets.UTF_8);

        Run run = sluice(
                Collections.singletonMap("SLUICE_LOG_DIR", logDir.toString()),
                SQL_TIMEOUT,
                "sql",
                "-f",
                script.toString());

        assertThat(run.exitCode).as(run.describe()).isZero();
        assertThat(visibleFiles(out).stream().flatMap(SluiceCliIT::lines).count())
                .isEqualTo(40);
        assertThat(run.stderr).doesNotContain("Name collision");
        Path log = logDir.resolve("sluice.log");
        if (Files.exists(log)) {
            assertThat(read(log.toFile())).doesNotContain("pendingCommittables");
        }
    }

    /**
     * An error that recurs on every attempt (a partition value that is not a time, with the
     * partition-time trigger) ends a STREAMING job at once, which the CLI's restart strategy would
     * otherwise restart forever, printing only RUNNING or RESTARTING; the reason is the first line.
     */
    @Test
    @Tag("both-lines")
    void aStreamingJobThatFailsOnEveryAttemptEndsAtOnceWithTheReasonFirst() throws Exception {
        Path out = tmp.resolve("p");
        Path script = tmp.resolve("not-a-time.sql");
        Files.write(
                script,
                Arrays.asList(
                        "SET 'execution.checkpointing.interval' = '300 ms';",
                        "CREATE TABLE t (n INT, dt STRING) PARTITIONED BY (dt) WITH ('connector' = 'sluice', "
                                + "'target' = 'filesystem', 'path' = '" + out + "', 'format' = 'csv', "
                                + "'sink.partition-commit.policy.kind' = 'success-file', "
                                + "'sink.partition-commit.trigger' = 'partition-time');",
                        "INSERT INTO t VALUES (1, 'not-a-date');"),
                StandardCharsets.UTF_8);

        long start = System.nanoTime();
        Run run = sluice(
                Collections.singletonMap("SLUICE_LOG_DIR", tmp.resolve("log").toString()),
                SQL_TIMEOUT,
                "sql",
                "-f",
                script.toString());
        long seconds = Duration.ofNanos(System.nanoTime() - start).toSeconds();

        assertThat(run.exitCode).as(run.describe()).isEqualTo(1);
        assertThat(run.firstErrorLine())
                .as(run.describe())
                .startsWith("[ERROR] Partition 'dt=not-a-date' has no time for 'sink.partition-commit.trigger'")
                .contains("'partition.time-extractor.timestamp-formatter'");
        assertNoStackTrace(run);
        assertThat(seconds).as("seconds until bin/sluice ended").isLessThan(120);
        assertThat(out.resolve("dt=not-a-date").resolve("_SUCCESS")).doesNotExist();
    }

    @Test
    @Tag("both-lines")
    void pluginsThatCannotServeFailWithExitCode1NamingWhy() throws Exception {
        Path plugins = tmp.resolve("plugins");
        copyTree(dist.resolve("sluice-plugins"), plugins);
        // a second copy of the filesystem plugin under another id: every extension name clashes
        copyTree(plugins.resolve("filesystem"), plugins.resolve("filesystem-fork"));
        Path descriptor = plugins.resolve("filesystem-fork/plugin.properties");
        Files.write(
                descriptor,
                read(descriptor.toFile())
                        .replaceAll("plugin.id=.*", "plugin.id=filesystem-fork")
                        .getBytes(StandardCharsets.UTF_8));
        // issue 31: a folder with a descriptor and no jar, and a version PF4J cannot compare, were LOADED
        Path hollow = Files.createDirectories(plugins.resolve("hollow"));
        Files.write(
                hollow.resolve("plugin.properties"),
                read(descriptor.toFile())
                        .replaceAll("plugin.id=.*", "plugin.id=hollow")
                        .getBytes(StandardCharsets.UTF_8));
        copyTree(plugins.resolve("formats"), plugins.resolve("odd"));
        Path oddDescriptor = plugins.resolve("odd/plugin.properties");
        Files.write(
                oddDescriptor,
                read(oddDescriptor.toFile())
                        .replaceAll("plugin.id=.*", "plugin.id=odd")
                        .replaceAll("plugin.version=.*", "plugin.version=one.two")
                        .getBytes(StandardCharsets.UTF_8));
        Map<String, String> env = new java.util.HashMap<>();
        env.put("SLUICE_PLUGINS_DIR", plugins.toString());
        env.put("SLUICE_JAVA_OPTS", "-Dsluice.plugins.enabled=formats,filesystem,filesystem-fork,nope,hollow,odd");

        Run run = sluice(env, PLUGINS_TIMEOUT, "plugins");

        assertThat(run.exitCode).as(run.describe()).isEqualTo(1);
        assertThat(run.block("filesystem"))
                .containsPattern("status:\\s+FAILED")
                .contains("TargetFactory 'filesystem' is offered by plugin filesystem-fork too");
        assertThat(run.block("filesystem-fork"))
                .containsPattern("status:\\s+FAILED")
                .contains("is offered by plugin filesystem too");
        assertThat(run.block("nope"))
                .containsPattern("status:\\s+FAILED")
                .contains("names plugin 'nope', which is not in")
                .contains("filesystem, filesystem-fork, formats");
        assertThat(run.block("hollow"))
                .containsPattern("status:\\s+FAILED")
                .contains("no jar in " + hollow.resolve("lib"));
        assertThat(run.block("odd"))
                .containsPattern("status:\\s+FAILED")
                .contains("malformed plugin.version 'one.two'");
        assertThat(run.block("formats")).containsPattern("status:\\s+LOADED");
    }

    @Test
    @Tag("both-lines")
    void aPluginWithATruncatedJarFailsWithExitCode1NamingTheJar() throws Exception {
        Path plugins = tmp.resolve("plugins");
        copyTree(dist.resolve("sluice-plugins"), plugins);
        Path jar;
        try (Stream<Path> jars = Files.list(plugins.resolve("filesystem/lib"))) {
            jar = jars.filter(p -> p.getFileName().toString().contains("filesystem"))
                    .findFirst()
                    .orElseThrow();
        }
        byte[] bytes = Files.readAllBytes(jar);
        Files.write(jar, Arrays.copyOf(bytes, bytes.length / 2));

        Run run =
                sluice(Collections.singletonMap("SLUICE_PLUGINS_DIR", plugins.toString()), PLUGINS_TIMEOUT, "plugins");

        assertThat(run.exitCode).as(run.describe()).isEqualTo(1);
        assertThat(run.block("filesystem"))
                .containsPattern("status:\\s+FAILED")
                .contains("corrupt jar")
                .contains(jar.getFileName().toString());
        assertThat(run.block("formats")).containsPattern("status:\\s+LOADED");
    }

    /** No line of a Java stack trace ("at pkg.Class.method(") anywhere in the command's output. */
    @Test
    @Tag("both-lines")
    void aMisspeltKeywordIsNamedWithItsLine() throws Exception {
        Path script = tmp.resolve("typo.sql");
        Files.write(
                script,
                List.of("SET 'execution.runtime-mode' = 'batch';", "", "-- a typo", "SELEC 1;", "SHOW TABLES;"),
                StandardCharsets.UTF_8);

        Run run = sluice(
                Map.of("SLUICE_LOG_DIR", tmp.resolve("log").toString()), SQL_TIMEOUT, "sql", "-f", script.toString());

        assertThat(run.exitCode).as(run.describe()).isEqualTo(1);
        assertThat(run.firstErrorLine())
                .as(run.describe())
                .startsWith("[ERROR] Line 4: 'SELEC' does not start a statement Sluice knows");
        assertNoStackTrace(run);
        assertThat(run.stdout).as("nothing runs after the failed statement").doesNotContain("[3]");
    }

    /**
     * Hive's metastore client puts the thrift failure's whole stack trace into its message; the
     * console shows the message without it (the log and -v have it).
     */
    @Test
    @Tag("both-lines")
    void anUnreachableIcebergHiveMetastoreIsAShortErrorNamingItsUri() throws Exception {
        String uri = "thrift://127.0.0.1:1";
        Path script = tmp.resolve("unreachable.sql");
        Files.write(
                script,
                List.of(
                        "SET 'execution.runtime-mode' = 'batch';",
                        "CREATE TABLE lost (id BIGINT) WITH ('connector' = 'sluice', 'target' = 'iceberg',"
                                + " 'catalog-type' = 'hive', 'uri' = '" + uri + "', 'catalog-table' = 'lost');",
                        "INSERT INTO lost VALUES (1);"),
                StandardCharsets.UTF_8);
        Path logDir = tmp.resolve("log");

        Run run = sluice(Map.of("SLUICE_LOG_DIR", logDir.toString()), SQL_TIMEOUT, "sql", "-f", script.toString());

        assertThat(run.exitCode).as(run.describe()).isEqualTo(1);
        assertThat(run.firstErrorLine()).as(run.describe()).contains(uri);
        assertNoStackTrace(run);
        assertThat(run.stderr.split("\\R")).as(run.describe()).hasSizeLessThan(15);
        assertThat(read(logDir.resolve("sluice.log").toFile())).containsPattern("\\n\\s+at org\\.apache\\.thrift\\.");
    }

    /** The CREATE CATALOG statement of an embedded Hive metastore in {@code dir}. */
    private static String hiveCatalog(Path dir) {
        return "CREATE CATALOG h WITH ('type' = 'sluice', 'target' = 'hive', 'metastore' = 'embedded',"
                + " 'metastore.dir' = '" + dir + "');";
    }

    /**
     * A Hive statement's console shows Sluice's output only (what DataNucleus and Derby say goes to
     * the log file), and an INSERT into a hive catalog's table lists the files it committed under
     * the table's location, as for a table with a path.
     */
    @Test
    void aHiveInsertListsTheFilesItCommittedAndTheConsoleHasNoMetastoreLines() throws Exception {
        Path metastore = tmp.resolve("metastore");
        Path script = tmp.resolve("hive.sql");
        Files.write(
                script,
                List.of(
                        "SET 'execution.runtime-mode' = 'batch';",
                        hiveCatalog(metastore),
                        "CREATE DATABASE h.db;",
                        "CREATE TABLE h.db.t (id BIGINT, dt STRING) PARTITIONED BY (dt)"
                                + " WITH ('hive.storage.file-format' = 'parquet');",
                        "INSERT INTO h.db.t /*+ OPTIONS('sink.partition-commit.policy.kind' = 'metastore') */"
                                + " VALUES (1, 'a'), (2, 'b');",
                        "SELECT COUNT(*) AS n FROM h.db.t;"),
                StandardCharsets.UTF_8);
        Path logDir = tmp.resolve("log");

        Run run = sluice(Map.of("SLUICE_LOG_DIR", logDir.toString()), SQL_TIMEOUT, "sql", "-f", script.toString());

        assertThat(run.exitCode).as(run.describe()).isZero();
        assertThat(run.stderr).as(run.describe()).isEmpty();
        assertThat(run.stdout)
                .as(run.describe())
                .doesNotContainIgnoringCase("datanucleus")
                .doesNotContainIgnoringCase("derby")
                .doesNotContain("WARNING:");
        // what DataNucleus said is in the log file instead
        assertThat(read(logDir.resolve("sluice.log").toFile())).contains("datanucleus");

        Path table = metastore.resolve("warehouse/db.db/t");
        List<String> committed = new ArrayList<>();
        for (String partition : List.of("dt=a", "dt=b")) {
            for (Path file : visibleFiles(table.resolve(partition))) {
                committed.add(partition + "/" + file.getFileName());
            }
        }
        assertThat(committed).hasSize(2);
        assertThat(run.stdout).contains("Committed to h.db.t (path ").contains(committed);
    }

    /**
     * A second process on the metastore directory of a running one: Derby opens a database in
     * one process at a time. The second run prints no lock traces: it either succeeds or fails
     * with one line naming the directory, and the first run's job goes on.
     */
    @Test
    void aSecondRunOnAMetastoreDirectoryInUseSaysSoInOneLine() throws Exception {
        Path metastore = tmp.resolve("metastore");
        Path endless = tmp.resolve("endless.sql");
        Files.write(
                endless,
                List.of(
                        "SET 'execution.checkpointing.interval' = '1 s';",
                        hiveCatalog(metastore),
                        "CREATE DATABASE h.db;",
                        "CREATE TABLE h.db.t (n INT, dt STRING) PARTITIONED BY (dt)"
                                + " WITH ('hive.storage.file-format' = 'parquet');",
                        "CREATE TEMPORARY TABLE numbers (n INT) WITH ('connector' = 'datagen', 'rows-per-second' = '10');",
                        "INSERT INTO h.db.t /*+ OPTIONS('sink.partition-commit.policy.kind' = 'metastore') */"
                                + " SELECT n, 'a' FROM numbers;"),
                StandardCharsets.UTF_8);
        Path second = tmp.resolve("second.sql");
        Files.write(
                second, List.of(hiveCatalog(metastore), "USE CATALOG h;", "SHOW DATABASES;"), StandardCharsets.UTF_8);

        Path logs = Files.createTempDirectory(tmp, "run");
        ProcessBuilder builder = new ProcessBuilder(
                        dist.resolve("bin/sluice").toString(), "sql", "-f", endless.toString())
                .directory(tmp.toFile())
                .redirectOutput(logs.resolve("stdout").toFile())
                .redirectError(logs.resolve("stderr").toFile());
        asAUserRunsIt(builder, Map.of());
        Process first = builder.start();
        try {
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
            while (!read(logs.resolve("stdout").toFile()).contains(" RUNNING, ")) {
                assertThat(first.isAlive())
                        .as(
                                "the first run ended: %s",
                                read(logs.resolve("stderr").toFile()))
                        .isTrue();
                assertThat(System.nanoTime())
                        .as("no progress line within 3 minutes")
                        .isLessThan(deadline);
                Thread.sleep(200);
            }

            Run run = sluice(
                    Map.of("SLUICE_LOG_DIR", tmp.resolve("log").toString()),
                    SQL_TIMEOUT,
                    "sql",
                    "-f",
                    second.toString());

            assertThat(run.stderr + run.stdout)
                    .as(run.describe())
                    .doesNotContain("SEVERE")
                    .doesNotContain("Another instance of Derby");
            assertNoStackTrace(run);
            if (run.exitCode != 0) {
                assertThat(run.firstErrorLine())
                        .as(run.describe())
                        .startsWith("[ERROR] ")
                        .contains(metastore.toString())
                        .contains("in use by another process");
            } else {
                assertThat(run.stdout).contains("db");
            }
            assertThat(first.isAlive()).as("the first run goes on").isTrue();
            assertThat(read(logs.resolve("stderr").toFile())).isEmpty();
        } finally {
            first.destroy();
            first.waitFor(2, TimeUnit.MINUTES);
        }
    }

    private static void assertNoStackTrace(Run run) {
        assertThat(run.stdout + run.stderr)
                .as(run.describe())
                .doesNotContainPattern("(?m)^\\s+at [\\w.$]+\\(")
                .doesNotContain("Caused by:");
    }

    /**
     * The quickstart on S3 as the README tells it: Flink's S3 plugin in its own folder, the s3.*
     * keys in config.yaml (as an operator sets up a cluster), and the one change to the command,
     * {@code -D lake=s3://bucket/quickstart} taken from the README's command line (the bucket's
     * name replaced): the filesystem target's two tables and the Hive table's location on {@code
     * s3://}, which {@code flink-s3-fs-hadoop} serves as it serves {@code s3a://}. Everything it
     * writes is read back from the store by the AWS SDK's client and parquet-java.
     */
    @Test
    void theQuickstartRunsOnS3WithOneDefinition() throws Exception {
        Path flinkPlugins = FlinkS3FileSystem.pluginsDirectory(tmp.resolve("flink-plugins"), FlinkS3FileSystem.HADOOP);
        Path conf = Files.createDirectories(tmp.resolve("conf"));
        copyTree(dist.resolve("conf"), conf);
        StringBuilder yaml = new StringBuilder();
        S3.flinkConfig().forEach((k, v) -> yaml.append(k).append(": ").append(v).append('\n'));
        Files.writeString(conf.resolve("config.yaml"), yaml.toString());

        Run run = sluice(
                Map.of("FLINK_PLUGINS_DIR", flinkPlugins.toString(), "SLUICE_CONF_DIR", conf.toString()),
                SQL_TIMEOUT,
                "sql",
                "-f",
                dist.resolve("examples/quickstart.sql").toString(),
                "-D",
                readmesQuickstartLake().replace("://bucket/", "://cli-lake/"),
                "-D",
                "metastore=" + tmp.resolve("hive-metastore"));

        assertThat(run.exitCode).as(run.describe()).isZero();
        assertThat(run.stdout)
                .contains("Committed to default_catalog.default_database.orders_parquet")
                .contains("Committed to default_catalog.default_database.orders_csv")
                .contains("Done:");
        Path copy = S3.download("cli-lake", "quickstart/", tmp.resolve("copy"));
        TreeSet<Long> all = LongStream.rangeClosed(1, 5000).boxed().collect(Collectors.toCollection(TreeSet::new));
        List<Long> parquet = CommittedFiles.parquet(copy.resolve("orders_parquet"), g -> g.getLong("order_id", 0));
        assertThat(parquet).hasSize(5000);
        assertThat(new TreeSet<>(parquet)).isEqualTo(all);
        assertThat(CommittedFiles.named(copy.resolve("orders_parquet"), "_SUCCESS"))
                .hasSize(3);
        List<String> csv = CommittedFiles.lines(copy.resolve("orders_csv"));
        assertThat(csv).hasSize(5000);
        TreeSet<Long> csvIds = csv.stream()
                .map(l -> Long.parseLong(l.substring(0, l.indexOf(','))))
                .collect(Collectors.toCollection(TreeSet::new));
        assertThat(csvIds).isEqualTo(all);
        // the Hive table's files are in the bucket, its metastore local; SHOW PARTITIONS lists them
        List<Long> hive = CommittedFiles.parquet(copy.resolve("hive/orders"), g -> g.getLong("order_id", 0));
        assertThat(hive).hasSize(5000);
        assertThat(new TreeSet<>(hive)).isEqualTo(all);
        assertThat(run.stdout).containsPattern("\\|\\s+dt=2024-06-01 \\|").containsPattern("\\|\\s+dt=2024-06-03 \\|");
        assertThat(S3.openUploads("cli-lake")).isEmpty();
        // the secret of config.yaml is on no console
        assertThat(run.stdout + run.stderr).doesNotContain(S3Server.SECRET_KEY);
    }

    /** The {@code lake=...} of the README's command that runs the quickstart on S3. */
    private static String readmesQuickstartLake() throws IOException {
        String command = "bin/sluice sql -f examples/quickstart.sql -D ";
        List<String> lakes = Files.readAllLines(Paths.get(System.getProperty("sluice.test.reactor"))
                        .resolve("docs")
                        .resolve("storage.md"))
                .stream()
                .filter(line -> line.startsWith(command + "lake="))
                .map(line -> line.substring(command.length()).trim())
                .collect(Collectors.toList());
        assertThat(lakes).as("the storage page's quickstart command on S3").hasSize(1);
        assertThat(lakes.get(0)).startsWith("lake=s3://bucket/");
        return lakes.get(0);
    }

    // ---------------------------------------------------------------------------------------------

    /**
     * The environment of a {@code bin/sluice} run: the test JVM's Java, no plugins directory but
     * the installation's, then {@code env}. The JVM runs with the client compiler only (in front of
     * any {@code SLUICE_JAVA_OPTS} of {@code env}): each run lives seconds, and the optimizing
     * compiler's threads would only take the cores the other test JVM uses; it changes no output.
     */
    private static void asAUserRunsIt(ProcessBuilder builder, Map<String, String> env) {
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        builder.environment().remove("SLUICE_PLUGINS_DIR");
        builder.environment().putAll(env);
        builder.environment()
                .put(
                        "SLUICE_JAVA_OPTS",
                        ("-XX:TieredStopAtLevel=1 " + env.getOrDefault("SLUICE_JAVA_OPTS", "")).trim());
    }

    /** Runs bin/sluice with the test JVM's Java and waits for it. */
    private Run sluice(Map<String, String> env, Duration timeout, String... args) throws Exception {
        return sluice(dist, env, timeout, args);
    }

    /** Runs bin/sluice of the installation at {@code home}. */
    private Run sluice(Path home, Map<String, String> env, Duration timeout, String... args) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(home.resolve("bin/sluice").toString());
        command.addAll(Arrays.asList(args));
        Path logs = Files.createTempDirectory(tmp, "run");
        File stdout = logs.resolve("stdout").toFile();
        File stderr = logs.resolve("stderr").toFile();
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(tmp.toFile())
                .redirectOutput(stdout)
                .redirectError(stderr);
        asAUserRunsIt(builder, env);
        Process process = builder.start();
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            fail("bin/sluice " + String.join(" ", args) + " did not end within " + timeout + "\n"
                    + new Run(-1, read(stdout), read(stderr)).describe());
        }
        return new Run(process.exitValue(), read(stdout), read(stderr));
    }

    private static String read(File file) throws IOException {
        return new String(Files.readAllBytes(file.toPath()), StandardCharsets.UTF_8);
    }

    private static List<String> names(Path dir) throws IOException {
        try (Stream<Path> children = Files.list(dir)) {
            return children.map(p -> p.getFileName().toString())
                    .filter(n -> !n.startsWith(".") && !n.startsWith("_"))
                    .sorted()
                    .collect(Collectors.toList());
        }
    }

    /** Files a reader sees: no hidden or underscore names (in-progress files, markers). */
    private static List<Path> visibleFiles(Path dir) throws IOException {
        try (Stream<Path> children = Files.list(dir)) {
            return children.filter(Files::isRegularFile)
                    .filter(p -> !p.getFileName().toString().startsWith(".")
                            && !p.getFileName().toString().startsWith("_"))
                    .sorted()
                    .collect(Collectors.toList());
        }
    }

    private static Stream<String> lines(Path file) {
        try {
            return Files.readAllLines(file, StandardCharsets.UTF_8).stream();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Records of a Parquet file, read by the test's own Parquet, not the plugin's. */
    private static long parquetRecords(Path file) throws IOException {
        try (ParquetFileReader reader = ParquetFileReader.open(
                HadoopInputFile.fromPath(new org.apache.hadoop.fs.Path(file.toUri()), new Configuration()))) {
            return reader.getRecordCount();
        }
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> paths = Files.walk(from)) {
            for (Path source : (Iterable<Path>) paths::iterator) {
                Path target = to.resolve(from.relativize(source).toString());
                if (Files.isDirectory(source)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(source, target, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }

    /** The outcome of one bin/sluice run. */
    private static final class Run {
        final int exitCode;
        final String stdout;
        final String stderr;

        Run(int exitCode, String stdout, String stderr) {
            this.exitCode = exitCode;
            this.stdout = stdout;
            this.stderr = stderr;
        }

        /** The block `sluice plugins` printed for one plugin: from its id line to the next blank line. */
        String block(String pluginId) {
            for (String block : stdout.split("\\R\\s*\\R")) {
                String trimmed = block.replaceFirst("^\\s+", "");
                if (trimmed.startsWith(pluginId + System.lineSeparator()) || trimmed.startsWith(pluginId + "\n")) {
                    return trimmed;
                }
            }
            return fail("no block for plugin '" + pluginId + "' in:\n" + describe());
        }

        /** The first line the command wrote to stderr. */
        String firstErrorLine() {
            return stderr.split("\\R", 2)[0];
        }

        String describe() {
            return "exit code " + exitCode + "\n--- stdout ---\n" + stdout + "\n--- stderr ---\n" + stderr;
        }
    }
}

package io.sluice.plugin.iceberg.it;

import io.sluice.runtime.sink.SinkDescriptor;
import io.sluice.runtime.sink.SinkValidation;
import io.sluice.runtime.sink.SluiceSink;
import io.sluice.testservers.hive.StandaloneMetastore;

import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.hadoop.hive.conf.HiveConf;
import org.apache.hadoop.hive.metastore.HiveMetaStoreClient;
import org.apache.hadoop.hive.metastore.api.LockState;
import org.apache.hadoop.hive.metastore.api.ShowLocksRequest;
import org.apache.hadoop.hive.metastore.api.ShowLocksResponseElement;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hive.HiveCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A committer killed while it holds Iceberg's metastore lock ({@code HiveTableOperations} commits
 * under an exclusive table lock in the metastore's {@code HIVE_LOCKS}): nothing releases that lock
 * but the metastore's housekeeping, which deletes a lock whose holder stopped heartbeating for
 * {@code metastore.txn.timeout}; a Sluice job's next commit must then succeed, with every row
 * exactly once.
 *
 * <p>The killed holder is a JVM of its own ({@link PausedHiveCommit}): Iceberg's own Hive catalog
 * in the middle of a real commit, paused right after it took the lock, its heartbeat thread
 * keeping the lock alive, killed with SIGKILL ({@code kill -9}: {@link Process#destroyForcibly()}
 * on Linux). Not a Flink TaskManager: the standalone cluster of separate processes the
 * distribution's tests start needs the built distribution, which this module cannot depend on;
 * what the metastore sees (the lock, its heartbeats, a client that stops without a word) is the
 * same.
 *
 * <p>The metastore is Hive 3.1.3's, a separate process, with its housekeeping on and short
 * timeouts: {@code metastore.txn.timeout} {@value #TXN_TIMEOUT_S} s, the reaper every {@value
 * #REAPER_INTERVAL_S} s (Hive 3.1 runs its housekeeping, lock expiry included, only on a
 * metastore with {@code metastore.compactor.initiator.on}). The Sluice job gets Iceberg's lock
 * settings the way an operator gives them, in the {@code hive-site.xml} of its {@code
 * hive-conf-dir}: a lock wait of {@value #LOCK_TIMEOUT_MS} ms (so it times out while the dead lock
 * is still there, and Iceberg's commit retries, or the job's restart, take the commit up again),
 * heartbeats every {@value #HEARTBEAT_MS} ms (less than the metastore's timeout, as Iceberg asks).
 *
 * <p>Checked on the metastore and the table: a live holder's lock survives the timeout; the job's
 * commit waits behind it and nothing of the job is visible while the holder lives; after the kill
 * the job finishes within {@value #BOUND_S} s; its lock requests timed out more than once (the
 * {@code hive-conf-dir} setting reached Iceberg); every id is in the table exactly once (Iceberg's
 * generic reader of the test class path), each checkpoint committed once; the dead commit's
 * property was never committed; no lock is left on the table.
 */
class IcebergKilledLockHolderIT {

    private static final long TXN_TIMEOUT_S = 5;
    private static final long REAPER_INTERVAL_S = 1;
    private static final long LOCK_TIMEOUT_MS = 2000;
    private static final long HEARTBEAT_MS = 1000;
    /** How long the job may take to finish once the holder is dead. */
    private static final long BOUND_S = 45;

    private static final long ROWS = 4_000;
    private static final String DATABASE = "db";
    private static final String TABLE = "numbers";

    @RegisterExtension
    @Order(1)
    static final StandaloneMetastore METASTORE = new StandaloneMetastore()
            .withServerProperties(IcebergKilledLockHolderIT::housekeeping)
            .withTransactionTables();

    @RegisterExtension
    @Order(2)
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(4)
                    .build());

    private static final RowType ROW = RowType.of(new LogicalType[] {new BigIntType(false)}, new String[] {"id"});

    @TempDir
    Path tmp;

    private Process holder;
    /** Hive's client of the test class path, the independent view of the metastore's locks. */
    private HiveMetaStoreClient lockViewer;
    /** Iceberg's Hive catalog of the test class path, the independent writer and reader. */
    private HiveCatalog catalog;

    /** The metastore's lock expiry, short: on, its timeout and its reaper's interval. */
    static Map<String, String> housekeeping() {
        Map<String, String> settings = new TreeMap<>();
        settings.put("metastore.compactor.initiator.on", "true");
        // of the housekeeping tasks, only the one that times out transactions and locks
        settings.put("metastore.task.threads.remote", "org.apache.hadoop.hive.metastore.txn.AcidHouseKeeperService");
        settings.put("metastore.txn.timeout", TXN_TIMEOUT_S + "s");
        settings.put("metastore.timedout.txn.reaper.interval", REAPER_INTERVAL_S + "s");
        return settings;
    }

    @BeforeAll
    static void onlyAfterPackaging() {
        TestPluginsDir.assumeIntegrationTestPhase();
    }

    @AfterEach
    void killHolderAndCloseClients() throws Exception {
        if (holder != null) {
            holder.destroyForcibly();
            holder.waitFor(30, TimeUnit.SECONDS);
        }
        if (lockViewer != null) {
            lockViewer.close();
        }
        if (catalog != null) {
            catalog.close();
        }
    }

    @Test
    void nextCommitSucceedsOnceTheDeadHoldersLockExpires() throws Exception {
        catalog = testCatalog();
        catalog.createNamespace(Namespace.of(DATABASE));
        TableIdentifier id = TableIdentifier.of(DATABASE, TABLE);
        catalog.createTable(
                id,
                new Schema(Types.NestedField.required(1, "id", Types.LongType.get())),
                PartitionSpec.unpartitioned());

        Path holderLog = tmp.resolve("holder.log");
        long holderStartedAt = System.nanoTime();
        holder = startHolder(holderLog);
        awaitLine(holderLog, PausedHiveCommit.PAUSED, 120);
        List<ShowLocksResponseElement> held = locks();
        assertThat(held).hasSize(1);
        assertThat(held.get(0).getState()).isEqualTo(LockState.ACQUIRED);
        long heldId = held.get(0).getLockid();

        long pausedAt = System.nanoTime();

        // the job's commit waits behind the live holder, whose heartbeats keep its lock beyond the
        // metastore's timeout
        JobClient job = startJob();
        Set<Long> jobLocks = new TreeSet<>();
        long outlived = pausedAt + TimeUnit.SECONDS.toNanos(TXN_TIMEOUT_S + 2 * REAPER_INTERVAL_S) + 500_000_000L;
        long deadline = pausedAt + TimeUnit.SECONDS.toNanos(90);
        while (jobLocks.isEmpty() || System.nanoTime() < outlived) {
            assertThat(System.nanoTime())
                    .as("the job's commit asked for the lock")
                    .isLessThan(deadline);
            List<ShowLocksResponseElement> locks = locks();
            assertThat(locks)
                    .as("the live holder's lock")
                    .anyMatch(l -> l.getLockid() == heldId && l.getState() == LockState.ACQUIRED);
            for (ShowLocksResponseElement lock : locks) {
                if (lock.getLockid() != heldId) {
                    assertThat(lock.getState()).isEqualTo(LockState.WAITING);
                    jobLocks.add(lock.getLockid());
                }
            }
            Thread.sleep(50);
        }
        assertThat(catalog.loadTable(id).snapshots())
                .as("nothing committed behind the lock")
                .isEmpty();

        long killedAt = System.nanoTime();
        holder.destroyForcibly(); // SIGKILL: no finally block, no unlock, no last heartbeat
        assertThat(holder.waitFor(30, TimeUnit.SECONDS)).isTrue();

        // the job's lock requests, watched until it ends
        long bound = killedAt + TimeUnit.SECONDS.toNanos(BOUND_S);
        while (!job.getJobStatus().get().isGloballyTerminalState()) {
            assertThat(System.nanoTime())
                    .as("the job finished within %d s of the kill", BOUND_S)
                    .isLessThan(bound);
            for (ShowLocksResponseElement lock : locks()) {
                if (lock.getLockid() != heldId) {
                    jobLocks.add(lock.getLockid());
                }
            }
            Thread.sleep(50);
        }
        JobExecutionResult result = job.getJobExecutionResult().get(10, TimeUnit.SECONDS);
        long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - killedAt);
        System.out.printf(
                "The holder paused inside its commit %d s after its start and was killed %d s later; the job"
                        + " finished %d s after the kill, its commit having asked for the lock %d times%n",
                TimeUnit.NANOSECONDS.toSeconds(pausedAt - holderStartedAt),
                TimeUnit.NANOSECONDS.toSeconds(killedAt - pausedAt),
                seconds,
                jobLocks.size());

        assertThat(jobLocks)
                .as("the job's lock waits timed out after %d ms and were asked again", LOCK_TIMEOUT_MS)
                .hasSizeGreaterThan(1);
        Table table = catalog.loadTable(id);
        List<Long> ids = IcebergTables.records(table).stream()
                .map(r -> (Long) r.getField("id"))
                .sorted()
                .collect(Collectors.toList());
        List<Long> expected = new ArrayList<>();
        for (long i = 1; i <= ROWS; i++) {
            expected.add(i);
        }
        assertThat(ids).as("every id exactly once").isEqualTo(expected);
        List<Snapshot> snapshots = IcebergTables.snapshots(table);
        assertThat(snapshots)
                .allSatisfy(s -> assertThat(s.summary())
                        .containsEntry("flink.job-id", result.getJobID().toHexString()));
        assertThat(snapshots.stream().map(s -> s.summary().get("flink.max-committed-checkpoint-id")))
                .as("each checkpoint committed once")
                .doesNotHaveDuplicates();
        assertThat(table.properties()).doesNotContainKey(PausedHiveCommit.PROPERTY);
        assertThat(locks()).as("no lock left on the table").isEmpty();
    }

    /** Iceberg's Hive catalog of the test class path, the independent writer and reader. */
    private static HiveCatalog testCatalog() {
        HiveCatalog catalog = new HiveCatalog();
        catalog.setConf(new org.apache.hadoop.conf.Configuration());
        catalog.initialize(
                "test",
                Map.of(
                        "uri",
                        METASTORE.uri(),
                        "warehouse",
                        METASTORE.warehouse().toUri().toString()));
        return catalog;
    }

    /** The locks the metastore holds on the table, by Hive's client of the test class path. */
    private List<ShowLocksResponseElement> locks() throws Exception {
        if (lockViewer == null) {
            HiveConf conf = new HiveConf();
            conf.set("hive.metastore.uris", METASTORE.uri());
            lockViewer = new HiveMetaStoreClient(conf);
        }
        ShowLocksRequest request = new ShowLocksRequest();
        request.setDbname(DATABASE);
        request.setTablename(TABLE);
        List<ShowLocksResponseElement> locks = lockViewer.showLocks(request).getLocks();
        return locks == null ? List.of() : locks;
    }

    /** {@link PausedHiveCommit} in a JVM of its own, on this JVM's class path. */
    private Process startHolder(Path log) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx256m");
        command.add("-XX:+UseSerialGC");
        for (String option : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (option.startsWith("--add-opens") || option.startsWith("--add-exports")) {
                command.add(option);
            }
        }
        command.add("-Djava.io.tmpdir=" + Files.createDirectories(tmp.resolve("holder-tmp")));
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(PausedHiveCommit.class.getName());
        command.add(METASTORE.uri());
        command.add(METASTORE.warehouse().toUri().toString());
        command.add(DATABASE);
        command.add(TABLE);
        command.add(Long.toString(HEARTBEAT_MS));
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(tmp.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        builder.environment().remove("HADOOP_CONF_DIR");
        builder.environment().remove("HIVE_CONF_DIR");
        return builder.start();
    }

    private void awaitLine(Path log, String line, long seconds) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < deadline) {
            if (Files.exists(log)
                    && Files.readAllLines(log, StandardCharsets.ISO_8859_1).contains(line)) {
                return;
            }
            if (!holder.isAlive()) {
                break;
            }
            Thread.sleep(100);
        }
        String text = Files.exists(log) ? Files.readString(log, StandardCharsets.ISO_8859_1) : "(no output)";
        throw new AssertionError("The lock holder never paused inside its commit (alive: " + holder.isAlive()
                + "); its output:\n" + (text.length() > 20_000 ? text.substring(text.length() - 20_000) : text));
    }

    /**
     * The ids {@code 1..ROWS} into the table, STREAMING, 200 ms checkpoints, through the iceberg
     * target on the {@code hive} catalog whose {@code hive-conf-dir} carries Iceberg's lock settings.
     */
    private JobClient startJob() throws Exception {
        Path hiveConf = Files.createDirectories(tmp.resolve("hive-conf"));
        Map<String, String> site = new TreeMap<>();
        site.put("hive.metastore.uris", METASTORE.uri());
        site.put("iceberg.hive.lock-timeout-ms", Long.toString(LOCK_TIMEOUT_MS));
        site.put("iceberg.hive.lock-check-min-wait-ms", "50");
        site.put("iceberg.hive.lock-check-max-wait-ms", "500");
        site.put("iceberg.hive.lock-heartbeat-interval-ms", Long.toString(HEARTBEAT_MS));
        StringBuilder xml = new StringBuilder("<?xml version=\"1.0\"?>\n<configuration>\n");
        site.forEach((k, v) -> xml.append("  <property><name>")
                .append(k)
                .append("</name><value>")
                .append(v)
                .append("</value></property>\n"));
        Files.writeString(hiveConf.resolve("hive-site.xml"), xml.append("</configuration>\n"));

        Map<String, String> options = new HashMap<>();
        options.put("sluice.plugins.dir", TestPluginsDir.get().toString());
        options.put("target", "iceberg");
        options.put("catalog-type", "hive");
        options.put("hive-conf-dir", hiveConf.toString());
        options.put("catalog-database", DATABASE);
        options.put("catalog-table", TABLE);
        SinkDescriptor descriptor = SinkDescriptor.resolve(options, ROW, List.of());
        SinkValidation.validate(descriptor);

        Configuration conf = new Configuration();
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 20);
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, java.time.Duration.ofMillis(500));
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(2);
        env.enableCheckpointing(200);
        DataGeneratorSource<RowData> source = new DataGeneratorSource<>(
                i -> GenericRowData.of(i + 1), ROWS, RateLimiterStrategy.perSecond(2000), InternalTypeInfo.of(ROW));
        env.fromSource(source, WatermarkStrategy.noWatermarks(), "ids").sinkTo(SluiceSink.of(descriptor));
        return env.executeAsync("iceberg commit after a killed lock holder");
    }
}

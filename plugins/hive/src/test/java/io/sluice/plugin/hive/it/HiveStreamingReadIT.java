package io.sluice.plugin.hive.it;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.functions.ScalarFunction;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Streaming reads of Hive tables ({@code streaming-source.enable}): a job follows a table while
 * another job adds partitions to it (or files, to an unpartitioned table), in each of the three
 * partition orders and from a start offset, and a task fails once mid-way. The rows come out of a
 * checkpointed collect, so a restore that read a partition again or skipped one shows as a
 * duplicate or a missing row. The schedule (formats, parallelism, partitions, rows, delays, the
 * failing row) is drawn from a printed seed; {@code -Dsluice.seed=...} replays one.
 */
class HiveStreamingReadIT {

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(4)
                    .build());

    private static final LocalDate FIRST_DAY = LocalDate.of(2026, 11, 1);
    private static final DateTimeFormatter SECONDS = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

    /** Threads of their own: the common pool may have one thread on a small machine, and the two block. */
    private static final java.util.concurrent.ExecutorService THREADS =
            java.util.concurrent.Executors.newCachedThreadPool();

    @TempDir
    Path tmp;

    @BeforeAll
    static void onlyAfterPackaging() {
        HivePluginDir.assumeIntegrationTestPhase();
    }

    @Test
    void followsNewPartitionsInNameOrderFromAStartPartition() throws Exception {
        follow("partition-name");
    }

    @Test
    void followsNewPartitionsInPartitionTimeOrderFromAStartTime() throws Exception {
        follow("partition-time");
    }

    @Test
    void followsNewPartitionsInCreateTimeOrderFromAStartTime() throws Exception {
        follow("create-time");
    }

    @Test
    void followsNewFilesOfAnUnpartitionedTable() throws Exception {
        long seed = seed();
        Random random = new Random(seed);
        TableEnvironment writer = batch(tmp.resolve("metastore"));
        String format = random.nextBoolean() ? "parquet" : "orc";
        writer.executeSql("CREATE TABLE h.db.u (id BIGINT, name STRING) WITH ('hive.storage.file-format' = '" + format
                + "', 'streaming-source.enable' = 'true', 'streaming-source.monitor-interval' = '1 s')");
        List<String> expected = new ArrayList<>();
        long nextId = 0;
        nextId = insert(writer, "h.db.u", null, nextId, 1 + random.nextInt(20), expected);

        int inserts = 3 + random.nextInt(3);
        List<Integer> sizes = new ArrayList<>();
        for (int i = 0; i < inserts; i++) {
            sizes.add(1 + random.nextInt(40));
        }
        FailOnce.arm(nextId + random.nextInt(sizes.get(0)));
        long firstLater = nextId;
        TableEnvironment reader = streaming(tmp.resolve("metastore"), 1 + random.nextInt(3));
        TableResult result = reader.executeSql("SELECT id, name FROM h.db.u WHERE fail_once(id)");
        int total = expected.size() + sizes.stream().mapToInt(Integer::intValue).sum();
        Writes adding = () -> {
            long id = firstLater;
            for (int size : sizes) {
                Thread.sleep(200 + random.nextInt(1200));
                id = insert(writer, "h.db.u", null, id, size, expected);
            }
        };
        List<String> read = read(result, total, adding);
        assertThat(read).as("seed %s", seed).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(FailOnce.failed())
                .as("the injected failure happened (seed %s)", seed)
                .isTrue();
    }

    /**
     * The page's hint, as written, on the page's {@code hive_table} (partitions of {@code dt} and
     * {@code hr}, its time in {@code '$dt $hr:00:00'}), ordered by partition time in its table
     * properties: the read starts at 2020-05-20 00:00, skips the partition of the day before, and
     * follows a partition added while it runs.
     */
    @Test
    void thePagesHintStartsAtADateAndFollowsNewPartitions() throws Exception {
        Path metastore = tmp.resolve("metastore-hint");
        TableEnvironment writer = batch(metastore);
        writer.executeSql("CREATE TABLE h.db.hive_table (user_id STRING, order_amount DOUBLE, dt STRING, hr STRING)"
                + " PARTITIONED BY (dt, hr) WITH ('hive.storage.file-format' = 'parquet',"
                + " 'sink.partition-commit.policy.kind' = 'metastore',"
                + " 'partition.time-extractor.timestamp-pattern' = '$dt $hr:00:00',"
                + " 'streaming-source.partition-order' = 'partition-time',"
                + " 'streaming-source.monitor-interval' = '1 s')");
        writer.executeSql("INSERT INTO h.db.hive_table VALUES ('u1', 1.5, '2020-05-19', '23'),"
                        + " ('u2', 2.5, '2020-05-20', '00'), ('u3', 3.5, '2020-05-20', '12')")
                .await();
        TableEnvironment reader = streaming(metastore, 1);
        reader.useCatalog("h");
        reader.useDatabase("db");
        TableResult result = reader.executeSql(
                "SELECT *\n"
                        + "FROM hive_table\n"
                        + "/*+ OPTIONS('streaming-source.enable'='true', 'streaming-source.consume-start-offset'='2020-05-20') */");
        List<String> read = read(result, 3, () -> {
            Thread.sleep(1500);
            writer.executeSql("INSERT INTO h.db.hive_table VALUES ('u4', 4.5, '2020-05-21', '08')")
                    .await();
        });
        assertThat(read)
                .containsExactlyInAnyOrder(
                        "+I[u2, 2.5, 2020-05-20, 00]", "+I[u3, 3.5, 2020-05-20, 12]", "+I[u4, 4.5, 2020-05-21, 08]");
    }

    /**
     * A streaming read filtered by a range and a {@code NOT IN} on the partition column skips the
     * partitions that cannot match, those there when it starts and those added while it runs:
     * each of them holds a file that is not Parquet, which would fail the job if it were read.
     */
    @Test
    void aRangeFilterSkipsPartitionsThatCannotMatch() throws Exception {
        Path metastore = tmp.resolve("metastore-filter");
        TableEnvironment writer = batch(metastore);
        // the broken files are in place before their partition is written: statistics would read them
        writer.getConfig().set("table.exec.hive.sink.statistic-auto-gather.enable", "false");
        writer.executeSql("CREATE TABLE h.db.f (id BIGINT, name STRING, dt STRING) PARTITIONED BY (dt) WITH ("
                + "'hive.storage.file-format' = 'parquet', 'sink.partition-commit.policy.kind' = 'metastore', "
                + "'streaming-source.enable' = 'true', 'streaming-source.monitor-interval' = '1 s')");
        Path table = metastore.resolve("warehouse/db.db/f");
        java.util.function.Predicate<String> matches =
                dt -> dt.compareTo("2026-11-03") >= 0 && !dt.equals("2026-11-07");
        List<String> expected = new ArrayList<>();
        List<String> ignored = new ArrayList<>();
        long nextId = 0;
        for (String dt : List.of("2026-11-01", "2026-11-05")) {
            brokenIfSkipped(table, dt, matches);
            nextId = insert(writer, "h.db.f", dt, nextId, 3, matches.test(dt) ? expected : ignored);
        }
        TableEnvironment reader = streaming(metastore, 2);
        TableResult result = reader.executeSql(
                "SELECT id, name, dt FROM h.db.f WHERE dt >= '2026-11-03' AND dt NOT IN ('2026-11-07')");
        long firstLater = nextId;
        List<String> later = List.of("2026-11-02", "2026-11-06", "2026-11-07", "2026-11-08");
        int total = expected.size() + 3 * (int) later.stream().filter(matches).count();
        List<String> read = read(result, total, () -> {
            long id = firstLater;
            for (String dt : later) {
                Thread.sleep(700);
                brokenIfSkipped(table, dt, matches);
                id = insert(writer, "h.db.f", dt, id, 3, matches.test(dt) ? expected : ignored);
            }
        });
        assertThat(read).hasSize(total).containsExactlyInAnyOrderElementsOf(expected);
    }

    /** A file that is not Parquet in the directory of partition {@code dt} if the filter skips it. */
    private static void brokenIfSkipped(Path table, String dt, java.util.function.Predicate<String> matches)
            throws Exception {
        if (!matches.test(dt)) {
            Path dir = java.nio.file.Files.createDirectories(table.resolve("dt=" + dt));
            java.nio.file.Files.writeString(dir.resolve("part-broken"), "not a parquet file");
        }
    }

    /**
     * Partitions of days; those before the start offset exist when the job starts and are not
     * read, the rest (some before the job starts, most while it runs) are read once each.
     */
    private void follow(String order) throws Exception {
        long seed = seed();
        Random random = new Random(seed);
        System.out.println("HiveStreamingReadIT " + order + ": seed " + seed);
        Path metastore = tmp.resolve("metastore");
        TableEnvironment writer = batch(metastore);
        String format = random.nextBoolean() ? "parquet" : "orc";
        writer.executeSql("CREATE TABLE h.db.t (id BIGINT, name STRING, dt STRING) PARTITIONED BY (dt) WITH ("
                + "'hive.storage.file-format' = '" + format + "', 'sink.partition-commit.policy.kind' = 'metastore', "
                + "'streaming-source.enable' = 'true', 'streaming-source.monitor-interval' = '1 s', "
                + "'streaming-source.partition-order' = '" + order + "', "
                + "'partition.time-extractor.timestamp-pattern' = '$dt 00:00:00')");
        List<String> skipped = new ArrayList<>();
        List<String> expected = new ArrayList<>();
        long nextId = 0;
        int skippedDays = 1 + random.nextInt(2);
        for (int day = 0; day < skippedDays; day++) {
            nextId = insert(
                    writer, "h.db.t", FIRST_DAY.plusDays(day).toString(), nextId, 1 + random.nextInt(10), skipped);
        }
        String startOffset;
        if (order.equals("partition-name")) {
            startOffset = "dt=" + FIRST_DAY.plusDays(skippedDays);
        } else if (order.equals("partition-time")) {
            startOffset = FIRST_DAY.plusDays(skippedDays) + " 00:00:00";
        } else {
            // the metastore's creation times are in seconds: start a second after the last skipped one
            Thread.sleep(1100);
            startOffset = LocalDateTime.now().withNano(0).format(SECONDS);
            Thread.sleep(1100);
        }
        int day = skippedDays;
        for (int before = random.nextInt(2); before > 0; before--, day++) {
            nextId = insert(
                    writer, "h.db.t", FIRST_DAY.plusDays(day).toString(), nextId, 1 + random.nextInt(30), expected);
        }
        int later = 3 + random.nextInt(3);
        List<Integer> sizes = new ArrayList<>();
        for (int i = 0; i < later; i++) {
            sizes.add(1 + random.nextInt(40));
        }
        // fail on a row of the second partition added while the job runs: after checkpoints of the first
        long firstLater = nextId;
        FailOnce.arm(firstLater + sizes.get(0) + random.nextInt(sizes.get(1)));
        int parallelism = 1 + random.nextInt(3);
        System.out.println("HiveStreamingReadIT " + order + ": " + format + ", start " + startOffset + ", "
                + (day - skippedDays) + " partitions before the job, " + sizes + " while it runs, parallelism "
                + parallelism);
        TableEnvironment reader = streaming(metastore, parallelism);
        TableResult result = reader.executeSql(
                "SELECT id, name, dt FROM h.db.t" + " /*+ OPTIONS('streaming-source.consume-start-offset' = '"
                        + startOffset + "') */ WHERE fail_once(id)");
        int firstLaterDay = day;
        int total = expected.size() + sizes.stream().mapToInt(Integer::intValue).sum();
        Writes adding = () -> {
            long id = firstLater;
            int d = firstLaterDay;
            for (int size : sizes) {
                Thread.sleep(200 + random.nextInt(1200));
                id = insert(writer, "h.db.t", FIRST_DAY.plusDays(d++).toString(), id, size, expected);
            }
        };
        List<String> read = read(result, total, adding);
        assertThat(read).as("seed %s", seed).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(read).as("seed %s: nothing before the start offset", seed).doesNotContainAnyElementsOf(skipped);
        assertThat(FailOnce.failed())
                .as("the injected failure happened (seed %s)", seed)
                .isTrue();
    }

    /** Inserts {@code rows} rows into the table (into the partition {@code dt}, if given); returns the next id. */
    private static long insert(
            TableEnvironment tEnv, String table, String dt, long firstId, int rows, List<String> into)
            throws Exception {
        StringBuilder values = new StringBuilder();
        List<String> added = new ArrayList<>();
        for (int i = 0; i < rows; i++) {
            long id = firstId + i;
            values.append(i == 0 ? "" : ", ")
                    .append("(CAST(")
                    .append(id)
                    .append(" AS BIGINT), 'n")
                    .append(id)
                    .append("'");
            if (dt != null) {
                values.append(", '").append(dt).append("'");
            }
            values.append(")");
            added.add("+I[" + id + ", n" + id + (dt != null ? ", " + dt : "") + "]");
        }
        tEnv.executeSql("INSERT INTO " + table + " VALUES " + values).await();
        synchronized (into) {
            into.addAll(added);
        }
        return firstId + rows;
    }

    /** What the other writer does while the job reads; in the test's thread, where Flink plans its statements. */
    private interface Writes {
        void run() throws Exception;
    }

    /**
     * Reads {@code total} rows (or fails after two minutes) in a thread of its own while {@code
     * writes} run in this one (Flink's planner keeps its metadata per thread).
     */
    private static List<String> read(TableResult result, int total, Writes writes) throws Exception {
        List<String> rows = new ArrayList<>();
        try (CloseableIterator<Row> it = result.collect()) {
            java.util.concurrent.Future<?> reading = THREADS.submit(() -> {
                while (rows.size() < total && it.hasNext()) {
                    String row = it.next().toString();
                    synchronized (rows) {
                        rows.add(row);
                    }
                }
            });
            writes.run();
            try {
                reading.get(120, TimeUnit.SECONDS);
            } catch (java.util.concurrent.TimeoutException e) {
                synchronized (rows) {
                    throw new AssertionError("Read " + rows.size() + " of " + total + " rows in two minutes: " + rows);
                }
            }
            result.getJobClient().orElseThrow().cancel().get(30, TimeUnit.SECONDS);
        }
        return rows;
    }

    private static TableEnvironment batch(Path metastore) {
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        tEnv.getConfig().set("parallelism.default", "1");
        catalog(tEnv, metastore);
        tEnv.executeSql("CREATE DATABASE IF NOT EXISTS h.db");
        return tEnv;
    }

    private static TableEnvironment streaming(Path metastore, int parallelism) {
        Configuration conf = new Configuration();
        conf.setString("execution.checkpointing.interval", "300 ms");
        conf.setString("restart-strategy.type", "fixed-delay");
        conf.setString("restart-strategy.fixed-delay.attempts", "3");
        conf.setString("restart-strategy.fixed-delay.delay", "200 ms");
        conf.setString("parallelism.default", String.valueOf(parallelism));
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.newInstance()
                .inStreamingMode()
                .withConfiguration(conf)
                .build());
        catalog(tEnv, metastore);
        tEnv.createTemporarySystemFunction("fail_once", FailOnce.class);
        return tEnv;
    }

    private static void catalog(TableEnvironment tEnv, Path metastore) {
        tEnv.executeSql("CREATE CATALOG h WITH ('type' = 'sluice', 'target' = 'hive', "
                + "'sluice.plugins.dir' = '" + HivePluginDir.get() + "', "
                + "'metastore' = 'embedded', 'metastore.dir' = '" + metastore + "')");
    }

    private static long seed() {
        long seed = Long.getLong("sluice.seed", System.nanoTime());
        System.out.println("HiveStreamingReadIT seed " + seed);
        return seed;
    }

    /** A filter that is always true but throws once, at the armed id: a task failure mid-read. */
    public static final class FailOnce extends ScalarFunction {
        private static volatile long failAt = -1;
        private static final AtomicBoolean FAILED = new AtomicBoolean();

        static void arm(long id) {
            failAt = id;
            FAILED.set(false);
        }

        static boolean failed() {
            return FAILED.get();
        }

        @Override
        public boolean isDeterministic() {
            return false;
        }

        public boolean eval(Long id) {
            if (id != null && id == failAt && FAILED.compareAndSet(false, true)) {
                throw new IllegalStateException("Injected failure at row " + id);
            }
            return true;
        }
    }
}

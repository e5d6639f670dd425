package io.sluice.plugin.iceberg.it;

import io.sluice.runtime.sink.dynamic.DynamicRecord;
import io.sluice.runtime.sink.dynamic.DynamicRecordGenerator;
import io.sluice.runtime.sink.dynamic.DynamicSink;
import io.sluice.spi.distribution.DistributionMode;

import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Histogram;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.Collector;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.flink.FlinkSchemaUtil;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.rest.RESTCatalogServer;
import org.apache.iceberg.rest.RESTServerExtension;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The dynamic sink's table cache as the catalog sees it: the sink writes tables of Iceberg's REST
 * catalog server, whose back end ({@link CountingCatalog}) counts every load of every table, and
 * the generator records, per router subtask, which table each record went to and when. From that
 * record each job's router loads are predicted the way {@code TableCache} decides them (least
 * recently used out beyond {@code cacheMaxSize}, loaded again when older than {@code
 * cacheRefreshMs}), and the catalog's counts must match: exactly where time plays no part, within
 * bounds computed from the records' arrival times where it does. The first job also checks the
 * per-table writer and committer metrics against what the tables hold.
 *
 * <p>All tables exist beforehand with exactly the records' schema, so the routers never create or
 * evolve a table and the updater never loads one; the jobs take no checkpoints, so each table is
 * committed once, at the end of input. A table's loads are then its routers' loads, one per writer
 * subtask that got rows of it (the writer loads its table when created) and {@link
 * #COMMITTER_LOADS} of its committer.
 */
class IcebergDynamicSinkCacheIT {

    /**
     * The committer's loads of one table committed once: the load of its table when created, the
     * refresh before the commit (to find an earlier commit of the checkpoint), and Iceberg's
     * append: its snapshot producer refreshes before it applies, the REST server loads the table it
     * commits to, and the producer refreshes again after the commit.
     */
    static final long COMMITTER_LOADS = 5;

    private static final InMemoryReporter METRICS = InMemoryReporter.createWithRetainedMetrics();

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                    .setConfiguration(METRICS.addToConfiguration(new Configuration()))
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(4)
                    .build());

    private static final Path WAREHOUSE = warehouse();

    @RegisterExtension
    static final RESTServerExtension REST = new RESTServerExtension(Map.of(
            RESTCatalogServer.REST_PORT, RESTServerExtension.FREE_PORT,
            CatalogProperties.CATALOG_IMPL, CountingCatalog.class.getName(),
            CatalogProperties.WAREHOUSE_LOCATION, WAREHOUSE.toUri().toString()));

    /** The records' schema, which every table has from the start. */
    static final RowType ROW =
            IcebergDynamicSinkIT.row("id", new BigIntType(false), "t", new IntType(false), "s", new VarCharType(16));

    /** Per router subtask (generator instance), what it generated: table and time of each record. */
    static final ConcurrentLinkedQueue<List<long[]>> ARRIVALS = new ConcurrentLinkedQueue<>();

    @BeforeAll
    static void onlyAfterPackaging() {
        TestPluginsDir.assumeIntegrationTestPhase();
    }

    @BeforeEach
    void reset() {
        ARRIVALS.clear();
        CountingCatalog.reset();
    }

    private static Path warehouse() {
        try {
            return Files.createTempDirectory(Paths.get("target").toAbsolutePath(), "rest-cache-warehouse");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Record {@code id} goes to table {@code id % tables}: every router writes the tables round-robin. */
    static final class RoundRobin implements DynamicRecordGenerator<Long> {
        private static final long serialVersionUID = 1L;
        final String database;
        final int tables;
        private transient List<long[]> arrivals;

        RoundRobin(String database, int tables) {
            this.database = database;
            this.tables = tables;
        }

        @Override
        public void open(OpenContext context) {
            // one generator instance per router subtask, each with its own table cache
            arrivals = Collections.synchronizedList(new ArrayList<>());
            ARRIVALS.add(arrivals);
        }

        @Override
        public void generate(Long id, Collector<DynamicRecord> out) {
            int t = (int) (id % tables);
            // the time before the router asks its cache: what the predictions below rely on
            arrivals.add(new long[] {t, System.currentTimeMillis()});
            GenericRowData row = GenericRowData.of(id, t, StringData.fromString("s" + id));
            out.collect(new DynamicRecord(database + ".t" + t, null, ROW, row, List.of(), DistributionMode.NONE, 0));
        }
    }

    /** One job's shape. */
    private static final class Run {
        final String database;
        final int tables;
        final long records;
        final int routers;
        final int writers;
        int cacheMaxSize = 100;
        long cacheRefreshMs = 3_600_000;
        double recordsPerSecond;

        Run(String database, int tables, long records, int routers, int writers) {
            this.database = database;
            this.tables = tables;
            this.records = records;
            this.routers = routers;
            this.writers = writers;
        }

        String table(int t) {
            return database + ".t" + t;
        }
    }

    @Test
    void loadsFollowTheCacheSizeAndRefreshInterval() throws Exception {
        long seed = Long.getLong("sluice.it.seed", System.nanoTime());
        Random random = new Random(seed);
        int routers = 1 + random.nextInt(2);
        int writers = 1 + random.nextInt(3);
        int tables = 6 + random.nextInt(7);
        int small = 1 + random.nextInt(tables - 1);
        long refreshMs = 150 + random.nextInt(150);
        System.out.printf(
                "IcebergDynamicSinkCacheIT seed %d (-Dsluice.it.seed=%d): %d routers, %d writers, %d tables,"
                        + " small cache %d, refresh %d ms%n",
                seed, seed, routers, writers, tables, small, refreshMs);

        // (a) a cache larger than the tables, never refreshed within the job: each router loads
        // each table once, whatever the number of records
        Run large = new Run("db_large", tables, tables * 40L, routers, writers);
        large.cacheMaxSize = tables + 2;
        JobExecutionResult job = run(large);
        Map<String, Long> loads = CountingCatalog.loads();
        Map<String, Long> routerLoads = predictedLoads(large, ARRIVALS, large.cacheMaxSize);
        assertThat(routerLoads.values()).as("predicted: once per router").allMatch(n -> n >= 1 && n <= routers);
        assertLoads(large, loads, routerLoads);
        assertEveryRecordOnce(large);
        assertPerTableMetrics(job, large);

        // (b) records arriving for some seconds at a cache refreshed every refreshMs: each router
        // loads each table again about once per interval
        reset();
        Run refreshed = new Run("db_refreshed", tables, tables * 20L * routers * 5, routers, writers);
        refreshed.cacheRefreshMs = refreshMs;
        // about 5 s, whatever the machine: a slow one takes longer, not shorter
        refreshed.recordsPerSecond = refreshed.records / 5.0;
        long started = System.currentTimeMillis();
        run(refreshed);
        long duration = System.currentTimeMillis() - started;
        loads = CountingCatalog.loads();
        Map<String, long[]> bounds = refreshBounds(refreshed, ARRIVALS);
        for (int t = 0; t < tables; t++) {
            String table = refreshed.table(t);
            long byRouters = loads.getOrDefault(table, 0L) - writers - COMMITTER_LOADS;
            long[] b = bounds.get(table);
            System.out.printf(
                    "%s: %d router loads in a job of %d ms, refresh %d ms, predicted %d to %d%n",
                    table, byRouters, duration, refreshMs, b[0], b[1]);
            assertThat(byRouters)
                    .as("%s's router loads (job %d ms, refresh %d ms)", table, duration, refreshMs)
                    .isBetween(b[0], b[1]);
            // the interval, not the records, sets the loads: several per router, yet fewer than records
            assertThat(b[0]).as("%s: the job ran for several intervals", table).isGreaterThanOrEqualTo(3L * routers);
            assertThat(byRouters).as("%s: records hit in between", table).isLessThan(refreshed.records / tables);
        }
        assertEveryRecordOnce(refreshed);

        // (c) a cache smaller than the tables written round-robin: each table is evicted before
        // its router comes back to it, so nearly every record loads its table
        reset();
        Run evicting = new Run("db_evicting", tables, tables * 20L, routers, writers);
        evicting.cacheMaxSize = small;
        run(evicting);
        loads = CountingCatalog.loads();
        routerLoads = predictedLoads(evicting, ARRIVALS, small);
        assertLoads(evicting, loads, routerLoads);
        long total = routerLoads.values().stream().mapToLong(Long::longValue).sum();
        assertThat(total)
                .as("router loads of %d records with a cache of %d for %d tables", evicting.records, small, tables)
                .isGreaterThan(evicting.records - tables * routers * 2L);
        assertEveryRecordOnce(evicting);
    }

    /** Creates the run's tables, then runs its job; the catalog's counts start from zero. */
    private JobExecutionResult run(Run run) throws Exception {
        Schema schema = FlinkSchemaUtil.convert(FlinkSchemaUtil.toResolvedSchema(ROW));
        REST.client().createNamespace(Namespace.of(run.database));
        for (int t = 0; t < run.tables; t++) {
            REST.client().createTable(TableIdentifier.of(run.database, "t" + t), schema, PartitionSpec.unpartitioned());
        }
        CountingCatalog.reset();
        ARRIVALS.clear();

        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(run.routers);
        DataGeneratorSource<Long> source = run.recordsPerSecond > 0
                ? new DataGeneratorSource<>(
                        i -> i + 1, run.records, RateLimiterStrategy.perSecond(run.recordsPerSecond), Types.LONG)
                : new DataGeneratorSource<>(i -> i + 1, run.records, Types.LONG);
        DynamicSink.forInput(env.fromSource(source, WatermarkStrategy.noWatermarks(), "numbers"))
                .generator(new RoundRobin(run.database, run.tables))
                .target("iceberg")
                .pluginsDir(TestPluginsDir.get())
                .catalog(Map.of(
                        "catalog-type",
                        "rest",
                        "uri",
                        "http://localhost:" + REST.config().get(RESTCatalogServer.REST_PORT) + "/"))
                .writeParallelism(run.writers)
                .cacheMaxSize(run.cacheMaxSize)
                .cacheRefreshMs(run.cacheRefreshMs)
                .append();
        JobExecutionResult result = env.execute("dynamic iceberg sink " + run.database);
        assertThat(ARRIVALS).as("router subtasks").hasSize(run.routers);
        return result;
    }

    /**
     * Per table, how often the routers load it when time plays no part (no refresh within the
     * job): the misses of a least-recently-used cache of {@code maxSize} tables, per router, on the
     * sequence of tables its records went to.
     */
    private static Map<String, Long> predictedLoads(Run run, Iterable<List<long[]>> arrivals, int maxSize) {
        Map<String, Long> loads = new TreeMap<>();
        for (List<long[]> router : arrivals) {
            LinkedHashMap<Long, Boolean> cache = new LinkedHashMap<>(16, 0.75f, true) {
                private static final long serialVersionUID = 1L;

                @Override
                protected boolean removeEldestEntry(Map.Entry<Long, Boolean> eldest) {
                    return size() > maxSize;
                }
            };
            for (long[] a : router) {
                if (cache.get(a[0]) == null) {
                    loads.merge(run.table((int) a[0]), 1L, Long::sum);
                    cache.put(a[0], true);
                }
            }
        }
        return loads;
    }

    /**
     * Per table, the least and the most loads its routers can have made with a cache refreshed
     * every {@code cacheRefreshMs} (and never full), from the times the generator saw each record.
     * The cache loads a table again when, asked for it, it finds the last load at least the
     * interval old; it asks after the generator ran for the record and before the generator runs
     * for the router's next record, and it counts the interval from a time in the same window of
     * the record that loaded. So a record certainly loads if its generator time is an interval
     * after the generator time of the record following the last load (the lower bound's rule),
     * and can only load if the generator time of the record following it is an interval after
     * the last load's generator time (the upper bound's). A slow machine stretches the times and
     * with them both bounds.
     */
    private static Map<String, long[]> refreshBounds(Run run, Iterable<List<long[]>> arrivals) {
        Map<String, long[]> bounds = new TreeMap<>();
        for (int t = 0; t < run.tables; t++) {
            bounds.put(run.table(t), new long[2]);
        }
        long refresh = run.cacheRefreshMs;
        for (List<long[]> router : arrivals) {
            int n = router.size();
            for (int t = 0; t < run.tables; t++) {
                long least = 0;
                long most = 0;
                long leastFrom = Long.MIN_VALUE; // the lower bound's last load: the next record's time
                long mostFrom = Long.MIN_VALUE; // the upper bound's last load: its own record's time
                boolean leastLoaded = false;
                boolean mostLoaded = false;
                for (int i = 0; i < n; i++) {
                    if (router.get(i)[0] != t) {
                        continue;
                    }
                    long time = router.get(i)[1];
                    long next = i + 1 < n ? router.get(i + 1)[1] : Long.MAX_VALUE;
                    if (!leastLoaded || (leastFrom != Long.MAX_VALUE && time - leastFrom >= refresh)) {
                        least++;
                        leastLoaded = true;
                        leastFrom = next;
                    }
                    if (!mostLoaded || next == Long.MAX_VALUE || next - mostFrom >= refresh) {
                        most++;
                        mostLoaded = true;
                        mostFrom = time;
                    }
                }
                long[] b = bounds.get(run.table(t));
                b[0] += least;
                b[1] += most;
            }
        }
        return bounds;
    }

    /** Each table's loads: its routers' (as predicted), one per writer, and the committer's. */
    private static void assertLoads(Run run, Map<String, Long> loads, Map<String, Long> routerLoads) {
        Map<String, Long> expected = new TreeMap<>();
        for (int t = 0; t < run.tables; t++) {
            String table = run.table(t);
            expected.put(table, routerLoads.getOrDefault(table, 0L) + run.writers + COMMITTER_LOADS);
        }
        System.out.printf(
                "%s: loads %s, predicted router loads %s (%d writers, %d committer loads each)%n",
                run.database, loads, routerLoads, run.writers, COMMITTER_LOADS);
        assertThat(loads)
                .as(
                        "loads per table: routers' %s + %d writers + %d of the committer",
                        routerLoads, run.writers, COMMITTER_LOADS)
                .isEqualTo(expected);
    }

    /** Every record in its table exactly once, read back with Iceberg's Java API through the REST server. */
    private static void assertEveryRecordOnce(Run run) {
        for (int t = 0; t < run.tables; t++) {
            Table table = REST.client().loadTable(TableIdentifier.of(run.database, "t" + t));
            List<Long> expected = new ArrayList<>();
            for (long id = 1; id <= run.records; id++) {
                if (id % run.tables == t) {
                    expected.add(id);
                }
            }
            List<Record> records = IcebergTables.records(table);
            assertThat(records.stream().map(r -> (Long) r.getField("id")).collect(Collectors.toList()))
                    .as("%s's ids", run.table(t))
                    .containsExactlyInAnyOrderElementsOf(expected);
            int index = t;
            assertThat(records).allSatisfy(r -> {
                assertThat(r.getField("t")).isEqualTo(index);
                assertThat(r.getField("s")).isEqualTo("s" + r.getField("id"));
            });
            assertThat(IcebergTables.snapshots(table))
                    .as("%s: one commit", run.table(t))
                    .hasSize(1);
        }
    }

    /** The writer metrics of Iceberg's Flink sink (the single-table sink's, see IcebergMetricsIT). */
    static final Set<String> WRITER_METRICS = Set.of(
            "flushedDataFiles",
            "flushedDeleteFiles",
            "flushedReferencedDataFiles",
            "lastFlushDurationMs",
            "dataFilesSizeHistogram",
            "deleteFilesSizeHistogram");

    /** The committer metrics of Iceberg's Flink sink. */
    static final Set<String> COMMITTER_METRICS = Set.of(
            "lastCheckpointDurationMs",
            "lastCommitDurationMs",
            "elapsedSecondsSinceLastSuccessfulCommit",
            "committedDataFilesCount",
            "committedDataFilesRecordCount",
            "committedDataFilesByteCount",
            "committedDeleteFilesCount",
            "committedDeleteFilesRecordCount",
            "committedDeleteFilesByteCount");

    /**
     * Each table's writer and committer metrics, told apart by their {@code table} tag, have the
     * single-table sink's names, and their counts are what that table holds.
     */
    private static void assertPerTableMetrics(JobExecutionResult job, Run run) throws IOException {
        // table tag -> metric name -> per subtask
        Map<String, Map<String, Map<String, Metric>>> writers = new TreeMap<>();
        Map<String, Map<String, Metric>> committers = new TreeMap<>();
        for (Map.Entry<MetricGroup, Map<String, Metric>> e :
                METRICS.getMetricsByGroup().entrySet()) {
            Map<String, String> tags = e.getKey().getAllVariables();
            List<String> scope = List.of(e.getKey().getScopeComponents());
            if (!job.getJobID().toString().equals(tags.get("<job_id>"))) {
                continue;
            }
            if (scope.contains("IcebergStreamWriter")) {
                Map<String, Map<String, Metric>> bySubtask =
                        writers.computeIfAbsent(tags.get("<table>"), k -> new TreeMap<>());
                assertThat(bySubtask.put(tags.get("<subtask_index>"), e.getValue()))
                        .as("one writer group per table and subtask: %s", scope)
                        .isNull();
            } else if (scope.contains("IcebergFilesCommitter")) {
                assertThat(committers.put(tags.get("<table>"), e.getValue()))
                        .as("one committer group per table: %s", scope)
                        .isNull();
            }
        }
        Set<String> tables = IntStream.range(0, run.tables).mapToObj(run::table).collect(Collectors.toSet());
        assertThat(writers).as("writer metric groups by table tag").containsOnlyKeys(tables);
        assertThat(committers).as("committer metric groups by table tag").containsOnlyKeys(tables);
        for (String name : tables) {
            Table table = REST.client().loadTable(TableIdentifier.parse(name));
            List<DataFile> files = new ArrayList<>();
            try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
                tasks.forEach(task -> files.add(task.file()));
            }
            long rows = files.stream().mapToLong(DataFile::recordCount).sum();
            long bytes = files.stream().mapToLong(DataFile::fileSizeInBytes).sum();
            assertThat(rows).as("%s's rows", name).isEqualTo(run.records / run.tables);

            Map<String, Map<String, Metric>> writer = writers.get(name);
            assertThat(writer.keySet())
                    .as("%s's writer subtasks", name)
                    .isEqualTo(IntStream.range(0, run.writers)
                            .mapToObj(String::valueOf)
                            .collect(Collectors.toSet()));
            Map<String, Long> writerSums = new HashMap<>();
            for (Map<String, Metric> metrics : writer.values()) {
                assertThat(metrics.keySet()).as("%s's writer metrics", name).isEqualTo(WRITER_METRICS);
                for (Map.Entry<String, Metric> m : metrics.entrySet()) {
                    if (m.getValue() instanceof Counter) {
                        writerSums.merge(m.getKey(), ((Counter) m.getValue()).getCount(), Long::sum);
                    } else if (m.getValue() instanceof Histogram) {
                        writerSums.merge(m.getKey(), ((Histogram) m.getValue()).getCount(), Long::sum);
                    }
                }
                assertThat(((Number) ((Gauge<?>) metrics.get("lastFlushDurationMs")).getValue()).longValue())
                        .isGreaterThanOrEqualTo(0);
            }
            // one flush per writer subtask, at the end of input: one data file each
            assertThat(writerSums.get("flushedDataFiles"))
                    .as("%s flushed", name)
                    .isEqualTo(files.size());
            assertThat(writerSums.get("dataFilesSizeHistogram"))
                    .as("%s's file sizes", name)
                    .isEqualTo(files.size());
            assertThat(writerSums.get("flushedDeleteFiles")).isZero();
            assertThat(writerSums.get("deleteFilesSizeHistogram")).isZero();
            assertThat(files).as("%s's files", name).hasSize(run.writers);

            Map<String, Metric> committer = committers.get(name);
            assertThat(committer.keySet()).as("%s's committer metrics", name).isEqualTo(COMMITTER_METRICS);
            assertThat(count(committer, "committedDataFilesRecordCount"))
                    .as("%s's committed rows", name)
                    .isEqualTo(rows);
            assertThat(count(committer, "committedDataFilesCount")).isEqualTo(files.size());
            assertThat(count(committer, "committedDataFilesByteCount")).isEqualTo(bytes);
            assertThat(count(committer, "committedDeleteFilesCount")).isZero();
            assertThat(count(committer, "committedDeleteFilesRecordCount")).isZero();
            assertThat(((Number) ((Gauge<?>) committer.get("elapsedSecondsSinceLastSuccessfulCommit")).getValue())
                            .longValue())
                    .isBetween(0L, 600L);
        }
    }

    private static long count(Map<String, Metric> metrics, String name) {
        return ((Counter) metrics.get(name)).getCount();
    }
}

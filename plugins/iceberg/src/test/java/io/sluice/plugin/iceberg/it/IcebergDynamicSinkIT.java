package io.sluice.plugin.iceberg.it;

import io.sluice.runtime.sink.dynamic.DynamicRecord;
import io.sluice.runtime.sink.dynamic.DynamicRecordGenerator;
import io.sluice.runtime.sink.dynamic.DynamicSink;
import io.sluice.runtime.sink.dynamic.DynamicSinkFaults;
import io.sluice.spi.distribution.DistributionMode;
import io.sluice.testshared.FailoverCluster;
import io.sluice.testshared.dynamic.EvolvingNumbers;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.util.Collector;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.hive.HiveCatalog;
import org.apache.iceberg.types.Type;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The dynamic sink into Iceberg, on a Hadoop catalog and on a real Hive metastore
 * ({@link HiveMetastoreServer}): numbered records routed to 20 tables, 5 of them created
 * beforehand with the Iceberg API, the others by the sink; three schema versions arrive
 * mid-stream (a column added, a type widened and made optional), one table's partition spec
 * changes, forward and shuffled records mix; on a schedule from a printed seed, failed once in
 * the router, a writer, the table updater or the commit of one of the tables. Every table read
 * back with Iceberg's generic reader (through the test's own catalog client) holds exactly its
 * numbers, under the schema it should have, and no data file that no snapshot references is left
 * in its location.
 */
class IcebergDynamicSinkIT {

    private static final long COUNT = 4_000;
    private static final int TABLES = 20;

    static final AtomicBoolean ROUTER_FAILED = new AtomicBoolean();

    @RegisterExtension
    static final FailoverCluster MINI_CLUSTER = new FailoverCluster(4);

    static final RowType V1 = EvolvingNumbers.V1;

    @TempDir
    Path tmp;

    /** Started by the first run on the Hive catalog, shared by the others (each its own database). */
    private static HiveMetastoreServer metastore;

    @BeforeAll
    static void onlyAfterPackaging() {
        TestPluginsDir.assumeIntegrationTestPhase();
    }

    @AfterAll
    static void stopMetastore() throws Exception {
        if (metastore != null) {
            metastore.close();
            metastore = null;
        }
    }

    private static synchronized HiveMetastoreServer metastore() throws Exception {
        if (metastore == null) {
            metastore = HiveMetastoreServer.start(
                    Files.createTempDirectory(Paths.get("target").toAbsolutePath(), "dynamic-hive-warehouse"));
        }
        return metastore;
    }

    /**
     * The catalog of one run: the sink's options of it and the test's own client of it (Iceberg's,
     * from the test class path, not the plugin's), which creates the tables the sink finds and
     * reads back what it wrote.
     */
    private static final class TestCatalog implements AutoCloseable {
        final String database;
        final Map<String, String> sinkOptions;
        final Catalog client;

        TestCatalog(String database, Map<String, String> sinkOptions, Catalog client) {
            this.database = database;
            this.sinkOptions = sinkOptions;
            this.client = client;
        }

        Table load(String table) {
            return client.loadTable(TableIdentifier.of(database, table));
        }

        @Override
        public void close() throws Exception {
            ((java.io.Closeable) client).close();
        }
    }

    /** {@code hadoop}: a warehouse of this test's; {@code hive}: a database of its own in the shared metastore. */
    private TestCatalog catalog(String kind, String name) throws Exception {
        Map<String, String> options = new HashMap<>();
        if (kind.equals("hadoop")) {
            Path warehouse = tmp.resolve("warehouse");
            options.put("catalog-type", "hadoop");
            options.put("warehouse", warehouse.toUri().toString());
            return new TestCatalog("db", options, IcebergTables.catalog(warehouse));
        }
        String uri = metastore().uri();
        // the database's tables below this test's directory, not the metastore's warehouse
        String warehouse = tmp.resolve("hive-warehouse").toUri().toString();
        options.put("catalog-type", "hive");
        options.put("uri", uri);
        options.put("warehouse", warehouse);
        HiveCatalog client = new HiveCatalog();
        client.setConf(new org.apache.hadoop.conf.Configuration());
        client.initialize("reader", Map.of("uri", uri, "warehouse", warehouse));
        return new TestCatalog("dynamic_" + name, options, client);
    }

    @AfterEach
    void reset() {
        ROUTER_FAILED.set(false);
        DynamicSinkFaults.clear();
    }

    static final class Numbers implements DynamicRecordGenerator<Long> {
        private static final long serialVersionUID = 1L;
        final String database;
        final long failAt;

        Numbers(String database, long failAt) {
            this.database = database;
            this.failAt = failAt;
        }

        @Override
        public void generate(Long id, Collector<DynamicRecord> out) {
            if (id == failAt && ROUTER_FAILED.compareAndSet(false, true)) {
                throw new IllegalStateException("chaos: injected failure in the router at " + id);
            }
            int t = (int) (id % TABLES);
            boolean third = EvolvingNumbers.version(id, COUNT) == 3;
            RowType schema = EvolvingNumbers.schema(id, COUNT);
            GenericRowData row = EvolvingNumbers.row(id, COUNT, "p" + (id % 3));
            List<String> spec = t == 7 && third ? List.of("identity(p)", "bucket(4, id)") : List.of("identity(p)");
            DistributionMode mode = t % 3 == 0 ? null : t % 3 == 1 ? DistributionMode.HASH : DistributionMode.NONE;
            out.collect(new DynamicRecord(database + ".t" + t, null, schema, row, spec, mode, 0));
        }
    }

    /**
     * Every failure on the Hadoop catalog; on the Hive metastore, whose commits (a lock, an
     * alter_table) make a run there the slowest, one run whose failure is drawn: the writer's or
     * the commit's (whose recovery goes through the catalog's commits again) more often than the
     * router's or the updater's. {@code -Dsluice.it.hive-failure=commit} picks it.
     */
    static Stream<Arguments> catalogsAndFailures() {
        String[] hiveFailures = {"writer", "commit", "writer", "commit", "router", "updater"};
        String hive = System.getProperty(
                "sluice.it.hive-failure", hiveFailures[(int) Math.floorMod(System.nanoTime(), hiveFailures.length)]);
        return Stream.of(
                Arguments.of("hadoop", "router"),
                Arguments.of("hadoop", "writer"),
                Arguments.of("hadoop", "updater"),
                Arguments.of("hadoop", "commit"),
                Arguments.of("hive", hive));
    }

    @ParameterizedTest(name = "{0} catalog, fails in the {1}")
    @MethodSource("catalogsAndFailures")
    void everyTableHoldsExactlyItsRowsUnderItsEvolvedSchema(String catalogKind, String failure) throws Exception {
        long seed = Long.getLong("sluice.it.seed", System.nanoTime());
        Random random = new Random(seed);
        int routers = 1 + random.nextInt(2);
        int writers = 1 + random.nextInt(3);
        long failAt = COUNT / 4 + random.nextInt((int) (COUNT / 2));
        int failAtUpdate = 1 + random.nextInt(6);
        boolean immediate = failure.equals("updater") ? false : random.nextBoolean();
        String commitFailure = random.nextBoolean() ? "before" : "after";
        System.out.printf(
                "IcebergDynamicSinkIT %s %s seed %d (-Dsluice.it.seed=%d): %d routers, %d writers, immediate %s,"
                        + " fails at %d (update %d, commit %s)%n",
                catalogKind, failure, seed, seed, routers, writers, immediate, failAt, failAtUpdate, commitFailure);
        try (TestCatalog catalog = catalog(catalogKind, failure)) {
            createFirstTables(catalog);
            run(catalog, failure, routers, writers, failAt, failAtUpdate, immediate, commitFailure);
            assertEveryTableHoldsItsRows(catalog, failure);
        }
    }

    /** Tables 0 to 4 exist before the job, as v1 and partitioned by p: the sink evolves them. */
    private static void createFirstTables(TestCatalog catalog) {
        Schema v1 = org.apache.iceberg.flink.FlinkSchemaUtil.convert(
                org.apache.iceberg.flink.FlinkSchemaUtil.toResolvedSchema(V1));
        ((SupportsNamespaces) catalog.client).createNamespace(Namespace.of(catalog.database));
        for (int t = 0; t < 5; t++) {
            catalog.client.createTable(
                    TableIdentifier.of(catalog.database, "t" + t),
                    v1,
                    PartitionSpec.builderFor(v1).identity("p").build());
        }
    }

    /** The job, with the one failure of {@code failure} injected on the seed's schedule. */
    private void run(
            TestCatalog catalog,
            String failure,
            int routers,
            int writers,
            long failAt,
            int failAtUpdate,
            boolean immediate,
            String commitFailure)
            throws Exception {
        Path markers = tmp.resolve("markers");
        DynamicSinkFaults faults = failure.equals("updater")
                ? EvolvingNumbers.failUpdaterOnce(markers, failAtUpdate)
                : new DynamicSinkFaults();

        StreamExecutionEnvironment env = MINI_CLUSTER.restartingEnvironment(routers, 200);
        // the numbers over at least six checkpoints, each of which commits up to 20 tables: the
        // commits are most of a run's time (on Hive each takes a metastore lock and an alter_table),
        // and six keep the class within about five minutes with every schema version and every
        // failure still between checkpoints
        DataStream<Long> numbers = env.fromSource(
                new DataGeneratorSource<>(
                        i -> i + 1, COUNT, RateLimiterStrategy.perCheckpoint((int) (COUNT / 6)), Types.LONG),
                WatermarkStrategy.noWatermarks(),
                "numbers");
        Map<String, String> catalogOptions = new HashMap<>(catalog.sinkOptions);
        catalogOptions.put("chaos.marker-dir", markers.toString());
        if (failure.equals("writer")) {
            catalogOptions.put("chaos.writer.fail-after-records", String.valueOf(1 + failAt % 40));
        }
        if (failure.equals("commit")) {
            catalogOptions.put("chaos.commit.fail", commitFailure);
        }
        faults.into(DynamicSink.forInput(numbers)
                        .generator(new Numbers(catalog.database, failure.equals("router") ? failAt : -1))
                        .target("chaos-iceberg")
                        .pluginsDir(TestPluginsDir.get())
                        .catalog(catalogOptions)
                        .writeParallelism(writers)
                        .immediateTableUpdate(immediate)
                        .snapshotProperties(Map.of("written-by", "dynamic sink, " + failure)))
                .append();
        env.execute("dynamic iceberg sink, fails in the " + failure);

        if (failure.equals("router")) {
            assertThat(ROUTER_FAILED).as("the failure was injected").isTrue();
        } else {
            assertThat(markers).as("the failure was injected").isNotEmptyDirectory();
        }
    }

    /** Each table's numbers exactly once, with the values of their schema version, under the final schema. */
    private static void assertEveryTableHoldsItsRows(TestCatalog catalog, String failure) {
        Map<Integer, List<Long>> expected = new TreeMap<>();
        for (long id = 1; id <= COUNT; id++) {
            expected.computeIfAbsent((int) (id % TABLES), k -> new ArrayList<>())
                    .add(id);
        }
        Map<String, List<String>> unreferenced = new TreeMap<>();
        for (Map.Entry<Integer, List<Long>> e : expected.entrySet()) {
            Table table = catalog.load("t" + e.getKey());
            List<String> leftovers = IcebergTables.unreferencedLocalDataFiles(table);
            if (!leftovers.isEmpty()) {
                unreferenced.put("t" + e.getKey(), leftovers);
            }
            List<Record> records = IcebergTables.records(table);
            assertThat(records.stream().map(r -> (Long) r.getField("id")).collect(Collectors.toList()))
                    .as("t%d", e.getKey())
                    .containsExactlyInAnyOrderElementsOf(e.getValue());
            assertThat(IcebergTables.snapshots(table))
                    .as("t%d's snapshots", e.getKey())
                    .isNotEmpty()
                    .allSatisfy(snapshot ->
                            assertThat(snapshot.summary()).containsEntry("written-by", "dynamic sink, " + failure));
            Schema schema = table.schema();
            assertThat(schema.columns().stream().map(c -> c.name()).collect(Collectors.toList()))
                    .as("t%d's columns", e.getKey())
                    .containsExactly("id", "p", "n", "extra");
            assertThat(schema.findField("n").type().typeId())
                    .as("t%d's n widened", e.getKey())
                    .isEqualTo(Type.TypeID.LONG);
            assertThat(schema.findField("n").isOptional())
                    .as("t%d's n made optional", e.getKey())
                    .isTrue();
            for (Record r : records) {
                long id = (Long) r.getField("id");
                assertThat(r.getField("n")).as("n of %d", id).isEqualTo(EvolvingNumbers.expectedN(id, COUNT));
                assertThat(r.getField("extra"))
                        .as("extra of %d", id)
                        .isEqualTo(EvolvingNumbers.expectedExtra(id, COUNT));
            }
        }
        Table seven = catalog.load("t7");
        assertThat(seven.spec().fields()).as("t7's spec evolved").hasSize(2);
        assertThat(seven.specs()).hasSize(2);
        // a table writer opened after the checkpoint that the restore began from is in no state:
        // its files are found by the id the restored attempt computes from the state's attempt start
        assertThat(unreferenced)
                .as("data files no snapshot references, after the failure in the " + failure)
                .isEmpty();
    }

    /**
     * Records of one table with {@code schema}: the first column the record's number (or {@code
     * x} if it is a string), the others {@code v}; upserts by {@code id} if asked.
     */
    static final class Bad implements DynamicRecordGenerator<Long> {
        private static final long serialVersionUID = 1L;
        final String table;
        final RowType schema;
        final List<String> spec;
        final boolean upsert;

        Bad(String table, RowType schema, List<String> spec) {
            this(table, schema, spec, false);
        }

        Bad(String table, RowType schema, List<String> spec, boolean upsert) {
            this.table = table;
            this.schema = schema;
            this.spec = spec;
            this.upsert = upsert;
        }

        @Override
        public void generate(Long id, Collector<DynamicRecord> out) {
            GenericRowData row = new GenericRowData(schema.getFieldCount());
            row.setField(0, schema.getTypeAt(0) instanceof BigIntType ? (Object) id : StringData.fromString("x"));
            for (int i = 1; i < schema.getFieldCount(); i++) {
                row.setField(i, StringData.fromString("v"));
            }
            DynamicRecord record = new DynamicRecord(table, null, schema, row, spec, DistributionMode.NONE, 0);
            if (upsert) {
                record.setUpsertMode(true);
                record.setEqualityFields(java.util.Set.of("id"));
            }
            out.collect(record);
        }
    }

    /** The good records of {@code good}, until it throws on input record {@code failAt}. */
    static final class ThrowingGenerator implements DynamicRecordGenerator<Long> {
        private static final long serialVersionUID = 1L;
        final Bad good;
        final long failAt;

        ThrowingGenerator(Bad good, long failAt) {
            this.good = good;
            this.failAt = failAt;
        }

        @Override
        public void generate(Long id, Collector<DynamicRecord> out) {
            if (id == failAt) {
                throw new IllegalStateException("the generator cannot make record " + id);
            }
            good.generate(id, out);
        }
    }

    private void runBad(Path warehouse, DynamicRecordGenerator<Long> generator) throws Exception {
        runBad(warehouse, generator, false);
    }

    /** 5 records in one router subtask, committed at the end of input only (no checkpoints). */
    private void runBad(Path warehouse, DynamicRecordGenerator<Long> generator, boolean overwrite) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        DynamicSink.forInput(env.fromSource(
                        new DataGeneratorSource<>(i -> i + 1, 5, Types.LONG), WatermarkStrategy.noWatermarks(), "n"))
                .generator(generator)
                .target("iceberg")
                .pluginsDir(TestPluginsDir.get())
                .catalog(Map.of(
                        "catalog-type", "hadoop", "warehouse", warehouse.toUri().toString()))
                .immediateTableUpdate(true)
                .overwrite(overwrite)
                .append();
        env.execute("dynamic iceberg sink, bad input");
    }

    /** Version {@code i} of key {@code i % KEYS} of one table, upserted by {@code id}. */
    static final class Versions implements DynamicRecordGenerator<Long> {
        private static final long serialVersionUID = 1L;
        static final int KEYS = 100;
        static final int TABLES = 4;
        static final RowType SCHEMA = RowType.of(
                new org.apache.flink.table.types.logical.LogicalType[] {new BigIntType(false), new BigIntType()},
                new String[] {"id", "v"});
        final String table;

        Versions(String table) {
            this.table = table;
        }

        @Override
        public void generate(Long i, Collector<DynamicRecord> out) {
            DynamicRecord record = new DynamicRecord(
                    table + (i % TABLES),
                    null,
                    SCHEMA,
                    GenericRowData.of((i / TABLES) % KEYS, i),
                    List.of(),
                    DistributionMode.HASH,
                    0);
            record.setUpsertMode(true);
            record.setEqualityFields(java.util.Set.of("id"));
            out.collect(record);
        }
    }

    /**
     * In BATCH a keyed operator's input is sorted by its key, and the sort does not keep the order
     * of records with the same key: the rows of a table the job creates go through the table
     * updater (keyed by table), so without care a key's versions reach the writers in any order and
     * an earlier one can win. 100,000 versions of 100 keys in each of four new tables: each key's last.
     */
    @Test
    void batchUpsertsIntoATableTheJobCreatesKeepEachKeysLastVersion() throws Exception {
        Path warehouse = tmp.resolve("warehouse");
        long count = 100_000;
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setRuntimeMode(org.apache.flink.api.common.RuntimeExecutionMode.BATCH);
        env.setParallelism(1);
        DynamicSink.forInput(env.fromSource(
                        new DataGeneratorSource<>(i -> i + 1, count, Types.LONG),
                        WatermarkStrategy.noWatermarks(),
                        "n"))
                .generator(new Versions("db.versions"))
                .target("iceberg")
                .pluginsDir(TestPluginsDir.get())
                .catalog(Map.of(
                        "catalog-type", "hadoop", "warehouse", warehouse.toUri().toString()))
                .writeParallelism(2)
                .append();
        env.execute("dynamic iceberg sink, BATCH upserts");

        for (int t = 0; t < Versions.TABLES; t++) {
            Map<Long, Long> last = new TreeMap<>();
            for (long i = 1; i <= count; i++) {
                if (i % Versions.TABLES == t) {
                    last.put((i / Versions.TABLES) % Versions.KEYS, i);
                }
            }
            List<String> expected = last.entrySet().stream()
                    .map(e -> e.getKey() + "|" + e.getValue())
                    .collect(Collectors.toList());
            assertThat(IcebergTables.rows(IcebergTables.load(warehouse, "db", "versions" + t)))
                    .as("table versions%d", t)
                    .containsExactlyInAnyOrderElementsOf(expected);
        }
    }

    /** The kept table's rows as {@code id|s}, read back anew. */
    private static List<String> keptRows(Path warehouse) {
        return IcebergTables.rows(IcebergTables.load(warehouse, "db", "kept"));
    }

    @Test
    void unsupportedChangesAndBadIdentifiersAreErrorsThatLoseNothing() throws Exception {
        Path warehouse = tmp.resolve("bad");
        RowType good = row("id", new BigIntType(false), "s", new VarCharType(true, 8));
        runBad(warehouse, new Bad("db.kept", good, List.of()));
        Table kept = IcebergTables.load(warehouse, "db", "kept");
        List<String> committed = List.of("1|v", "2|v", "3|v", "4|v", "5|v");
        assertThat(keptRows(warehouse)).containsExactlyInAnyOrderElementsOf(committed);

        RowType narrowed = row("id", new VarCharType(false, 8), "s", new VarCharType(true, 8));
        assertThatThrownBy(() -> runBad(warehouse, new Bad("db.kept", narrowed, List.of())))
                .hasStackTraceContaining("cannot change column 'id' from BIGINT NOT NULL to VARCHAR(8) NOT NULL");
        assertThatThrownBy(() -> runBad(warehouse, new Bad("db.kept", good, List.of("hourz(s)"))))
                .hasStackTraceContaining("'hourz(s)', which Iceberg does not know");
        assertThatThrownBy(() -> runBad(warehouse, new Bad("db.../x", good, List.of())))
                .hasStackTraceContaining("Invalid Iceberg table identifier 'db.../x'");
        assertThatThrownBy(() -> runBad(warehouse, new Bad("nodatabase", good, List.of())))
                .hasStackTraceContaining("a dynamic sink names a table as database.table");
        kept.refresh();
        assertThat(IcebergTables.records(kept))
                .as("the table's rows after the failed jobs")
                .hasSize(5);
        assertThat(kept.schema().findField("id").type().typeId()).isEqualTo(Type.TypeID.LONG);
        assertThat(warehouse.getParent().resolve("x")).doesNotExist();

        // an upsert into a sink that overwrites: refused in the router, before any row is written
        // (an overwrite replaces partitions, which an equality delete has no place in)
        assertThatThrownBy(() -> runBad(warehouse, new Bad("db.kept", good, List.of(), true), true))
                .hasStackTraceContaining("Dynamic record of input record 1 of router subtask 0")
                .hasStackTraceContaining(
                        "Table db.kept gets an upsert in a dynamic sink that overwrites: overwrite and upserts do"
                                + " not go together");
        assertThat(keptRows(warehouse))
                .as("after the upsert into an overwriting sink")
                .containsExactlyInAnyOrderElementsOf(committed);

        // a generator that throws on the third record, after two good ones reached the writer:
        // the job fails naming the record, and the two are never committed
        assertThatThrownBy(() -> runBad(warehouse, new ThrowingGenerator(new Bad("db.kept", good, List.of()), 3)))
                .hasStackTraceContaining("The dynamic sink's generator failed on input record 3 of router subtask 0")
                .hasStackTraceContaining("the generator cannot make record 3");
        assertThat(keptRows(warehouse)).as("after the generator failed").containsExactlyInAnyOrderElementsOf(committed);
        assertThat(IcebergTables.snapshots(IcebergTables.load(warehouse, "db", "kept")))
                .as("the first job's commit only")
                .hasSize(1);
    }

    /**
     * A record whose column {@code s} is now called {@code s2}: as upstream, the table gains an
     * optional column {@code s2} and keeps {@code s} (optional), which the new rows leave null,
     * as the old rows leave {@code s2}. Nothing tells a rename from a new column.
     */
    @Test
    void aRenamedColumnIsANewColumnAndTheOldOneIsPaddedWithNulls() throws Exception {
        Path warehouse = tmp.resolve("renamed");
        RowType before = row("id", new BigIntType(false), "s", new VarCharType(true, 8));
        runBad(warehouse, new Bad("db.kept", before, List.of()));
        RowType renamed = row("id", new BigIntType(false), "s2", new VarCharType(true, 8));
        runBad(warehouse, new Bad("db.kept", renamed, List.of()));

        Table kept = IcebergTables.load(warehouse, "db", "kept");
        assertThat(kept.schema().columns().stream()
                        .map(c -> c.name() + (c.isOptional() ? "?" : "") + ":" + c.type())
                        .collect(Collectors.toList()))
                .containsExactly("id:long", "s?:string", "s2?:string");
        assertThat(keptRows(warehouse))
                .as("id|s|s2")
                .containsExactlyInAnyOrder(
                        "1|v|null",
                        "2|v|null",
                        "3|v|null",
                        "4|v|null",
                        "5|v|null",
                        "1|null|v",
                        "2|null|v",
                        "3|null|v",
                        "4|null|v",
                        "5|null|v");
    }

    static RowType row(Object... namesAndTypes) {
        return EvolvingNumbers.row(namesAndTypes);
    }
}

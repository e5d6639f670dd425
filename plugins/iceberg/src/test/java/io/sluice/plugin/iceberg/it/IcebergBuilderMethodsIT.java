package io.sluice.plugin.iceberg.it;

import io.sluice.runtime.sink.TableSinkBuilder;
import io.sluice.runtime.sink.distribution.StatisticsType;
import io.sluice.runtime.sink.dynamic.DynamicRecord;
import io.sluice.runtime.sink.dynamic.DynamicRecordGenerator;
import io.sluice.runtime.sink.dynamic.DynamicSink;
import io.sluice.runtime.source.scan.ScanSource;
import io.sluice.runtime.source.scan.TableSourceBuilder;
import io.sluice.spi.distribution.DistributionMode;

import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Metric;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.flink.streaming.api.graph.StreamNode;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.CloseableIterator;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.hadoop.HadoopTables;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Every builder method the Iceberg write and configuration documents name, on Sluice's builders
 * ({@link TableSinkBuilder}, {@link DynamicSink}, {@link TableSourceBuilder}), each asserted on what
 * came out (rows, snapshots, branches, files, schemas, operator uids, gauges), so that a method that
 * did nothing fails its test. One small cluster and a Hadoop catalog in a temporary directory; a
 * handful of rows per job.
 */
class IcebergBuilderMethodsIT {

    private static final int SLOTS = 3;

    private static final InMemoryReporter METRICS = InMemoryReporter.createWithRetainedMetrics();

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(SLOTS)
                    .setConfiguration(METRICS.addToConfiguration(new Configuration()))
                    .build());

    private static final VarCharType STRING = new VarCharType(true, VarCharType.MAX_LENGTH);

    /** id, name, dt: the rows of the single-table sink's tests. */
    private static final RowType ROW =
            RowType.of(new LogicalType[] {new BigIntType(false), STRING, STRING}, new String[] {"id", "name", "dt"});

    private static final Schema SCHEMA = new Schema(
            Types.NestedField.required(1, "id", Types.LongType.get()),
            Types.NestedField.optional(2, "name", Types.StringType.get()),
            Types.NestedField.optional(3, "dt", Types.StringType.get()));

    @TempDir
    Path tmp;

    @BeforeAll
    static void onlyAfterPackaging() {
        TestPluginsDir.assumeIntegrationTestPhase();
    }

    // ---- TableSinkBuilder (upstream's FlinkSink) ----

    @Test
    void overwriteReplacesOnlyThePartitionsTheStreamWrites() throws Exception {
        Path warehouse = tmp.resolve("overwrite");
        create(warehouse, "t", PartitionSpec.builderFor(SCHEMA).identity("dt").build(), Map.of());
        write(warehouse, "t", List.of(row(1, "x", "a"), row(2, "x", "a"), row(3, "x", "b")), b -> b);
        write(warehouse, "t", List.of(row(10, "y", "a")), b -> b.overwrite(true));

        Table table = IcebergTables.load(warehouse, "db", "t");
        assertThat(rows(table)).containsExactlyInAnyOrder("10|y|a", "3|x|b");
        assertThat(table.currentSnapshot().operation()).isEqualTo("overwrite");
    }

    @Test
    void upsertByEqualityFieldColumnsKeepsTheLastVersionOfEachKey() throws Exception {
        Path warehouse = tmp.resolve("upsert");
        // a v2 table without identifier fields: the builder's equality fields are the only key
        create(warehouse, "t", PartitionSpec.unpartitioned(), Map.of(TableProperties.FORMAT_VERSION, "2"));
        write(warehouse, "t", List.of(row(1, "a", "d"), row(2, "a", "d"), row(3, "a", "d")), b -> b);
        write(
                warehouse,
                "t",
                List.of(row(2, "b", "d"), row(3, "b", "d"), row(4, "b", "d")),
                b -> b.upsert(true).equalityFieldColumns(List.of("id")));

        Table table = IcebergTables.load(warehouse, "db", "t");
        assertThat(rows(table)).containsExactlyInAnyOrder("1|a|d", "2|b|d", "3|b|d", "4|b|d");
        assertThat(table.currentSnapshot().summary()).containsEntry("added-equality-delete-files", "1");
    }

    @Test
    void toBranchCommitsToTheBranchAndLeavesMainAlone() throws Exception {
        Path warehouse = tmp.resolve("branch");
        create(warehouse, "t", PartitionSpec.unpartitioned(), Map.of());
        write(
                warehouse,
                "t",
                List.of(row(1, "a", "d"), row(2, "a", "d")),
                b -> b.toBranch("audit-branch")
                        .set("write-format", "avro")
                        .snapshotProperties(Map.of("pipeline", "ingest")));

        Table table = IcebergTables.load(warehouse, "db", "t");
        assertThat(table.currentSnapshot()).as("nothing on main").isNull();
        assertThat(ids(table, "audit-branch")).containsExactly(1L, 2L);
        Snapshot branch = table.snapshot(table.refs().get("audit-branch").snapshotId());
        assertThat(branch.summary()).containsEntry("pipeline", "ingest");
        assertThat(formats(table, branch)).containsOnly(FileFormat.AVRO);
    }

    @Test
    void hashOnAnUnpartitionedTableSendsEachEqualityKeyToOneWriter() throws Exception {
        Path warehouse = tmp.resolve("hash");
        Map<Long, Set<String>> hashed = writersPerKey(warehouse, "hashed", DistributionMode.HASH);
        assertThat(hashed)
                .hasSize(5)
                .allSatisfy((k, writers) ->
                        assertThat(writers).as("writers of k=%s", k).hasSize(1));
        // the same rows without hash: round-robin puts every key on several writers
        Map<Long, Set<String>> spread = writersPerKey(warehouse, "spread", DistributionMode.NONE);
        assertThat(spread.values()).anySatisfy(writers -> assertThat(writers).hasSizeGreaterThan(1));
    }

    /** k -> the writer subtasks whose files hold rows of k; 60 rows, k = id % 5, rebalanced over 3 writers. */
    private Map<Long, Set<String>> writersPerKey(Path warehouse, String name, DistributionMode mode) throws Exception {
        RowType keyed =
                RowType.of(new LogicalType[] {new BigIntType(false), new BigIntType(false)}, new String[] {"k", "id"});
        StreamExecutionEnvironment env = batch(SLOTS);
        DataStream<RowData> rows = env.fromSequence(1, 60)
                .map((MapFunction<Long, RowData>) i -> GenericRowData.of(i % 5, i))
                .returns(InternalTypeInfo.of(keyed))
                // round-robin to the writers whichever source subtask read which split (5 keys over 3
                // writers: in order, each key meets every writer)
                .rebalance();
        TableSinkBuilder.forRowData(rows)
                .target("iceberg")
                .catalog(catalog(warehouse))
                .table("db", name)
                .equalityFieldColumns(List.of("k"))
                .distributionMode(mode)
                .writeParallelism(SLOTS)
                .pluginsDir(TestPluginsDir.get())
                .append();
        env.execute("hash " + name);

        Table table = IcebergTables.load(warehouse, "db", name);
        assertThat(table.spec().isUnpartitioned()).isTrue();
        return writersPerValue(table, "k", 60);
    }

    /**
     * The writer subtasks whose data files hold rows of each value of {@code column}, after checking
     * that the table holds {@code rows} rows: data file names start with the writer's subtask index.
     */
    @SuppressWarnings("unchecked")
    private static <T> Map<T, Set<String>> writersPerValue(Table table, String column, long rows) throws Exception {
        Map<T, Set<String>> writers = new TreeMap<>();
        long count = 0;
        try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
            for (FileScanTask task : tasks) {
                String file = Path.of(task.file().location()).getFileName().toString();
                for (Record r : IcebergTables.parquet(table, task.file(), table.schema())) {
                    writers.computeIfAbsent((T) r.getField(column), k -> new TreeSet<>())
                            .add(file.substring(0, file.indexOf('-')));
                    count++;
                }
            }
        }
        assertThat(count).as("every row once").isEqualTo(rows);
        return writers;
    }

    @Test
    void rangeDistributionStatisticsTypeChoosesTheStatisticsTheShuffleKeeps() throws Exception {
        Path warehouse = tmp.resolve("range");
        create(warehouse, "t", PartitionSpec.builderFor(SCHEMA).identity("dt").build(), Map.of());
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        env.enableCheckpointing(100);
        DataStream<RowData> rows = env.fromSequence(1, 300)
                .map((MapFunction<Long, RowData>)
                        i -> GenericRowData.of(i, StringData.fromString("n"), StringData.fromString("d" + i % 3)))
                .returns(InternalTypeInfo.of(ROW));
        // three sort keys: Auto (the default) would keep Map statistics for them
        TableSinkBuilder.forRowData(rows)
                .target("iceberg")
                .catalog(catalog(warehouse))
                .table("db", "t")
                .distributionMode(DistributionMode.RANGE)
                .rangeDistributionStatisticsType(StatisticsType.SKETCH)
                .rangeDistributionSortKeyBaseWeight(0.0d)
                .pluginsDir(TestPluginsDir.get())
                .append();
        JobID job = env.execute("range with sketch statistics").getJobID();

        assertThat(gauges(job, "rangeStatisticsType")).hasSize(2).containsOnly("Sketch");
        // the base weight reaches the sink's options: a value outside [0, 1) is refused by name
        // (what the weight does: MapRangeAssignmentTest#theBaseWeightKeepsTheLongTailOfDaysFromOneWriter)
        assertThatThrownBy(() -> {
                    StreamExecutionEnvironment other = StreamExecutionEnvironment.getExecutionEnvironment();
                    TableSinkBuilder.forRowData(rows(other, List.of(row(1, "n", "d0"))))
                            .target("iceberg")
                            .catalog(catalog(warehouse))
                            .table("db", "t")
                            .distributionMode(DistributionMode.RANGE)
                            .rangeDistributionSortKeyBaseWeight(1.0d)
                            .pluginsDir(TestPluginsDir.get())
                            .append();
                    other.getStreamGraph();
                })
                .hasStackTraceContaining("'range-distribution-sort-key-base-weight' '1.0'");
        assertThat(IcebergTables.records(IcebergTables.load(warehouse, "db", "t")))
                .hasSize(300);
    }

    @Test
    void aBatchJobCommitsOnceFromOneCommitterWhateverItsWriters() throws Exception {
        Path warehouse = tmp.resolve("committer");
        StreamExecutionEnvironment env = batch(SLOTS);
        DataStream<RowData> rows = env.fromSequence(1, 30)
                .map((MapFunction<Long, RowData>)
                        i -> GenericRowData.of(i, StringData.fromString("n"), StringData.fromString("d")))
                .returns(InternalTypeInfo.of(ROW))
                // every writer gets rows: a source subtask may read several splits of the sequence
                .rebalance();
        TableSinkBuilder.forRowData(rows)
                .target("iceberg")
                .catalog(catalog(warehouse))
                .table("db", "t")
                .writeParallelism(SLOTS)
                .uidPrefix("rows")
                .pluginsDir(TestPluginsDir.get())
                .append();
        StreamGraph graph = env.getStreamGraph(false);
        Map<String, Integer> parallelism = graph.getStreamNodes().stream()
                .collect(Collectors.toMap(StreamNode::getOperatorName, StreamNode::getParallelism, (a, b) -> a));
        // one aggregator collects every writer's files and hands them all to committer subtask 0
        assertThat(parallelism)
                .containsEntry("Sluice iceberg sink: Writer", SLOTS)
                .containsEntry("Sluice iceberg sink: Sluice commit aggregator: iceberg", 1);
        assertThat(uids(graph)).contains("rows-sink");
        env.execute("batch commit");

        Table table = IcebergTables.load(warehouse, "db", "t");
        List<Snapshot> snapshots = IcebergTables.snapshots(table);
        assertThat(snapshots).as("one commit for the whole job").hasSize(1);
        assertThat(snapshots.get(0).summary())
                .containsEntry("added-data-files", String.valueOf(SLOTS))
                .containsEntry("added-records", "30");
    }

    // ---- TableLoader.fromHadoopTable(path): a table addressed by its directory ----

    @Test
    void aPathAddressedTableIsWrittenAndReadByItsDirectory() throws Exception {
        String location =
                tmp.resolve("tables").resolve("lake").resolve("events").toUri().toString();
        Table created = new HadoopTables(new org.apache.hadoop.conf.Configuration())
                .create(SCHEMA, PartitionSpec.unpartitioned(), location);
        StreamExecutionEnvironment env = batch(1);
        TableSinkBuilder.forRowData(rows(env, List.of(row(1, "a", "d"), row(2, "b", "d"))))
                .target("iceberg")
                .tablePath(location)
                .pluginsDir(TestPluginsDir.get())
                .append();
        env.execute("write by path");

        Table byPath = new HadoopTables(new org.apache.hadoop.conf.Configuration()).load(location);
        assertThat(byPath.uuid()).isEqualTo(created.uuid());
        assertThat(rows(byPath)).containsExactlyInAnyOrder("1|a|d", "2|b|d");
        ScanSource source = TableSourceBuilder.forRowData()
                .target("iceberg")
                .tablePath(location)
                .pluginsDir(TestPluginsDir.get())
                .build();
        assertThat(collect(batch(1), source)).containsExactlyInAnyOrder("1|a|d", "2|b|d");
    }

    // ---- TableSourceBuilder (upstream's IcebergSource) ----

    @Test
    void startSnapshotIdAndSetBoundAnIncrementalRead() throws Exception {
        Path warehouse = tmp.resolve("read");
        create(warehouse, "t", PartitionSpec.unpartitioned(), Map.of());
        List<Long> snapshots = new ArrayList<>();
        for (int s = 0; s < 3; s++) {
            write(warehouse, "t", List.of(row(3 * s + 1, "n", "d"), row(3 * s + 2, "n", "d")), b -> b);
            snapshots.add(
                    IcebergTables.load(warehouse, "db", "t").currentSnapshot().snapshotId());
        }
        // what the second commit added: after the first snapshot, up to the second
        ScanSource between = TableSourceBuilder.forRowData()
                .target("iceberg")
                .catalog(catalog(warehouse))
                .table("db", "t")
                .startSnapshotId(snapshots.get(0))
                .set("end-snapshot-id", String.valueOf(snapshots.get(1)))
                .pluginsDir(TestPluginsDir.get())
                .build();
        assertThat(collect(batch(1), between)).containsExactlyInAnyOrder("4|n|d", "5|n|d");

        // the document's sample: a continuous read from a snapshot on
        ScanSource continuous = TableSourceBuilder.forRowData()
                .target("iceberg")
                .catalog(catalog(warehouse))
                .table("db", "t")
                .streaming(true)
                .streamingStartingStrategy("INCREMENTAL_FROM_SNAPSHOT_ID")
                .startSnapshotId(snapshots.get(1))
                .monitorInterval(java.time.Duration.ofMillis(100))
                .pluginsDir(TestPluginsDir.get())
                .build();
        StreamExecutionEnvironment streaming = StreamExecutionEnvironment.getExecutionEnvironment();
        streaming.setParallelism(1);
        List<String> read = new ArrayList<>();
        try (CloseableIterator<RowData> it = streaming
                .fromSource(continuous, WatermarkStrategy.noWatermarks(), "continuous")
                .executeAndCollect("continuous read")) {
            while (read.size() < 4 && it.hasNext()) {
                read.add(string(it.next()));
            }
        }
        assertThat(read).containsExactlyInAnyOrder("4|n|d", "5|n|d", "7|n|d", "8|n|d");
    }

    // ---- DynamicSink (upstream's DynamicIcebergSink) ----

    @Test
    void dynamicOverwriteReplacesTheTablesItWrites() throws Exception {
        Path warehouse = tmp.resolve("dyn-overwrite");
        create(warehouse, "t", PartitionSpec.unpartitioned(), Map.of());
        write(warehouse, "t", List.of(row(1, "a", "d"), row(2, "a", "d")), b -> b);
        StreamExecutionEnvironment env = batch(1);
        dynamic(env, warehouse, List.of(row(7, "b", "d")), (r, out) -> out.collect(record("db.t", r)))
                .overwrite(true)
                .append();
        env.execute("dynamic overwrite");

        Table table = IcebergTables.load(warehouse, "db", "t");
        assertThat(rows(table)).containsExactly("7|b|d");
        assertThat(table.currentSnapshot().operation()).isEqualTo("overwrite");
    }

    @Test
    void dynamicToBranchWritesRecordsThatNameNoBranchToIt() throws Exception {
        Path warehouse = tmp.resolve("dyn-branch");
        StreamExecutionEnvironment env = batch(1);
        dynamic(env, warehouse, List.of(row(1, "a", "d"), row(2, "a", "d")), (r, out) -> out.collect(record("db.t", r)))
                .toBranch("audit")
                .append();
        env.execute("dynamic branch");

        Table table = IcebergTables.load(warehouse, "db", "t");
        assertThat(table.currentSnapshot()).as("nothing on main").isNull();
        assertThat(ids(table, "audit")).containsExactly(1L, 2L);
    }

    /**
     * A dynamic record of mode RANGE is distributed as HASH, as upstream's dynamic sink does: every
     * row of a partition reaches one writer. The same rows with NONE go round-robin, so a partition
     * meets several writers.
     */
    @Test
    void dynamicRangeRecordsGoToTheirPartitionsWriterAsHash() throws Exception {
        Path warehouse = tmp.resolve("dyn-range");
        Map<String, Set<String>> ranged = dynamicWritersPerPartition(warehouse, "ranged", DistributionMode.RANGE);
        assertThat(ranged)
                .hasSize(5)
                .allSatisfy((dt, writers) ->
                        assertThat(writers).as("writers of dt=%s", dt).hasSize(1));
        Map<String, Set<String>> spread = dynamicWritersPerPartition(warehouse, "spread", DistributionMode.NONE);
        assertThat(spread.values()).anySatisfy(writers -> assertThat(writers).hasSizeGreaterThan(1));
    }

    /** dt -> the writer subtasks whose files hold rows of dt; 60 rows, dt = id % 5, over 3 writers. */
    private Map<String, Set<String>> dynamicWritersPerPartition(Path warehouse, String name, DistributionMode mode)
            throws Exception {
        List<RowData> input = new ArrayList<>();
        for (long i = 1; i <= 60; i++) {
            input.add(row(i, "n", "d" + i % 5));
        }
        StreamExecutionEnvironment env = batch(SLOTS);
        dynamic(
                        env,
                        warehouse,
                        input,
                        (r, out) -> out.collect(
                                new DynamicRecord("db." + name, null, ROW, r, List.of("identity(dt)"), mode, SLOTS)))
                .append();
        env.execute("dynamic " + mode + " " + name);

        return writersPerValue(IcebergTables.load(warehouse, "db", name), "dt", 60);
    }

    @Test
    void dynamicSetAllAppliesWriteOptionsToEveryTable() throws Exception {
        Path warehouse = tmp.resolve("dyn-setall");
        StreamExecutionEnvironment env = batch(1);
        dynamic(
                        env,
                        warehouse,
                        List.of(row(1, "a", "d"), row(2, "a", "d")),
                        (r, out) -> out.collect(record(r.getLong(0) % 2 == 0 ? "db.even" : "db.odd", r)))
                .setAll(Map.of("write-format", "orc"))
                .append();
        env.execute("dynamic setAll");

        for (String name : List.of("even", "odd")) {
            Table table = IcebergTables.load(warehouse, "db", name);
            assertThat(formats(table, table.currentSnapshot())).as(name).containsOnly(FileFormat.ORC);
            assertThat(IcebergTables.records(table)).as(name).hasSize(1);
        }
    }

    @Test
    void dynamicTableCreatorGivesTheTablesTheSinkCreatesTheirProperties() throws Exception {
        Path warehouse = tmp.resolve("dyn-creator");
        StreamExecutionEnvironment env = batch(1);
        dynamic(env, warehouse, List.of(row(1, "a", "d")), (r, out) -> out.collect(record("db.t", r)))
                .tableCreator(new OrcTables())
                .append();
        env.execute("dynamic table creator");

        Table table = IcebergTables.load(warehouse, "db", "t");
        assertThat(table.properties())
                .containsEntry("created-for", "db.t")
                .containsEntry(TableProperties.DEFAULT_FILE_FORMAT, "orc");
        assertThat(formats(table, table.currentSnapshot())).containsOnly(FileFormat.ORC);
    }

    /** New tables in ORC, with their own name in a property. */
    static final class OrcTables implements io.sluice.runtime.sink.dynamic.DynamicTableCreator {
        private static final long serialVersionUID = 1L;

        @Override
        public Map<String, String> properties(String table) {
            return Map.of("created-for", table, TableProperties.DEFAULT_FILE_FORMAT, "orc");
        }
    }

    @Test
    void dropUnusedColumnsDropsTheColumnsTheInputLacksWhenTheTableEvolves() throws Exception {
        Path warehouse = tmp.resolve("dyn-drop");
        create(warehouse, "t", PartitionSpec.unpartitioned(), Map.of());
        // the input lacks name and dt and brings a new column, so the table evolves
        RowType input = RowType.of(new LogicalType[] {new BigIntType(false), STRING}, new String[] {"id", "added"});
        StreamExecutionEnvironment env = batch(1);
        DataStream<RowData> rows = env.fromSequence(1, 2)
                .map((MapFunction<Long, RowData>) i -> GenericRowData.of(i, StringData.fromString("x" + i)))
                .returns(InternalTypeInfo.of(input));
        DynamicSink.forInput(rows)
                .generator((DynamicRecordGenerator<RowData>) (r, out) ->
                        out.collect(new DynamicRecord("db.t", null, input, r, List.of(), DistributionMode.NONE, 1)))
                .target("iceberg")
                .catalog(catalog(warehouse))
                .pluginsDir(TestPluginsDir.get())
                .dropUnusedColumns(true)
                .append();
        env.execute("dynamic drop");

        Table table = IcebergTables.load(warehouse, "db", "t");
        assertThat(table.schema().columns()).extracting(Types.NestedField::name).containsExactly("id", "added");
        assertThat(rows(table)).containsExactlyInAnyOrder("1|x1", "2|x2");
    }

    /** Three schemas of one table, each record another: a cache of one schema misses every time. */
    private static final RowType ONLY_ID = RowType.of(new LogicalType[] {new BigIntType(false)}, new String[] {"id"});

    private static final RowType ID_NAME =
            RowType.of(new LogicalType[] {new BigIntType(false), STRING}, new String[] {"id", "name"});

    private static final RowType ID_DT =
            RowType.of(new LogicalType[] {new BigIntType(false), STRING}, new String[] {"id", "dt"});

    @Test
    void inputSchemasPerTableCacheMaxSizeBoundsTheSchemasKeptResolved() throws Exception {
        Path warehouse = tmp.resolve("dyn-schemas");
        create(warehouse, "t", PartitionSpec.unpartitioned(), Map.of());
        StreamExecutionEnvironment env = batch(1);
        DataStream<Long> ids = env.fromSequence(1, 30);
        DynamicSink.forInput(ids)
                .generator((DynamicRecordGenerator<Long>) (i, out) -> {
                    int which = (int) (i % 3);
                    RowType schema = which == 0 ? ONLY_ID : which == 1 ? ID_NAME : ID_DT;
                    RowData row =
                            which == 0 ? GenericRowData.of(i) : GenericRowData.of(i, StringData.fromString("v" + i));
                    out.collect(new DynamicRecord("db.t", null, schema, row, List.of(), DistributionMode.NONE, 1));
                })
                .target("iceberg")
                .catalog(catalog(warehouse))
                .pluginsDir(TestPluginsDir.get())
                .inputSchemasPerTableCacheMaxSize(1)
                .append();
        JobID job = env.execute("dynamic schema cache").getJobID();

        // every record compared anew (the default of 10 would compare each schema once: 3)
        assertThat(gauges(job, "inputSchemaResolutions").stream()
                        .mapToLong(Long::parseLong)
                        .sum())
                .isEqualTo(30);
        assertThat(IcebergTables.records(IcebergTables.load(warehouse, "db", "t")))
                .hasSize(30);
    }

    @Test
    void dynamicUidPrefixNamesEveryOperatorOfTheSink() throws Exception {
        Path warehouse = tmp.resolve("dyn-uids");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        dynamic(env, warehouse, List.of(row(1, "a", "d")), (r, out) -> out.collect(record("db.t", r)))
                .uidPrefix("events")
                .append();
        assertThat(uids(env.getStreamGraph(false)))
                .contains(
                        "events-router",
                        "events-updater",
                        "events-writer",
                        "events-forward-writer",
                        "events-commit",
                        "events-end");
    }

    // ---- helpers ----

    private static Map<String, String> catalog(Path warehouse) {
        return Map.of("catalog-type", "hadoop", "warehouse", warehouse.toUri().toString());
    }

    private static void create(Path warehouse, String name, PartitionSpec spec, Map<String, String> properties)
            throws Exception {
        try (HadoopCatalog catalog = IcebergTables.catalog(warehouse)) {
            catalog.createTable(TableIdentifier.of(Namespace.of("db"), name), SCHEMA, spec, properties);
        }
    }

    private static StreamExecutionEnvironment batch(int parallelism) {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setRuntimeMode(RuntimeExecutionMode.BATCH);
        env.setParallelism(parallelism);
        return env;
    }

    private static RowData row(long id, String name, String dt) {
        return GenericRowData.of(id, StringData.fromString(name), StringData.fromString(dt));
    }

    private static DataStream<RowData> rows(StreamExecutionEnvironment env, List<RowData> rows) {
        return env.fromData(rows, InternalTypeInfo.of(ROW));
    }

    /** One BATCH job of one writer that writes {@code rows} to db.{@code name} through the builder as configured. */
    private static void write(
            Path warehouse,
            String name,
            List<RowData> rows,
            java.util.function.UnaryOperator<TableSinkBuilder<RowData>> configure)
            throws Exception {
        StreamExecutionEnvironment env = batch(1);
        configure
                .apply(TableSinkBuilder.forRowData(rows(env, rows))
                        .target("iceberg")
                        .catalog(catalog(warehouse))
                        .table("db", name)
                        .pluginsDir(TestPluginsDir.get()))
                .append();
        env.execute("write " + name);
    }

    private static DynamicRecord record(String table, RowData row) {
        return new DynamicRecord(table, null, ROW, row, List.of(), DistributionMode.NONE, 1);
    }

    private static DynamicSink.Builder<RowData> dynamic(
            StreamExecutionEnvironment env,
            Path warehouse,
            List<RowData> rows,
            DynamicRecordGenerator<RowData> generator) {
        return DynamicSink.forInput(rows(env, rows))
                .generator(generator)
                .target("iceberg")
                .catalog(catalog(warehouse))
                .pluginsDir(TestPluginsDir.get());
    }

    private static List<String> rows(Table table) {
        return IcebergTables.records(table).stream()
                .map(r -> {
                    List<String> values = new ArrayList<>();
                    for (int i = 0; i < r.size(); i++) {
                        values.add(String.valueOf(r.get(i)));
                    }
                    return String.join("|", values);
                })
                .collect(Collectors.toList());
    }

    private static List<Long> ids(Table table, String branch) throws Exception {
        table.refresh();
        assertThat(table.refs()).containsKey(branch);
        List<Long> ids = new ArrayList<>();
        try (CloseableIterable<Record> records = IcebergGenerics.read(table)
                .useSnapshot(table.refs().get(branch).snapshotId())
                .build()) {
            records.forEach(r -> ids.add((Long) r.getField("id")));
        }
        ids.sort(Long::compare);
        return ids;
    }

    private static List<String> collect(StreamExecutionEnvironment env, ScanSource source) throws Exception {
        List<String> out = new ArrayList<>();
        try (CloseableIterator<RowData> it =
                env.fromSource(source, WatermarkStrategy.noWatermarks(), "read").executeAndCollect("read")) {
            it.forEachRemaining(r -> out.add(string(r)));
        }
        return out;
    }

    private static String string(RowData r) {
        return r.getLong(0) + "|" + r.getString(1) + "|" + r.getString(2);
    }

    private static List<FileFormat> formats(Table table, Snapshot snapshot) throws Exception {
        List<FileFormat> formats = new ArrayList<>();
        try (CloseableIterable<FileScanTask> tasks =
                table.newScan().useSnapshot(snapshot.snapshotId()).planFiles()) {
            tasks.forEach(task -> formats.add(task.file().format()));
        }
        assertThat(formats).as("data files of %s", table.name()).isNotEmpty();
        return formats;
    }

    private static Set<String> uids(StreamGraph graph) {
        return graph.getStreamNodes().stream()
                .map(StreamNode::getTransformationUID)
                .filter(java.util.Objects::nonNull)
                .collect(Collectors.toSet());
    }

    /** The values of a gauge, one per subtask that has it, of a job. */
    private static List<String> gauges(JobID job, String name) {
        List<String> values = new ArrayList<>();
        for (Map.Entry<org.apache.flink.metrics.MetricGroup, Map<String, Metric>> e :
                METRICS.getMetricsByGroup().entrySet()) {
            if (!job.toString().equals(e.getKey().getAllVariables().get("<job_id>"))) {
                continue;
            }
            Metric metric = e.getValue().get(name);
            if (metric instanceof Gauge) {
                values.add(String.valueOf(((Gauge<?>) metric).getValue()));
            }
        }
        return values;
    }
}

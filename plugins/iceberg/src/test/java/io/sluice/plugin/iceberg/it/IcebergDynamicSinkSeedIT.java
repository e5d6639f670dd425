package io.sluice.plugin.iceberg.it;

import io.sluice.runtime.sink.dynamic.DynamicSink;
import io.sluice.runtime.sink.dynamic.iceberg.IcebergAdapters;
import io.sluice.testservers.readme.ReadmeJavaExamples;
import io.sluice.testservers.readme.RecordingEnvironment;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.test.junit5.InjectMiniCluster;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DistributionMode;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types.LongType;
import org.apache.iceberg.types.Types.NestedField;
import org.apache.iceberg.types.Types.StringType;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The seed's two examples of the dynamic sink, as the README translates them: a generator that
 * builds each record from Iceberg's own {@code TableIdentifier}, {@code Schema}, {@code
 * PartitionSpec} and {@code DistributionMode} through {@link IcebergAdapters} (the job's Iceberg,
 * converted on its side), writing a branch (IcebergObjectStoreIT runs the README's own block);
 * and the configuration example, taken from the README as written: a custom generator that sets a
 * record's fields one by one, with the sink's properties and caches. Read back with Iceberg's
 * generic reader; the compression the sink set is in the files' footers.
 */
class IcebergDynamicSinkSeedIT {

    private static final long COUNT = 500;

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    // the README's configuration example writes with four writers
                    .setNumberSlotsPerTaskManager(4)
                    .build());

    static final Schema SCHEMA = new Schema(
            NestedField.required(1, "id", LongType.get()), NestedField.optional(2, "data", StringType.get()));

    @TempDir
    Path tmp;

    @BeforeAll
    static void onlyAfterPackaging() {
        TestPluginsDir.assumeIntegrationTestPhase();
    }

    private static DataStream<RowData> rows(StreamExecutionEnvironment env) {
        return env.fromSource(
                        new DataGeneratorSource<>(i -> i + 1, COUNT, Types.LONG),
                        WatermarkStrategy.noWatermarks(),
                        "numbers")
                .map(i -> (RowData) GenericRowData.of(i, StringData.fromString("d" + i)))
                .returns(InternalTypeInfo.of(IcebergAdapters.rowType(SCHEMA)));
    }

    @Test
    void theFirstExampleWritesABranchWithIcebergsOwnTypes() throws Exception {
        Path warehouse = tmp.resolve("warehouse");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        env.enableCheckpointing(200);
        DynamicSink.forInput(rows(env))
                .generator((inputRecord, out) -> out.collect(IcebergAdapters.record(
                        TableIdentifier.of("db", "table"),
                        "branch",
                        SCHEMA,
                        (RowData) inputRecord,
                        PartitionSpec.unpartitioned(),
                        DistributionMode.HASH,
                        2)))
                .target("iceberg")
                .pluginsDir(TestPluginsDir.get())
                .catalog(Map.of(
                        "catalog-type", "hadoop", "warehouse", warehouse.toUri().toString()))
                .writeParallelism(2)
                .immediateTableUpdate(true)
                .append();
        env.execute("the seed's first example");

        Table table = IcebergTables.load(warehouse, "db", "table");
        assertThat(table.schema().asStruct()).isEqualTo(SCHEMA.asStruct());
        assertThat(table.refs()).containsKey("branch");
        assertThat(ids(table, "branch")).hasSize((int) COUNT).first().isEqualTo(1L);
        assertThat(ids(table, "branch").last()).isEqualTo(COUNT);
        assertThat(table.currentSnapshot()).as("nothing on main").isNull();
    }

    /**
     * The README's configuration example, run as written ({@link ReadmeJavaExamples}: compiled
     * against the test class path, shipped as the job's jar) with the variables it leaves to its
     * reader given here: its table {@code db.configured} of a {@code hadoop} catalog, written with
     * four writers; every row is in the table once and every column chunk is gzip-compressed, as
     * the sink's property says.
     */
    @Test
    void theConfigurationExampleSetsWritePropertiesAndCaches(@InjectMiniCluster MiniCluster cluster) throws Exception {
        Path warehouse = tmp.resolve("configured");
        String className = "Readme_iceberg_dynamic_sink_configured";
        String source = ReadmeJavaExamples.source(
                ReadmeJavaExamples.block("iceberg-dynamic-sink-configured"),
                README_PACKAGE,
                className,
                List.of(
                        "import org.apache.flink.table.data.RowData;",
                        "import org.apache.flink.streaming.api.datastream.DataStream;",
                        "import java.util.Map;"),
                Map.of(
                        "inputStream", "DataStream<RowData>",
                        "catalogOptions", "Map<String, String>",
                        "database", "String",
                        "tableName", "String",
                        "schema", "org.apache.iceberg.Schema",
                        "spec", "org.apache.iceberg.PartitionSpec"),
                Map.of());
        Path jar = ReadmeJavaExamples.compile(tmp, README_PACKAGE, className, source);
        RecordingEnvironment env = new RecordingEnvironment(cluster, jar);
        env.enableCheckpointing(200);
        Map<String, Object> in = new HashMap<>();
        in.put("inputStream", rows(env));
        in.put(
                "catalogOptions",
                Map.of("catalog-type", "hadoop", "warehouse", warehouse.toUri().toString()));
        in.put("database", "db");
        in.put("tableName", "configured");
        in.put("schema", SCHEMA);
        in.put("spec", PartitionSpec.unpartitioned());
        ReadmeJavaExamples.run(
                jar,
                README_PACKAGE + "." + className,
                getClass().getClassLoader(),
                TestPluginsDir.get(),
                in,
                () -> env.execute("the README's configuration example"));

        for (String name : List.of("configured")) {
            Table table = IcebergTables.load(warehouse, "db", name);
            TreeSet<Long> ids = ids(table, null);
            assertThat(ids).as(name).hasSize((int) COUNT).first().isEqualTo(1L);
            assertThat(ids.last()).isEqualTo(COUNT);
            List<String> codecs = new ArrayList<>();
            try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
                for (FileScanTask task : tasks) {
                    DataFile file = task.file();
                    try (ParquetFileReader reader = ParquetFileReader.open(HadoopInputFile.fromPath(
                            new org.apache.hadoop.fs.Path(file.location()),
                            new org.apache.hadoop.conf.Configuration()))) {
                        for (BlockMetaData block : reader.getFooter().getBlocks()) {
                            for (ColumnChunkMetaData column : block.getColumns()) {
                                codecs.add(column.getCodec().name());
                            }
                        }
                    }
                }
            }
            assertThat(codecs)
                    .as("%s's column chunks, compressed as the sink's property says", name)
                    .isNotEmpty()
                    .containsOnly("GZIP");
        }
    }

    private static final String README_PACKAGE = "io.sluice.plugin.iceberg.it.readme";

    private static TreeSet<Long> ids(Table table, String branch) throws Exception {
        TreeSet<Long> ids = new TreeSet<>();
        IcebergGenerics.ScanBuilder scan = IcebergGenerics.read(table);
        if (branch != null) {
            scan = scan.useSnapshot(table.refs().get(branch).snapshotId());
        }
        try (CloseableIterable<Record> records = scan.build()) {
            for (Record r : records) {
                assertThat(ids.add((Long) r.getField("id")))
                        .as("id %s once", r.getField("id"))
                        .isTrue();
            }
        }
        return ids;
    }
}

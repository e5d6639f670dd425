package io.sluice.plugin.iceberg.it;

import io.sluice.runtime.adapt.iceberg.IcebergAdapters;
import io.sluice.runtime.sink.dynamic.DynamicRecord;
import io.sluice.runtime.sink.dynamic.DynamicRecordGenerator;
import io.sluice.runtime.sink.dynamic.DynamicSink;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.Collector;
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
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The seed's two examples of the dynamic sink, as the README translates them: a generator that
 * builds each record from Iceberg's own {@code TableIdentifier}, {@code Schema}, {@code
 * PartitionSpec} and {@code DistributionMode} through {@link IcebergAdapters} (the job's Iceberg,
 * converted on its side), writing a branch; and a custom generator that sets a record's fields
 * one by one, with the configuration example's sink properties and caches. Read back with
 * Iceberg's generic reader; the compression the sink set is in the files' footers.
 */
class IcebergDynamicSinkSeedIT {

    private static final long COUNT = 500;

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(2)
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

    /** The seed's {@code CustomRecordGenerator}: a record built field by field. */
    static final class CustomRecordGenerator implements DynamicRecordGenerator<RowData> {
        private static final long serialVersionUID = 1L;

        @Override
        public void generate(RowData row, Collector<DynamicRecord> out) {
            DynamicRecord record = new DynamicRecord();
            // the table from the business logic: odd and even ids to two tables
            TableIdentifier tableIdentifier = TableIdentifier.of("db", row.getLong(0) % 2 == 0 ? "even" : "odd");
            record.setTable(IcebergAdapters.table(tableIdentifier));
            record.setSchema(IcebergAdapters.rowType(SCHEMA));
            record.setSpec(IcebergAdapters.spec(PartitionSpec.unpartitioned()));
            record.setRow(row);
            // the maximum number of parallel writers for this table/branch/schema/spec
            record.setWriteParallelism(2);
            record.setDistributionMode(io.sluice.spi.distribution.DistributionMode.NONE);
            out.collect(record);
        }
    }

    @Test
    void theConfigurationExampleSetsWritePropertiesAndCaches() throws Exception {
        Path warehouse = tmp.resolve("configured");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        env.enableCheckpointing(200);
        DynamicSink.Builder<RowData> builder = DynamicSink.forInput(rows(env));
        builder.set("write.parquet.compression-codec", "gzip");
        builder.writeParallelism(2).uidPrefix("dynamic-sink").cacheMaxSize(500).cacheRefreshMs(5000);
        builder.target("iceberg")
                .pluginsDir(TestPluginsDir.get())
                .catalog(Map.of(
                        "catalog-type", "hadoop", "warehouse", warehouse.toUri().toString()));
        builder.generator(new CustomRecordGenerator());
        builder.append();
        env.execute("the seed's configuration example");

        for (String name : List.of("even", "odd")) {
            Table table = IcebergTables.load(warehouse, "db", name);
            TreeSet<Long> ids = ids(table, null);
            assertThat(ids).as(name).hasSize((int) COUNT / 2).allMatch(id -> id % 2 == (name.equals("even") ? 0 : 1));
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

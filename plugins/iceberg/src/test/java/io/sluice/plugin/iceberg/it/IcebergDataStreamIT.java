package io.sluice.plugin.iceberg.it;

import io.sluice.runtime.adapt.AvroAdapters;
import io.sluice.runtime.adapt.RowAdapter;
import io.sluice.runtime.plugin.PluginRegistry;
import io.sluice.runtime.plugin.PluginSettings;
import io.sluice.runtime.sink.TableSinkBuilder;
import io.sluice.runtime.source.scan.ScanSource;
import io.sluice.runtime.source.scan.TableSourceBuilder;

import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
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
import org.apache.iceberg.data.Record;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The DataStream path into and out of Iceberg: {@link TableSinkBuilder}, with FlinkSink's builder
 * methods, appends a stream of rows (which {@link TableSourceBuilder} reads back), and a stream of
 * Avro {@code GenericRecord}s converted on the job's side with the job's own Avro (timestamps at
 * the precision their logical type declares); the plugin's Avro, a different class from the job's,
 * never meets the records.
 */
class IcebergDataStreamIT {

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(2)
                    .build());

    private static final RowType ROW = RowType.of(
            new LogicalType[] {new BigIntType(false), new VarCharType(true, 20)}, new String[] {"id", "name"});

    @TempDir
    Path tmp;

    @BeforeAll
    static void onlyAfterPackaging() {
        TestPluginsDir.assumeIntegrationTestPhase();
    }

    private Map<String, String> catalog(Path warehouse) {
        return Map.of("catalog-type", "hadoop", "warehouse", warehouse.toUri().toString());
    }

    private static List<Record> read(Path warehouse, String table) {
        return IcebergTables.records(IcebergTables.load(warehouse, "db", table));
    }

    @Test
    void rowsAppendThroughTheFlinkSinkStyleBuilder() throws Exception {
        Path warehouse = tmp.resolve("warehouse");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setRuntimeMode(RuntimeExecutionMode.BATCH);
        DataStream<RowData> rows = env.fromSequence(1, 1000)
                .map((MapFunction<Long, RowData>) i -> GenericRowData.of(i, StringData.fromString("n" + i)))
                .returns(InternalTypeInfo.of(ROW));
        TableSinkBuilder.forRowData(rows)
                .target("iceberg")
                .catalog(catalog(warehouse))
                .table("db", "rows")
                .set("write-format", "orc")
                .writeParallelism(2)
                .uidPrefix("rows")
                .pluginsDir(TestPluginsDir.get())
                .append();
        env.execute("rows into iceberg");

        List<Record> records = read(warehouse, "rows");
        assertThat(records).hasSize(1000);
        assertThat(records).extracting(r -> (Long) r.getField("id")).doesNotHaveDuplicates();
        assertThat(records).allSatisfy(r -> assertThat(r.getField("name")).isEqualTo("n" + r.getField("id")));
        assertThat(IcebergTables.load(warehouse, "db", "rows").currentSnapshot().summary())
                .containsKey("flink.job-id");
    }

    @Test
    void rowsWrittenByTheSinkBuilderReadBackThroughTheSourceBuilder() throws Exception {
        Path warehouse = tmp.resolve("warehouse");
        StreamExecutionEnvironment write = StreamExecutionEnvironment.getExecutionEnvironment();
        write.setRuntimeMode(RuntimeExecutionMode.BATCH);
        DataStream<RowData> rows = write.fromSequence(1, 500)
                .map((MapFunction<Long, RowData>) i -> GenericRowData.of(i, StringData.fromString("n" + i)))
                .returns(InternalTypeInfo.of(ROW));
        TableSinkBuilder.forRowData(rows)
                .target("iceberg")
                .catalog(catalog(warehouse))
                .table("db", "round")
                .pluginsDir(TestPluginsDir.get())
                .append();
        write.execute("rows into iceberg");

        StreamExecutionEnvironment read = StreamExecutionEnvironment.getExecutionEnvironment();
        read.setRuntimeMode(RuntimeExecutionMode.BATCH);
        read.setParallelism(2);
        // no tableSchema(...): the builder reads every column of the table, in the table's order
        ScanSource source = TableSourceBuilder.forRowData()
                .target("iceberg")
                .catalog(catalog(warehouse))
                .table("db", "round")
                .pluginsDir(TestPluginsDir.get())
                .build();
        assertThat(source.descriptor().rowType().getFieldNames()).containsExactly("id", "name");
        List<String> back = new ArrayList<>();
        try (CloseableIterator<RowData> it = read.fromSource(source, WatermarkStrategy.noWatermarks(), "round")
                .executeAndCollect("iceberg rows back")) {
            it.forEachRemaining(r -> back.add(r.getLong(0) + "|" + r.getString(1)));
        }
        assertThat(back)
                .containsExactlyInAnyOrderElementsOf(LongStream.rangeClosed(1, 500)
                        .mapToObj(i -> i + "|n" + i)
                        .collect(Collectors.toList()));

        assertThatThrownBy(() -> TableSourceBuilder.forRowData()
                        .catalog(catalog(warehouse))
                        .table("db", "round")
                        .pluginsDir(TestPluginsDir.get())
                        .build())
                .hasMessageContaining("target(");
        assertThatThrownBy(() -> TableSourceBuilder.forRowData()
                        .target("iceberg")
                        .catalog(catalog(warehouse))
                        .table("db", "missing")
                        .pluginsDir(TestPluginsDir.get())
                        .build())
                .hasStackTraceContaining("missing");
    }

    @Test
    void genericRecordsConvertWithTheJobsAvroAndKeepTheirPrecision() throws Exception {
        Path warehouse = tmp.resolve("warehouse");
        Schema schema = SchemaBuilder.record("Payment")
                .fields()
                .requiredLong("id")
                .optionalString("note")
                .name("at_millis")
                .type(LogicalTypes.timestampMillis().addToSchema(Schema.create(Schema.Type.LONG)))
                .noDefault()
                .name("at_micros")
                .type(LogicalTypes.timestampMicros().addToSchema(Schema.create(Schema.Type.LONG)))
                .noDefault()
                .endRecord();
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setRuntimeMode(RuntimeExecutionMode.BATCH);
        env.getConfig().enableObjectReuse(); // the records go from map to adapter unserialized
        String schemaJson = schema.toString();
        DataStream<GenericRecord> records = env.fromSequence(0, 99).map(new MakePayment(schemaJson));
        RowAdapter<GenericRecord> adapter = AvroAdapters.forSchema(schema);
        TableSinkBuilder.forAdapted(records, adapter)
                .target("iceberg")
                .catalog(catalog(warehouse))
                .table("db", "payments")
                .uidPrefix("payments")
                .pluginsDir(TestPluginsDir.get())
                .append();
        env.execute("generic records into iceberg");

        List<Record> out = read(warehouse, "payments");
        assertThat(out).hasSize(100);
        Record first = out.stream()
                .filter(r -> (Long) r.getField("id") == 1L)
                .findFirst()
                .orElseThrow();
        // 1 ms after the epoch, and 1 µs after it: each in the unit its logical type declares
        assertThat(first.getField("at_millis")).isEqualTo(LocalDateTime.of(1970, 1, 1, 0, 0, 0, 1_000_000));
        assertThat(first.getField("at_micros")).isEqualTo(LocalDateTime.of(1970, 1, 1, 0, 0, 0, 1_000));
        assertThat(first.getField("note")).isEqualTo("n1");

        // the plugin has its own Avro: the records' classes never reach it
        PluginRegistry registry = PluginRegistry.get(PluginSettings.of(TestPluginsDir.get()));
        Class<?> pluginAvro = registry.classLoader("iceberg").loadClass("org.apache.avro.Schema");
        assertThat(pluginAvro).isNotSameAs(Schema.class);
    }

    @Test
    void aRowDataStreamWithoutItsColumnsAndAMissingTargetAreClearErrors() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        DataStream<RowData> untyped = env.fromSequence(1, 2)
                .map(i -> (RowData) GenericRowData.of(i))
                .returns(org.apache.flink.api.common.typeinfo.TypeInformation.of(RowData.class));
        assertThatThrownBy(() ->
                        TableSinkBuilder.forRowData(untyped).target("iceberg").append())
                .hasMessageContaining("tableSchema(RowType)");
        assertThatThrownBy(() -> TableSinkBuilder.forRowData(untyped).append()).hasMessageContaining("target(");
    }

    /** Builds payment records with the job's Avro (the schema travels as JSON). */
    static final class MakePayment implements MapFunction<Long, GenericRecord> {
        private final String schemaJson;
        private transient Schema schema;

        MakePayment(String schemaJson) {
            this.schemaJson = schemaJson;
        }

        @Override
        public GenericRecord map(Long i) {
            if (schema == null) {
                schema = new Schema.Parser().parse(schemaJson);
            }
            GenericData.Record r = new GenericData.Record(schema);
            r.put("id", i);
            r.put("note", "n" + i);
            r.put("at_millis", i); // milliseconds since the epoch
            r.put("at_micros", i); // microseconds since the epoch
            return r;
        }
    }
}

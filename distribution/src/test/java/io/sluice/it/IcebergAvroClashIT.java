package io.sluice.it;

import io.sluice.runtime.adapt.AvroAdapters;
import io.sluice.runtime.sink.TableSinkBuilder;

import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.file.DataFileReader;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Avro clash is gone: a job whose own class path has one Avro version writes {@code
 * GenericRecord}s into an Iceberg table through the Iceberg plugin, which bundles another. The
 * records convert to rows with the job's Avro; the plugin writes Iceberg's Avro data files with
 * its own; the job's Avro reads those files back.
 */
class IcebergAvroClashIT {

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(2)
                    .build());

    @TempDir
    Path tmp;

    @Test
    void genericRecordsOfTheJobsAvroGoThroughThePluginsAvro() throws Exception {
        String jobAvro = Schema.class.getPackage().getImplementationVersion();
        List<String> pluginAvro;
        try (Stream<Path> jars =
                Files.list(TestDistribution.pluginsDir().resolve("iceberg").resolve("lib"))) {
            pluginAvro = jars.map(p -> p.getFileName().toString())
                    .filter(n -> n.matches("avro-[0-9.]+\\.jar"))
                    .collect(Collectors.toList());
        }
        assertThat(pluginAvro)
                .singleElement()
                .satisfies(jar -> assertThat(jar).isNotEqualTo("avro-" + jobAvro + ".jar"));

        Path warehouse = tmp.resolve("warehouse");
        Schema schema = SchemaBuilder.record("Payment")
                .fields()
                .requiredLong("id")
                .requiredString("payer")
                .endRecord();
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setRuntimeMode(RuntimeExecutionMode.BATCH);
        env.setParallelism(2);
        env.getConfig().enableObjectReuse();
        String json = schema.toString();
        TableSinkBuilder.forAdapted(env.fromSequence(1, 500).map(new MakePayment(json)), AvroAdapters.forSchema(schema))
                .target("iceberg")
                .catalog(Map.of(
                        "catalog-type", "hadoop", "warehouse", warehouse.toUri().toString()))
                .table("db", "payments")
                .set("write-format", "avro")
                .pluginsDir(TestDistribution.pluginsDir())
                .append();
        env.execute("avro records into iceberg");

        List<Long> ids = new ArrayList<>();
        try (Stream<Path> files =
                Files.walk(warehouse.resolve("db").resolve("payments").resolve("data"))) {
            for (Path file : files.filter(p -> p.toString().endsWith(".avro")).collect(Collectors.toList())) {
                try (DataFileReader<GenericRecord> reader =
                        new DataFileReader<>(file.toFile(), new GenericDatumReader<>())) {
                    for (GenericRecord r : reader) {
                        ids.add((Long) r.get("id"));
                        assertThat(r.get("payer").toString()).isEqualTo("p" + r.get("id"));
                    }
                }
            }
        }
        assertThat(ids).hasSize(500).doesNotHaveDuplicates();
    }

    /** Builds records with the job's Avro. */
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
            r.put("payer", "p" + i);
            return r;
        }
    }
}

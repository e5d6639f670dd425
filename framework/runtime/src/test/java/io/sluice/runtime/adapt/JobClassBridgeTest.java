package io.sluice.runtime.adapt;

import io.sluice.runtime.plugin.TestPlugins;
import io.sluice.runtime.sink.SluiceSink;
import io.sluice.runtime.sink.SluiceSinkBuilder;

import org.apache.flink.table.data.RowData;
import org.apache.flink.util.InstantiationUtil;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThatThrownBy;

/**
 * The Avro adapter where it matters most: the framework's class loader has no Avro (as in Flink's
 * {@code lib/}), the job's loader has its own (as a job jar would). The job's code calls {@link
 * AvroAdapters#forSchema}; the adapter travels through Java serialization and converts the job's
 * records on the "task", its Avro classes linked to the job's Avro through {@link JobClassBridge}.
 */
public class JobClassBridgeTest {

    public static final String AVRO = System.getProperty("sluice.test.avro.b", "1.12.0");

    public static final String SCHEMA = "{\"type\":\"record\",\"name\":\"Event\",\"namespace\":\"job\",\"fields\":["
            + "{\"name\":\"id\",\"type\":\"long\"},"
            + "{\"name\":\"name\",\"type\":[\"null\",\"string\"]},"
            + "{\"name\":\"at\",\"type\":{\"type\":\"long\",\"logicalType\":\"timestamp-micros\"}},"
            + "{\"name\":\"price\",\"type\":{\"type\":\"bytes\",\"logicalType\":\"decimal\",\"precision\":9,\"scale\":2}},"
            + "{\"name\":\"tags\",\"type\":{\"type\":\"array\",\"items\":\"string\"}}]}";

    /** The job's code: compiled against the job's Avro, loaded by the job's loader. */
    public static final String JOB = TestPlugins.src(
            "package job;",
            "import io.sluice.runtime.adapt.AvroAdapters;",
            "import io.sluice.runtime.adapt.RowAdapter;",
            "import io.sluice.runtime.adapt.RowAdapters;",
            "import org.apache.avro.Schema;",
            "import org.apache.avro.generic.GenericData;",
            "import org.apache.avro.generic.GenericRecord;",
            "import org.apache.avro.util.Utf8;",
            "import java.math.BigDecimal;",
            "import java.nio.ByteBuffer;",
            "import java.util.Arrays;",
            "public class AvroJob {",
            "  public static RowAdapter<GenericRecord> adapter(String json) {",
            "    return AvroAdapters.forSchema(new Schema.Parser().parse(json));",
            "  }",
            "  public static RowAdapter<GenericRecord> adapterFromText(String json) {",
            "    Schema schema = new Schema.Parser().parse(json);",
            "    return RowAdapters.forAvroSchema(schema.toString());",
            "  }",
            "  public static GenericRecord record(String json, long id) {",
            "    GenericRecord r = new GenericData.Record(new Schema.Parser().parse(json));",
            "    r.put(\"id\", id);",
            "    r.put(\"name\", new Utf8(\"n\" + id));",
            "    r.put(\"at\", 1_700_000_000_123_456L);",
            "    r.put(\"price\", ByteBuffer.wrap(new BigDecimal(\"1234.56\").unscaledValue().toByteArray()));",
            "    r.put(\"tags\", Arrays.asList(new Utf8(\"a\"), \"b\"));",
            "    return r;",
            "  }",
            "}");

    @TempDir
    static Path tmp;

    static URLClassLoader jobLoader;

    @BeforeAll
    static void jobJar() throws Exception {
        // surefire's default execution keeps Avro off the class path; with -Dtest=... this class
        // also runs in the Avro adapter's execution, where its premise does not hold
        assumeThatThrownBy(() -> Class.forName("org.apache.avro.Schema", false, RowAdapter.class.getClassLoader()))
                .as("the framework's class loader has no Avro")
                .isInstanceOf(ClassNotFoundException.class);
        Path avro = TestPlugins.testLib("avro-" + AVRO + ".jar");
        Path job = TestPlugins.compileJar(tmp.resolve("job.jar"), Map.of("job.AvroJob", JOB), Map.of(), List.of(avro));
        jobLoader = new URLClassLoader(
                new URL[] {avro.toUri().toURL(), job.toUri().toURL()}, JobClassBridgeTest.class.getClassLoader());
    }

    @Test
    @SuppressWarnings("unchecked")
    void theJobsAvroRecordsConvertWithTheJobsAvro() throws Exception {
        Class<?> job = jobLoader.loadClass("job.AvroJob");
        RowAdapter<Object> adapter =
                (RowAdapter<Object>) job.getMethod("adapter", String.class).invoke(null, SCHEMA);
        assertThat(adapter.rowType().asSummaryString())
                .isEqualTo(
                        "ROW<`id` BIGINT NOT NULL, `name` STRING, `at` TIMESTAMP(6) NOT NULL, `price` DECIMAL(9, 2) NOT NULL,"
                                + " `tags` ARRAY<STRING NOT NULL> NOT NULL> NOT NULL");

        // as Flink ships it: serialized on the client, deserialized with the job's loader on the task
        byte[] bytes = InstantiationUtil.serializeObject(adapter);
        assertThat(new String(bytes, java.nio.charset.StandardCharsets.ISO_8859_1))
                .doesNotContain("org.apache.avro");
        RowAdapter<Object> onTask = InstantiationUtil.deserializeObject(bytes, jobLoader);

        Object record = job.getMethod("record", String.class, long.class).invoke(null, SCHEMA, 5L);
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(jobLoader);
        RowData row;
        try {
            row = onTask.map(record);
        } finally {
            thread.setContextClassLoader(previous);
        }
        assertThat(row.getLong(0)).isEqualTo(5L);
        assertThat(row.getString(1).toString()).isEqualTo("n5");
        assertThat(row.getTimestamp(2, 6).toInstant()).isEqualTo(Instant.ofEpochSecond(1_700_000_000L, 123_456_000L));
        assertThat(row.getDecimal(3, 9, 2).toBigDecimal()).isEqualByComparingTo(new BigDecimal("1234.56"));
        assertThat(row.getArray(4).getString(0).toString()).isEqualTo("a");
        assertThat(row.getArray(4).getString(1).toString()).isEqualTo("b");
    }

    @Test
    void theConverterIsDefinedBelowTheJobsLoaderAndLinksToItsAvro() throws Exception {
        Class<?> converter =
                JobClassBridge.load(AvroConverterSpec.CONVERTER_CLASS, AvroConverterSpec.AVRO_SCHEMA_CLASS, jobLoader);
        assertThat(converter.getClassLoader()).isInstanceOf(JobClassBridge.BridgeLoader.class);
        assertThat(converter.getClassLoader().getParent()).isSameAs(jobLoader);
        Class<?> avroSeenByConverter = Class.forName("org.apache.avro.Schema", false, converter.getClassLoader());
        assertThat(avroSeenByConverter).isSameAs(jobLoader.loadClass("org.apache.avro.Schema"));
        assertThat(avroSeenByConverter.getPackage().getImplementationVersion()).isEqualTo(AVRO);
        // the framework's types are the framework's own, so the converter is one
        assertThat(RecordConverter.class.isAssignableFrom(converter)).isTrue();
        // one bridge per job loader
        assertThat(JobClassBridge.load(
                        AvroConverterSpec.CONVERTER_CLASS, AvroConverterSpec.AVRO_SCHEMA_CLASS, jobLoader))
                .isSameAs(converter);
        assertThatThrownBy(() -> JobClassBridge.load(RowAdapter.class.getName(), "org.apache.avro.Schema", jobLoader))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void withoutAnyAvroTheErrorSaysTheJobMustBringIt() {
        assertThatThrownBy(() -> RowAdapters.forAvroSchema(SCHEMA))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("org.apache.avro.Schema")
                .hasMessageContaining("brings its own Avro");
    }

    @Test
    void onlyAvroAdaptersNamesAvroInItsSignatures() {
        // Java serialization and Flink's reflection list a class's methods, which links every type
        // in their signatures: without Avro, that must work for every class a job graph holds
        for (Class<?> c : new Class<?>[] {
            RowAdapter.class,
            RowAdapters.class,
            SluiceSink.class,
            SluiceSinkBuilder.class,
            AvroConverterSpec.class,
            StructureConverterSpec.class,
            RecordConverter.class,
            JobClassBridge.class
        }) {
            assertThatCode(c::getDeclaredMethods).as(c.getName()).doesNotThrowAnyException();
            assertThatCode(c::getDeclaredFields).as(c.getName()).doesNotThrowAnyException();
        }
        assertThatThrownBy(AvroAdapters.class::getDeclaredMethods).isInstanceOf(NoClassDefFoundError.class);
    }
}

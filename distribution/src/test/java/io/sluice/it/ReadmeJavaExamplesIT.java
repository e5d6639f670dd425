package io.sluice.it;

import io.sluice.runtime.plugin.PluginSettings;
import io.sluice.spi.partition.CommitPolicyFactory;
import io.sluice.spi.sink.BucketAssignerFactory;
import io.sluice.spi.sink.RollingPolicyFactory;
import io.sluice.spi.sink.TargetFactory;
import io.sluice.spi.source.ScanSourceFactory;
import io.sluice.testservers.readme.ReadmeJavaExamples;
import io.sluice.testservers.readme.RecordingEnvironment;
import io.sluice.testservers.s3.FlinkS3FileSystem;
import io.sluice.testservers.s3.S3Server;

import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.typeutils.GenericTypeInfo;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.test.junit5.InjectMiniCluster;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The README's Java examples, run as written. Each block marked {@code <!-- java-example: name -->}
 * is taken from the README verbatim, wrapped in a class (the imports it needs, a method that hands
 * it the variables it uses but does not declare), compiled with the JDK's compiler against the
 * test's class path, shipped to a MiniCluster as the job's jar and run against an S3 API server
 * holding the buckets the examples name. What came out is read from the bucket with the AWS SDK and
 * parquet-java, never with Sluice.
 *
 * <p>What is not literal in the README and is filled in here: a declaration whose value is {@code
 * ...} (the test gives it a value), and the plugins directory an example names ({@code
 * /opt/sluice/plugins}, an installation's; here the distribution's). The S3 endpoint and keys are
 * the deployment's Flink configuration ({@code s3.*}), as the README's "Storage" says, not part of
 * any example. The block extraction and compiling are {@link ReadmeJavaExamples}'s, shared with the
 * iceberg plugin's IcebergObjectStoreIT, which runs the Iceberg examples (they need a metastore),
 * and the hive plugin's HiveRemoteMetastoreIT, which runs the Hive one.
 *
 * <p>Blocks marked {@code compile-only-...} are a plugin author's classes (conformance tests of
 * the testkit), not a job: they are compiled, not run.
 */
// Every ```java block of the README, in order, and where it runs:
//   file-source, file-sink, adapter-sink, dynamic-sink-filesystem, compaction-sink: here, as jobs;
//   iceberg-dynamic-sink, iceberg-table-sink, iceberg-scan-source: IcebergObjectStoreIT (metastore);
//   iceberg-dynamic-sink-configured: IcebergDynamicSinkSeedIT (a hadoop catalog it gives);
//   hive-datastream-sink: HiveRemoteMetastoreIT (a metastore behind hive-conf-dir);
//   compile-only-testkit-*: here, compiled (testkitExampleCompiles).
public class ReadmeJavaExamplesIT {

    private static final String README_PLUGINS_DIR = "Path.of(\"/opt/sluice/plugins\")";
    private static final int ROWS = 20;
    private static final String PACKAGE = "io.sluice.it.readme";

    @RegisterExtension
    static final S3Server S3 = S3Server.inMemory("bucket", "lake").withFlinkFileSystems(FlinkS3FileSystem.HADOOP);

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(4)
                    .build());

    @TempDir
    Path tmp;

    private static String previousPluginsDir;

    @BeforeAll
    static void pluginsDirAsADeploymentSetsIt() {
        // an installation names its plugins directory once (config.yaml or the environment); the
        // examples rely on that, so the test sets it the same way for the whole JVM
        previousPluginsDir = System.setProperty(
                PluginSettings.PLUGINS_DIR, TestDistribution.pluginsDir().toString());
    }

    @AfterAll
    static void restorePluginsDir() {
        if (previousPluginsDir == null) {
            System.clearProperty(PluginSettings.PLUGINS_DIR);
        } else {
            System.setProperty(PluginSettings.PLUGINS_DIR, previousPluginsDir);
        }
    }

    @BeforeEach
    void emptyBuckets() {
        for (String bucket : List.of("bucket", "lake")) {
            for (String key : S3.keys(bucket, "")) {
                S3.client().deleteObject(bucket, key);
            }
        }
    }

    @Test
    void fileSinkWritesParquetIntoTheBucket(@InjectMiniCluster MiniCluster cluster) throws Exception {
        Map<String, Object> inputs = new HashMap<>();
        inputs.put("rowType", ID_NAME);
        run("file-sink", cluster, inputs, env -> Map.of("stream", idNameRows(env)));

        assertThat(S3.openUploads("bucket")).isEmpty();
        Path copy = S3.download("bucket", "events/", tmp.resolve("events"));
        List<Path> parts = CommittedFiles.visible(copy);
        assertThat(parts)
                .isNotEmpty()
                .allSatisfy(p -> assertThat(p.getFileName().toString())
                        .startsWith("events")
                        .endsWith(".parquet"));
        assertThat(CommittedFiles.inProgress(copy)).isEmpty();
        List<Long> ids = CommittedFiles.parquet(copy, g -> {
            long id = g.getLong("id", 0);
            assertThat(g.getString("name", 0)).isEqualTo("n" + id);
            return id;
        });
        assertThat(ids).hasSize(ROWS);
        assertThat(new TreeSet<>(ids)).containsExactlyElementsOf(allIds());
    }

    @Test
    void fileSourceReadsPartitionedParquetFromTheBucket(@InjectMiniCluster MiniCluster cluster) throws Exception {
        // written by parquet-java and put into the bucket with the AWS SDK, in Hive-style directories
        MessageType schema =
                MessageTypeParser.parseMessageType("message m { required int64 id; required binary name (STRING); }");
        for (String dt : List.of("2024-01-01", "2024-01-02")) {
            Path file = tmp.resolve(dt + ".parquet");
            try (ParquetWriter<Group> writer = ExampleParquetWriter.builder(new org.apache.hadoop.fs.Path(file.toUri()))
                    .withType(schema)
                    .withConf(new Configuration())
                    .build()) {
                for (long id : allIds()) {
                    if ((id % 2 == 0) == dt.endsWith("1")) {
                        writer.write(new SimpleGroupFactory(schema)
                                .newGroup()
                                .append("id", id)
                                .append("name", "n" + id));
                    }
                }
            }
            S3.client().putObject("bucket", "events/dt=" + dt + "/part-0.parquet", file.toFile());
        }
        Map<String, Object> inputs = new HashMap<>();
        inputs.put(
                "rowType",
                RowType.of(
                        new org.apache.flink.table.types.logical.LogicalType[] {
                            new BigIntType(), VarCharType.STRING_TYPE, VarCharType.STRING_TYPE
                        },
                        new String[] {"id", "name", "dt"}));
        RecordingEnvironment env = run("file-source", cluster, inputs, e -> Map.of());

        // a continuous read: take what the files hold, then the collect ends the job
        assertThat(env.sources()).hasSize(1);
        @SuppressWarnings("unchecked")
        DataStream<RowData> read = (DataStream<RowData>) env.sources().get(0);
        List<RowData> rows = read.map(r -> (RowData) GenericRowData.of(
                        r.getLong(0),
                        StringData.fromString(r.getString(1).toString()),
                        StringData.fromString(r.getString(2).toString())))
                .executeAndCollect(ROWS);
        assertThat(rows).hasSize(ROWS);
        TreeSet<Long> ids = new TreeSet<>();
        for (RowData r : rows) {
            long id = r.getLong(0);
            assertThat(r.getString(1).toString()).isEqualTo("n" + id);
            assertThat(r.getString(2).toString()).isEqualTo(id % 2 == 0 ? "2024-01-01" : "2024-01-02");
            ids.add(id);
        }
        assertThat(ids).containsExactlyElementsOf(allIds());
    }

    @Test
    void adapterSinkWritesAvroRecordsAsParquet(@InjectMiniCluster MiniCluster cluster) throws Exception {
        Map<String, Object> inputs = new HashMap<>();
        inputs.put("schema", new Schema.Parser().parse(PAYMENT));
        run(
                "adapter-sink",
                cluster,
                inputs,
                env -> Map.of(
                        "records",
                        env.fromSequence(1, ROWS)
                                .map(new ToPayment())
                                .returns(new GenericTypeInfo<>(GenericRecord.class))));

        assertThat(S3.openUploads("bucket")).isEmpty();
        Path copy = S3.download("bucket", "payments/", tmp.resolve("payments"));
        assertThat(CommittedFiles.inProgress(copy)).isEmpty();
        List<Long> ids = CommittedFiles.parquet(copy, g -> {
            long id = g.getLong("id", 0);
            assertThat(g.getString("payer", 0)).isEqualTo("p" + id);
            return id;
        });
        assertThat(ids).hasSize(ROWS);
        assertThat(new TreeSet<>(ids)).containsExactlyElementsOf(allIds());
    }

    @Test
    void dynamicSinkWritesATablePerEventType(@InjectMiniCluster MiniCluster cluster) throws Exception {
        run(
                "dynamic-sink-filesystem",
                cluster,
                Map.of(),
                env -> Map.of(
                        "stream",
                        env.fromSequence(1, ROWS)
                                .map(id ->
                                        new Events.Event(id % 2 == 0 ? "even" : "odd", id, "2024-01-0" + (id % 3 + 1)))
                                .returns(Events.Event.class)),
                Map.of("stream", "DataStream<Event>"));

        assertThat(S3.openUploads("bucket")).isEmpty();
        Path copy = S3.download("bucket", "events/", tmp.resolve("dynamic"));
        assertThat(CommittedFiles.inProgress(copy)).isEmpty();
        for (String type : List.of("even", "odd")) {
            Path table = copy.resolve("db").resolve(type);
            List<Long> ids = new ArrayList<>();
            for (String day : List.of("2024-01-01", "2024-01-02", "2024-01-03")) {
                for (long id : CommittedFiles.parquet(table.resolve("day=" + day), g -> g.getLong("id", 0))) {
                    assertThat("2024-01-0" + (id % 3 + 1))
                            .as("the partition of %d", id)
                            .isEqualTo(day);
                    ids.add(id);
                }
            }
            assertThat(ids)
                    .as("table db/%s: %s", type, CommittedFiles.visible(table))
                    .containsExactlyInAnyOrderElementsOf(allIds().stream()
                            .filter(id -> (id % 2 == 0) == type.equals("even"))
                            .collect(Collectors.toList()));
        }
    }

    /**
     * The compaction example: two writers' parts of one bucket are merged before they are
     * published, so each bucket directory holds one Parquet file with every row (without
     * compaction, each writer publishes its own).
     */
    @Test
    void compactionSinkPublishesOneFilePerBucket(@InjectMiniCluster MiniCluster cluster) throws Exception {
        Map<String, Object> inputs = new HashMap<>();
        inputs.put("rowType", ID_NAME);
        inputs.put("path", "s3://bucket/compacted");
        run("compaction-sink", cluster, inputs, env -> Map.of("rows", idNameRows(env)), Map.of("path", "String"));

        assertThat(S3.openUploads("bucket")).isEmpty();
        Path copy = S3.download("bucket", "compacted/", tmp.resolve("compacted"));
        assertThat(CommittedFiles.inProgress(copy)).isEmpty();
        assertThat(CommittedFiles.uncompacted(copy)).isEmpty();
        Map<Path, List<Path>> byBucket =
                CommittedFiles.visible(copy).stream().collect(Collectors.groupingBy(Path::getParent));
        assertThat(byBucket)
                .isNotEmpty()
                .allSatisfy((bucket, files) ->
                        assertThat(files).as("the files of bucket %s", bucket).hasSize(1));
        List<Long> ids = CommittedFiles.parquet(copy, g -> {
            long id = g.getLong("id", 0);
            assertThat(g.getString("name", 0)).isEqualTo("n" + id);
            return id;
        });
        assertThat(ids).hasSize(ROWS);
        assertThat(new TreeSet<>(ids)).containsExactlyElementsOf(allIds());
    }

    /**
     * The README's conformance tests of "Testing your plugin" compile against the testkit, the
     * example plugin's factories and, for the classes the README leaves to its reader ({@code
     * MyTargetFactory}, {@code MyTables} ...), stand-ins this test declares. They are a plugin's
     * tests, run by JUnit in the plugin's build, so compiling them is what is checked here; the
     * example plugin runs its own copies of the first two.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "file-enumerator",
                "file-compactor",
                "scan-source",
                "target",
                "bucket-assigner",
                "rolling-policy",
                "commit-policy"
            })
    void testkitExampleCompiles(String kit) throws Exception {
        String pkg = PACKAGE + ".testkit";
        Map<String, String> sources = new LinkedHashMap<>();
        sources.put(
                "ReadmeTestkit_" + kit.replace('-', '_'),
                ReadmeJavaExamples.unit(ReadmeJavaExamples.block("compile-only-testkit-" + kit), pkg, TESTKIT_IMPORTS));
        sources.put(
                "MyScanSourceFactory", ReadmeJavaExamples.stub(pkg, "MyScanSourceFactory", ScanSourceFactory.class));
        sources.put("MyTargetFactory", ReadmeJavaExamples.stub(pkg, "MyTargetFactory", TargetFactory.class));
        sources.put(
                "MyAssignerFactory", ReadmeJavaExamples.stub(pkg, "MyAssignerFactory", BucketAssignerFactory.class));
        sources.put("MyPolicyFactory", ReadmeJavaExamples.stub(pkg, "MyPolicyFactory", RollingPolicyFactory.class));
        sources.put(
                "MyCommitPolicyFactory",
                ReadmeJavaExamples.stub(pkg, "MyCommitPolicyFactory", CommitPolicyFactory.class));
        sources.put("MyTables", MY_TABLES.replace("PACKAGE", pkg));
        List<Path> examplePlugin;
        try (Stream<Path> jars = Files.list(
                Path.of(System.getProperty("sluice.test.example-plugins")).resolve("example/lib"))) {
            examplePlugin = jars.collect(Collectors.toList());
        }
        Path out = tmp.resolve("classes");
        ReadmeJavaExamples.javac(tmp, pkg, sources, examplePlugin, out);
        assertThat(out.resolve(pkg.replace('.', '/'))).isDirectoryContaining("glob:**/*ConformanceTest.class");
    }

    private static final List<String> TESTKIT_IMPORTS = List.of(
            "import io.sluice.testkit.*;",
            "import io.sluice.spi.compact.FileCompactorFactory;",
            "import io.sluice.spi.partition.CommitPolicyFactory;",
            "import io.sluice.spi.sink.BucketAssignerFactory;",
            "import io.sluice.spi.sink.RollingPolicyFactory;",
            "import io.sluice.spi.sink.TargetFactory;",
            "import io.sluice.spi.source.FileEnumeratorFactory;",
            "import io.sluice.spi.source.ScanSourceFactory;",
            "import com.example.sluice.manifest.ManifestEnumeratorFactory;",
            "import com.example.sluice.sorting.SortedLinesCompactorFactory;",
            "import org.apache.flink.table.data.RowData;",
            "import java.io.IOException;",
            "import java.nio.file.Files;",
            "import java.nio.file.Path;",
            "import java.nio.file.StandardOpenOption;",
            "import java.util.List;",
            "import java.util.Map;",
            "import java.util.Set;");

    /** The reader's own table code the scan source and target examples call. */
    private static final String MY_TABLES = "package PACKAGE;\n\n"
            + "import org.apache.flink.table.data.RowData;\n"
            + "import org.apache.flink.table.types.logical.RowType;\n"
            + "import java.nio.file.Path;\n"
            + "import java.util.List;\n"
            + "import java.util.Map;\n\n"
            + "public final class MyTables {\n"
            + "    public static Map<String, String> create(Path dir, RowType rowType) {\n"
            + "        throw new UnsupportedOperationException();\n"
            + "    }\n"
            + "    public static void commit(Map<String, String> table, List<RowData> rows) {\n"
            + "        throw new UnsupportedOperationException();\n"
            + "    }\n"
            + "    public static List<String> read(Path dir) {\n"
            + "        throw new UnsupportedOperationException();\n"
            + "    }\n"
            + "}\n";

    private static final String PAYMENT = "{\"type\": \"record\", \"name\": \"Payment\", \"fields\": ["
            + "{\"name\": \"id\", \"type\": \"long\"}, {\"name\": \"payer\", \"type\": \"string\"}]}";

    /** The job's own Avro records, made in the task (the schema travels as JSON). */
    static final class ToPayment extends RichMapFunction<Long, GenericRecord> {
        private transient Schema schema;

        @Override
        public GenericRecord map(Long id) {
            if (schema == null) {
                schema = new Schema.Parser().parse(PAYMENT);
            }
            GenericRecord record = new GenericData.Record(schema);
            record.put("id", id);
            record.put("payer", "p" + id);
            return record;
        }
    }

    // ---------------------------------------------------------------------------------------------

    static final RowType ID_NAME = RowType.of(
            new org.apache.flink.table.types.logical.LogicalType[] {new BigIntType(), VarCharType.STRING_TYPE},
            new String[] {"id", "name"});

    private static TreeSet<Long> allIds() {
        return LongStream.rangeClosed(1, ROWS).boxed().collect(Collectors.toCollection(TreeSet::new));
    }

    private static DataStream<RowData> idNameRows(RecordingEnvironment env) {
        return env.fromSequence(1, ROWS)
                .map(id -> (RowData) GenericRowData.of(id, StringData.fromString("n" + id)))
                .returns(TypeInformation.of(RowData.class));
    }

    /** What the example's method gets from the test once the environment exists. */
    interface Streams {
        Map<String, Object> of(RecordingEnvironment env) throws Exception;
    }

    /** The README block, compiled and run; returns the environment it used. */
    private RecordingEnvironment run(String name, MiniCluster cluster, Map<String, Object> inputs, Streams streams)
            throws Exception {
        return run(name, cluster, inputs, streams, Map.of());
    }

    /**
     * As above; {@code given} names the type of a variable the example uses without declaring it,
     * where the default ({@link Block#GIVEN}) does not fit.
     */
    private RecordingEnvironment run(
            String name, MiniCluster cluster, Map<String, Object> inputs, Streams streams, Map<String, String> given)
            throws Exception {
        Block block = Block.fromReadme(name);
        String className = "ReadmeExample_" + name.replace('-', '_');
        Path jar = compile(className, block.source(className, given));
        RecordingEnvironment env = new RecordingEnvironment(cluster, jar);
        env.enableCheckpointing(200);
        Map<String, Object> all = new HashMap<>(inputs);
        all.put("env", env);
        all.putAll(streams.of(env));
        // only what the example itself reads counts as its source
        env.forgetSources();
        // the class's own plugins directory property stays as set for all examples
        ReadmeJavaExamples.run(jar, PACKAGE + "." + className, getClass().getClassLoader(), null, all, () -> {
            if (!block.text.contains("executeAndCollect") && env.sources().isEmpty()) {
                env.execute(name);
            }
        });
        return env;
    }

    private Path compile(String className, String source) throws IOException {
        return ReadmeJavaExamples.compile(tmp, PACKAGE, className, source);
    }

    /** One marked Java block of the README. */
    static final class Block {
        final String text;

        private Block(String text) {
            this.text = text;
        }

        static Block fromReadme(String name) throws IOException {
            return new Block(ReadmeJavaExamples.block(name));
        }

        /**
         * The example inside a class ({@link ReadmeJavaExamples#source}), with this test's imports
         * and variables and the plugins directory the README names replaced by the distribution's.
         */
        String source(String className, Map<String, String> givenTypes) {
            Map<String, String> types = new LinkedHashMap<>();
            for (String[] variable : GIVEN) {
                types.put(variable[1], variable[0]);
            }
            types.putAll(givenTypes);
            List<String> imports = new ArrayList<>(COMMON_IMPORTS);
            imports.add("");
            imports.add("import static io.sluice.it.ReadmeJavaExamplesIT.Events.*;");
            return ReadmeJavaExamples.source(
                    text,
                    PACKAGE,
                    className,
                    imports,
                    types,
                    Map.of(README_PLUGINS_DIR, "Path.of(System.getProperty(\"" + PluginSettings.PLUGINS_DIR + "\"))"));
        }

        private static final String[][] GIVEN = {
            {"StreamExecutionEnvironment", "env"},
            {"RowType", "rowType"},
            {"DataStream", "stream"},
            {"DataStream<GenericRecord>", "records"},
            {"Schema", "schema"},
            {"DataStream<RowData>", "rows"},
            {"Map<String, String>", "moreOptions"},
        };

        private static final List<String> COMMON_IMPORTS = List.of(
                "import io.sluice.runtime.adapt.AvroAdapters;",
                "import io.sluice.runtime.adapt.RowAdapter;",
                "import io.sluice.runtime.adapt.RowAdapters;",
                "import io.sluice.runtime.sink.BucketAssigners;",
                "import io.sluice.runtime.sink.RollingPolicies;",
                "import io.sluice.runtime.sink.SluiceSink;",
                "import io.sluice.runtime.sink.TableSinkBuilder;",
                "import io.sluice.runtime.sink.dynamic.DynamicRecord;",
                "import io.sluice.runtime.sink.dynamic.DynamicSink;",
                "import io.sluice.runtime.source.file.SluiceFileSource;",
                "import io.sluice.runtime.source.scan.ScanSource;",
                "import io.sluice.runtime.source.scan.TableSourceBuilder;",
                "import io.sluice.spi.distribution.DistributionMode;",
                "import org.apache.avro.Schema;",
                "import io.sluice.it.ReadmeJavaExamplesIT.Events.Event;",
                "import org.apache.avro.generic.GenericRecord;",
                "import org.apache.flink.api.common.eventtime.WatermarkStrategy;",
                "import org.apache.flink.configuration.MemorySize;",
                "import org.apache.flink.streaming.api.datastream.DataStream;",
                "import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;",
                "import org.apache.flink.streaming.api.functions.sink.filesystem.OutputFileConfig;",
                "import org.apache.flink.table.data.RowData;",
                "import org.apache.flink.table.types.logical.RowType;",
                "import java.nio.file.Path;",
                "import java.time.Duration;",
                "import java.time.ZoneId;",
                "import java.util.List;",
                "import java.util.Map;");
    }

    /** What the dynamic sink's example takes from its job: an event type, its row type and conversion. */
    public static final class Events {
        private Events() {}

        /** The job's event: its type names the table, its day the partition. */
        public static final class Event {
            public String type;
            public long id;
            public String day;

            public Event() {}

            public Event(String type, long id, String day) {
                this.type = type;
                this.id = id;
                this.day = day;
            }

            public String type() {
                return type;
            }
        }

        public static final RowType EVENT_TYPE = RowType.of(
                new org.apache.flink.table.types.logical.LogicalType[] {new BigIntType(), VarCharType.STRING_TYPE},
                new String[] {"id", "day"});

        public static RowData toRowData(Event event) {
            return GenericRowData.of(event.id, StringData.fromString(event.day));
        }
    }
}

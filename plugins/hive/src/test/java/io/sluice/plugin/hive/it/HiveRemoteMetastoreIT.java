package io.sluice.plugin.hive.it;

import io.sluice.testservers.hive.StandaloneMetastore;
import io.sluice.testservers.readme.ReadmeJavaExamples;
import io.sluice.testservers.readme.RecordingEnvironment;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.test.junit5.InjectClusterRESTAddress;
import org.apache.flink.test.junit5.InjectMiniCluster;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Sluice hive catalog in its default mode, {@code remote}: Hive 3.1.3's metastore server runs as
 * a JVM of its own ({@link StandaloneMetastore}, Derby in a directory of its own), and the catalog
 * finds it through the {@code hive-site.xml} of {@code hive-conf-dir}. Partitioned Parquet tables
 * are written in BATCH and in STREAMING through it; Hive's own {@code HiveMetaStoreClient} (a
 * second thrift client) reads the partitions and their locations, parquet-java the rows. One job
 * loses its metastore (the process killed) in the middle and must recover without losing or
 * repeating a row.
 */
class HiveRemoteMetastoreIT {

    @RegisterExtension
    static final StandaloneMetastore METASTORE = new StandaloneMetastore();

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(2)
                    .build());

    @TempDir
    Path tmp;

    @BeforeAll
    static void onlyAfterPackaging() {
        HivePluginDir.assumeIntegrationTestPhase();
    }

    private static String catalog(String name) {
        return "CREATE CATALOG " + name + " WITH ('type' = 'sluice', 'target' = 'hive', "
                + "'sluice.plugins.dir' = '" + HivePluginDir.get() + "', "
                + "'hive-conf-dir' = '" + METASTORE.hiveConfDir() + "')";
    }

    @Test
    void batchInsertsGoToTheRemoteMetastoresPartitions() throws Exception {
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        tEnv.executeSql(catalog("h"));
        tEnv.executeSql("CREATE DATABASE h.sales");
        tEnv.executeSql("CREATE TABLE h.sales.orders (id BIGINT, name STRING, amount DOUBLE, dt STRING)"
                + " PARTITIONED BY (dt) WITH ('hive.storage.file-format' = 'parquet')");
        tEnv.executeSql(
                        "INSERT INTO h.sales.orders /*+ OPTIONS('sink.partition-commit.policy.kind' = 'metastore') */"
                                + " VALUES (1, 'a', 1.5, '2026-12-01'), (2, 'b', 2.5, '2026-12-02'), (3, 'c', 3.5, '2026-12-01')")
                .await();
        // a second job appends to an existing partition and adds a new one
        tEnv.executeSql("INSERT INTO h.sales.orders /*+ OPTIONS('sink.partition-commit.policy.kind' = 'metastore') */"
                        + " VALUES (4, 'd', 4.5, '2026-12-01'), (5, CAST(NULL AS STRING), 5.5, '2026-12-03')")
                .await();

        // the server chose the table's location: its own warehouse
        Path table = METASTORE.warehouse().resolve("sales.db").resolve("orders");
        try (MetastoreProbe probe = MetastoreProbe.of(tEnv.getCatalog("h").orElseThrow())) {
            assertThat(Paths.get(URI.create(probe.table("sales", "orders").location())))
                    .isEqualTo(table);
            assertThat(probe.partitionNames("sales", "orders"))
                    .containsExactlyInAnyOrder("dt=2026-12-01", "dt=2026-12-02", "dt=2026-12-03");
            for (String p : probe.partitionNames("sales", "orders")) {
                assertThat(Paths.get(URI.create(probe.partitionLocation("sales", "orders", p))))
                        .isEqualTo(table.resolve(p));
            }
        }
        assertThat(rows(table.resolve("dt=2026-12-01"))).containsExactlyInAnyOrder("1|a|1.5", "3|c|3.5", "4|d|4.5");
        assertThat(rows(table.resolve("dt=2026-12-02"))).containsExactly("2|b|2.5");
        assertThat(rows(table.resolve("dt=2026-12-03"))).containsExactly("5|null|5.5");
        // no embedded metastore anywhere on the client's side
        assertThat(Paths.get("metastore_db")).doesNotExist();
        assertThat(METASTORE.isAlive()).isTrue();
    }

    @Test
    void checkpointedStreamingWritesCommitPartitionsToTheRemoteMetastoreWithSuccessFiles() throws Exception {
        int rows = 400;
        TableEnvironment tEnv = streaming("none");
        tEnv.executeSql(catalog("h"));
        tEnv.executeSql("CREATE DATABASE h.logs");
        tEnv.executeSql("CREATE TABLE h.logs.events (id BIGINT, msg STRING, bucket STRING) PARTITIONED BY (bucket)"
                + " WITH ('hive.storage.file-format' = 'parquet')");
        // five seconds of rows: a loaded machine's first checkpoint can take two
        tEnv.executeSql(numbers(rows, 80));
        tEnv.executeSql("INSERT INTO h.logs.events /*+ OPTIONS("
                        + "'sink.partition-commit.policy.kind' = 'metastore,success-file') */"
                        + " SELECT id, CONCAT('m', CAST(id AS STRING)), CAST(id % 3 AS STRING) FROM numbers")
                .await();

        Path table = METASTORE.warehouse().resolve("logs.db").resolve("events");
        List<String> read = new ArrayList<>();
        int files = 0;
        try (MetastoreProbe probe = MetastoreProbe.of(tEnv.getCatalog("h").orElseThrow())) {
            assertThat(probe.partitionNames("logs", "events"))
                    .containsExactlyInAnyOrder("bucket=0", "bucket=1", "bucket=2");
            for (String partition : probe.partitionNames("logs", "events")) {
                Path dir = Paths.get(URI.create(probe.partitionLocation("logs", "events", partition)));
                assertThat(dir).isEqualTo(table.resolve(partition));
                assertThat(dir.resolve("_SUCCESS")).isRegularFile();
                files += ParquetFiles.dataFiles(dir).size();
                String bucket = partition.substring("bucket=".length());
                for (String row : ParquetFiles.rows(dir, g -> g.getLong("id", 0) + "|" + g.getString("msg", 0))) {
                    assertThat(Long.parseLong(row.substring(0, row.indexOf('|'))) % 3)
                            .hasToString(bucket);
                    read.add(row);
                }
            }
        }
        // Parquet files roll at every checkpoint: more than one per writer and partition (2 x 3)
        assertThat(files).isGreaterThan(6);
        assertThat(read).containsExactlyInAnyOrderElementsOf(expected(rows));
    }

    /**
     * The metastore process is killed while a STREAMING job writes and commits partitions, and
     * started again (same port and database) a few seconds later. The job's commits fail while it
     * is gone; Flink restarts the job from its last checkpoint, and in the end every row is in the
     * table once and every partition in the metastore once.
     */
    @Test
    void aKilledMetastoreFailsCommitsButNoRowIsLostOrRepeated(@InjectClusterRESTAddress URI rest) throws Exception {
        int rows = 1200;
        TableEnvironment tEnv = streaming("fixed-delay");
        tEnv.executeSql(catalog("h"));
        tEnv.executeSql("CREATE DATABASE h.killed");
        tEnv.executeSql("CREATE TABLE h.killed.events (id BIGINT, msg STRING, part STRING) PARTITIONED BY (part)"
                + " WITH ('hive.storage.file-format' = 'parquet')");
        tEnv.executeSql(numbers(rows, 200));
        // a new partition every second: partitions keep coming while the metastore is gone
        TableResult job = tEnv.executeSql("INSERT INTO h.killed.events /*+ OPTIONS("
                + "'sink.partition-commit.policy.kind' = 'metastore,success-file') */"
                + " SELECT id, CONCAT('m', CAST(id AS STRING)), CAST((id - 1) / 200 AS STRING) FROM numbers");

        Path table = METASTORE.warehouse().resolve("killed.db").resolve("events");
        // kill once the first partition is committed (its success file is there)
        long deadline = System.currentTimeMillis() + TimeUnit.SECONDS.toMillis(60);
        while (!Files.exists(table.resolve("part=0").resolve("_SUCCESS"))) {
            assertThat(System.currentTimeMillis())
                    .as("first partition committed")
                    .isLessThan(deadline);
            Thread.sleep(50);
        }
        METASTORE.kill();
        // longer than the metastore client's own reconnect retries (one, after a second): the
        // commit policy keeps its client, which would otherwise ride out a short outage unseen
        Thread.sleep(8000);
        METASTORE.restart();
        job.await(5, TimeUnit.MINUTES);

        List<String> read = new ArrayList<>();
        try (MetastoreProbe probe = MetastoreProbe.of(tEnv.getCatalog("h").orElseThrow())) {
            List<String> partitions = probe.partitionNames("killed", "events");
            assertThat(partitions)
                    .containsExactlyInAnyOrder("part=0", "part=1", "part=2", "part=3", "part=4", "part=5");
            for (String partition : partitions) {
                Path dir = Paths.get(URI.create(probe.partitionLocation("killed", "events", partition)));
                assertThat(dir).isEqualTo(table.resolve(partition));
                assertThat(dir.resolve("_SUCCESS")).isRegularFile();
                read.addAll(ParquetFiles.rows(dir, g -> g.getLong("id", 0) + "|" + g.getString("msg", 0)));
            }
        }
        // no files outside the partitions the metastore knows
        try (Stream<Path> dirs = Files.list(table)) {
            assertThat(dirs.filter(Files::isDirectory)
                            .map(p -> p.getFileName().toString())
                            .filter(n -> !n.startsWith(".") && !n.startsWith("_"))
                            .collect(Collectors.toList()))
                    .hasSize(6);
        }
        assertThat(read).containsExactlyInAnyOrderElementsOf(expected(rows));
        // the job did lose its metastore: it failed on it and restarted, and the server started twice
        String exceptions = java.net.http.HttpClient.newHttpClient()
                .send(
                        java.net.http.HttpRequest.newBuilder(rest.resolve("/jobs/"
                                        + job.getJobClient().orElseThrow().getJobID() + "/exceptions"))
                                .build(),
                        java.net.http.HttpResponse.BodyHandlers.ofString())
                .body();
        assertThat(exceptions).contains("Cannot reach the Hive metastore at " + METASTORE.uri());
        assertThat(METASTORE.logText().split("Started the new metaserver on port", -1))
                .hasSize(3);
    }

    /**
     * The README's DataStream example of the Hive target, run as written ({@link
     * ReadmeJavaExamples}), with this class's {@code hive-conf-dir} where the README names an
     * installation's {@code /etc/hive/conf}: a checkpointed STREAMING job appends to {@code
     * sales.orders}, each partition it wrote is in the metastore with a {@code _SUCCESS} file (the
     * policies the example names) and holds its rows.
     */
    @Test
    void readmeDataStreamExampleCommitsPartitionsWithSuccessFiles(@InjectMiniCluster MiniCluster cluster)
            throws Exception {
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        tEnv.executeSql(catalog("h"));
        // the README names the table batchInsertsGoToTheRemoteMetastoresPartitions writes: start from none
        tEnv.executeSql("DROP DATABASE IF EXISTS h.sales CASCADE");
        tEnv.executeSql("CREATE DATABASE h.sales");
        tEnv.executeSql("CREATE TABLE h.sales.orders (id BIGINT, name STRING, amount DOUBLE, dt STRING)"
                + " PARTITIONED BY (dt) WITH ('hive.storage.file-format' = 'parquet')");
        try {
            String className = "Readme_hive_datastream_sink";
            String source = ReadmeJavaExamples.source(
                    ReadmeJavaExamples.block("hive-datastream-sink"),
                    README_PACKAGE,
                    className,
                    List.of(
                            "import io.sluice.runtime.sink.TableSinkBuilder;",
                            "import org.apache.flink.streaming.api.datastream.DataStream;",
                            "import org.apache.flink.table.data.RowData;",
                            "import java.util.Map;"),
                    Map.of("rows", "DataStream<RowData>"),
                    Map.of("\"/etc/hive/conf\"", "\"" + METASTORE.hiveConfDir() + "\""));
            Path jar = ReadmeJavaExamples.compile(tmp, README_PACKAGE, className, source);
            RecordingEnvironment env = new RecordingEnvironment(cluster, jar);
            env.enableCheckpointing(200);
            List<RowData> orders = new ArrayList<>();
            for (long id = 1; id <= 20; id++) {
                orders.add(GenericRowData.of(
                        id,
                        StringData.fromString("n" + id),
                        id + 0.5,
                        StringData.fromString(id % 2 == 0 ? "2026-12-01" : "2026-12-02")));
            }
            Map<String, Object> in = Map.of("rows", env.fromData(orders, InternalTypeInfo.of(ORDERS)));
            ReadmeJavaExamples.run(
                    jar,
                    README_PACKAGE + "." + className,
                    getClass().getClassLoader(),
                    HivePluginDir.get(),
                    in,
                    () -> env.execute("readme hive-datastream-sink"));

            Path table = METASTORE.warehouse().resolve("sales.db").resolve("orders");
            try (MetastoreProbe probe = MetastoreProbe.of(tEnv.getCatalog("h").orElseThrow())) {
                assertThat(probe.partitionNames("sales", "orders"))
                        .containsExactlyInAnyOrder("dt=2026-12-01", "dt=2026-12-02");
                for (String partition : probe.partitionNames("sales", "orders")) {
                    Path dir = Paths.get(URI.create(probe.partitionLocation("sales", "orders", partition)));
                    assertThat(dir).isEqualTo(table.resolve(partition));
                    assertThat(dir.resolve("_SUCCESS")).isRegularFile();
                    boolean even = partition.endsWith("01");
                    assertThat(rows(dir))
                            .containsExactlyInAnyOrderElementsOf(LongStream.rangeClosed(1, 20)
                                    .filter(id -> (id % 2 == 0) == even)
                                    .mapToObj(id -> id + "|n" + id + "|" + (id + 0.5))
                                    .collect(Collectors.toList()));
                }
            }
        } finally {
            tEnv.executeSql("DROP DATABASE h.sales CASCADE");
        }
    }

    private static final String README_PACKAGE = "io.sluice.plugin.hive.it.readme";

    private static final RowType ORDERS = RowType.of(
            new LogicalType[] {new BigIntType(), VarCharType.STRING_TYPE, new DoubleType(), VarCharType.STRING_TYPE},
            new String[] {"id", "name", "amount", "dt"});

    private static TableEnvironment streaming(String restartStrategy) {
        Configuration conf = new Configuration();
        conf.setString("execution.checkpointing.interval", "100 ms");
        conf.setString("restart-strategy.type", restartStrategy);
        conf.setString("restart-strategy.fixed-delay.attempts", "100");
        conf.setString("restart-strategy.fixed-delay.delay", "1 s");
        conf.setString("parallelism.default", "2");
        return TableEnvironment.create(EnvironmentSettings.newInstance()
                .inStreamingMode()
                .withConfiguration(conf)
                .build());
    }

    /** A paced source of ids 1..rows: the job spans many checkpoints. */
    private static String numbers(int rows, int perSecond) {
        return "CREATE TEMPORARY TABLE numbers (id BIGINT) WITH ('connector' = 'datagen', "
                + "'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '" + rows + "', "
                + "'rows-per-second' = '" + perSecond + "')";
    }

    private static List<String> expected(int rows) {
        return LongStream.rangeClosed(1, rows).mapToObj(i -> i + "|m" + i).collect(Collectors.toList());
    }

    private static List<String> rows(Path dir) throws java.io.IOException {
        return ParquetFiles.rows(
                dir,
                g -> g.getLong("id", 0) + "|"
                        + (g.getFieldRepetitionCount("name") == 0 ? "null" : g.getString("name", 0)) + "|"
                        + g.getDouble("amount", 0));
    }
}

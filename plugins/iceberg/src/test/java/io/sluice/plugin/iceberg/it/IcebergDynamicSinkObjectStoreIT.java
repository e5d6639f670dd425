package io.sluice.plugin.iceberg.it;

import io.sluice.hadoopbridge.ObjectStores;
import io.sluice.runtime.sink.dynamic.DynamicRecord;
import io.sluice.runtime.sink.dynamic.DynamicRecordGenerator;
import io.sluice.runtime.sink.dynamic.DynamicSink;
import io.sluice.spi.distribution.DistributionMode;
import io.sluice.testservers.s3.FlinkS3FileSystem;
import io.sluice.testservers.s3.S3Request;
import io.sluice.testservers.s3.S3Server;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.Collector;
import org.apache.hadoop.hive.conf.HiveConf;
import org.apache.hadoop.hive.metastore.HiveMetaStoreClient;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.StaticTableOperations;
import org.apache.iceberg.Table;
import org.apache.iceberg.inmemory.InMemoryFileIO;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.io.LocalInputFile;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
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
 * The dynamic sink (one job, several tables) into Iceberg's {@code hive} catalog whose warehouse is
 * on an S3 API server, reached through Flink's {@code flink-s3-fs-hadoop} (the plugin's Hadoop
 * through its bridge): numbered records routed to four tables, none of which exists before the job
 * (the sink creates them, one partitioned), committed at checkpoints. Checked independently of the
 * plugin: each table's metadata location in the metastore, the table read by Iceberg's generic
 * reader and its live data files counted by parquet-java from the bytes the AWS SDK fetched, every
 * object under the table, no open multipart upload, and no mutating request outside the warehouse.
 */
class IcebergDynamicSinkObjectStoreIT {

    private static final String BUCKET = "iceberg-dynamic";
    private static final String WAREHOUSE = "s3a://" + BUCKET + "/wh";
    private static final long COUNT = 1_200;
    private static final int TABLES = 4;

    @RegisterExtension
    static final S3Server S3 = S3Server.inMemory(BUCKET).withFlinkFileSystems(FlinkS3FileSystem.HADOOP);

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(4)
                    .build());

    @TempDir
    static Path tmp;

    private static HiveMetastoreServer metastore;

    static final RowType ROW = RowType.of(
            new org.apache.flink.table.types.logical.LogicalType[] {new BigIntType(false), new VarCharType(true, 16)},
            new String[] {"id", "p"});

    @BeforeAll
    static void storage() throws Exception {
        TestPluginsDir.assumeIntegrationTestPhase();
        // the metastore of this JVM reaches s3a:// as the plugin does, through the bridge
        ObjectStores.routeThroughFlinkByDefault();
        metastore = HiveMetastoreServer.start(tmp.resolve("hive-warehouse"));
    }

    @AfterAll
    static void plainFileSystems() throws Exception {
        if (metastore != null) {
            metastore.close();
        }
    }

    /** Record {@code id} goes to {@code db.t<id % 4>}; table {@code t0} is partitioned by {@code p}. */
    static final class Numbers implements DynamicRecordGenerator<Long> {
        private static final long serialVersionUID = 1L;

        @Override
        public void generate(Long id, Collector<DynamicRecord> out) {
            int t = (int) (id % TABLES);
            GenericRowData row = GenericRowData.of(id, StringData.fromString("p" + id % 3));
            List<String> spec = t == 0 ? List.of("identity(p)") : List.of();
            DistributionMode mode = t % 2 == 0 ? DistributionMode.HASH : DistributionMode.NONE;
            out.collect(new DynamicRecord("db.t" + t, null, ROW, row, spec, mode, 0));
        }
    }

    @Test
    void everyTableInTheBucketHoldsExactlyItsRows() throws Exception {
        S3.traffic().clearRequests();
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        env.enableCheckpointing(300);
        // the numbers over at least four checkpoints: every table gets several commits
        DynamicSink.forInput(env.fromSource(
                        new DataGeneratorSource<>(
                                i -> i + 1, COUNT, RateLimiterStrategy.perCheckpoint((int) (COUNT / 4)), Types.LONG),
                        WatermarkStrategy.noWatermarks(),
                        "numbers"))
                .generator(new Numbers())
                .target("iceberg")
                .pluginsDir(TestPluginsDir.get())
                .catalog(Map.of(
                        "catalog-type",
                        "hive",
                        "uri",
                        metastore.uri(),
                        "warehouse",
                        WAREHOUSE,
                        "cache-enabled",
                        "false"))
                .writeParallelism(2)
                .append();
        env.execute("dynamic iceberg sink on S3");

        for (int t = 0; t < TABLES; t++) {
            String prefix = "wh/db.db/t" + t + "/";
            String metadata = metastoreMetadataLocation("t" + t);
            assertThat(metadata).startsWith("s3a://" + BUCKET + "/" + prefix + "metadata/");
            List<String> keys = S3.keys(BUCKET, prefix);
            assertThat(keys).anyMatch(k -> k.startsWith(prefix + "data/") && k.endsWith(".parquet"));
            assertThat(keys)
                    .as("every object of t%d under data/ or metadata/ (or its directory marker)", t)
                    .allMatch(k ->
                            k.equals(prefix) || k.startsWith(prefix + "data/") || k.startsWith(prefix + "metadata/"));

            Table table = fromTheBucket(prefix, metadata, "t" + t);
            List<String> expected = new ArrayList<>();
            for (long id = 1; id <= COUNT; id++) {
                if (id % TABLES == t) {
                    expected.add(id + "|p" + id % 3);
                }
            }
            assertThat(IcebergTables.rows(table)).as("t%d", t).containsExactlyInAnyOrderElementsOf(expected);
            assertThat(IcebergTables.snapshots(table))
                    .as("t%d committed at several checkpoints", t)
                    .hasSizeGreaterThan(1);
            assertThat(table.spec().fields()).as("t%d's spec", t).hasSize(t == 0 ? 1 : 0);
            Path copy = tmp.resolve("copy-t" + t);
            long parquetRows = 0;
            try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
                for (FileScanTask task : tasks) {
                    DataFile file = task.file();
                    String root = "s3a://" + BUCKET + "/" + prefix;
                    assertThat(file.location()).startsWith(root + "data/");
                    try (ParquetFileReader reader = ParquetFileReader.open(
                            new LocalInputFile(copy.resolve(file.location().substring(root.length()))))) {
                        assertThat(reader.getRecordCount()).isEqualTo(file.recordCount());
                        parquetRows += reader.getRecordCount();
                    }
                }
            }
            assertThat(parquetRows).as("t%d's rows in its live data files", t).isEqualTo(expected.size());
        }
        assertThat(S3.openUploads(BUCKET)).isEmpty();
        List<S3Request> outside = S3.traffic().requests().stream()
                .filter(r -> r.kind().mutates() && r.kind() != S3Request.Kind.DELETE_MULTIPLE)
                .filter(r -> !r.bucket().equals(BUCKET) || !r.key().startsWith("wh/"))
                .collect(Collectors.toList());
        assertThat(outside).isEmpty();
        assertThat(S3.keys(BUCKET, "")).allMatch(k -> k.startsWith("wh/"));
    }

    /**
     * The table at {@code metadata}, over a file IO of the bytes of its objects (downloaded by the
     * AWS SDK into {@code copy-<name>}): no Hadoop, bridge or Flink file system in the way.
     */
    private static Table fromTheBucket(String prefix, String metadata, String name) throws Exception {
        Path copy = S3.download(BUCKET, prefix, tmp.resolve("copy-" + name));
        InMemoryFileIO io = new InMemoryFileIO();
        String root = "s3a://" + BUCKET + "/" + prefix;
        try (Stream<Path> files = Files.walk(copy)) {
            for (Path f : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
                io.addFile(root + copy.relativize(f).toString().replace('\\', '/'), Files.readAllBytes(f));
            }
        }
        Table table = new BaseTable(new StaticTableOperations(metadata, io), name);
        assertThat(table.location() + "/").isEqualTo(root);
        return table;
    }

    /** The metastore's {@code metadata_location} of {@code db.<table>}, by a client of the test class path. */
    private static String metastoreMetadataLocation(String table) throws Exception {
        HiveConf conf = new HiveConf();
        conf.set("hive.metastore.uris", metastore.uri());
        HiveMetaStoreClient client = new HiveMetaStoreClient(conf);
        try {
            Map<String, String> parameters = client.getTable("db", table).getParameters();
            assertThat(parameters).containsEntry("table_type", "ICEBERG");
            assertThat(client.getTable("db", table).getSd().getLocation()).isEqualTo(WAREHOUSE + "/db.db/" + table);
            return parameters.get("metadata_location");
        } finally {
            client.close();
        }
    }
}

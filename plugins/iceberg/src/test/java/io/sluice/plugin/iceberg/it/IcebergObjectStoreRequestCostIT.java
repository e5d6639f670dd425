package io.sluice.plugin.iceberg.it;

import io.sluice.hadoopbridge.ObjectStores;
import io.sluice.runtime.sink.SinkDescriptor;
import io.sluice.runtime.sink.SinkValidation;
import io.sluice.runtime.sink.SluiceSink;
import io.sluice.testservers.s3.FlinkS3FileSystem;
import io.sluice.testservers.s3.S3Request;
import io.sluice.testservers.s3.S3Server;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
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
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.StaticTableOperations;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.flink.CatalogLoader;
import org.apache.iceberg.flink.TableLoader;
import org.apache.iceberg.flink.sink.FlinkSink;
import org.apache.iceberg.inmemory.InMemoryCatalog;
import org.apache.iceberg.rest.RESTCatalogServer;
import org.apache.iceberg.rest.RESTServerExtension;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a commit of the iceberg target costs on S3, in requests, beside Iceberg's own {@code
 * FlinkSink} (iceberg-flink-1.20) on the same server, the same S3 file system ({@code
 * flink-s3-fs-hadoop}, both through Hadoop's {@code HadoopFileIO} and the bridge), the same kind of
 * catalog ({@code rest}, the warehouse on S3) and the same rows: one writer, a table partitioned by
 * {@code bucket} (two values), {@value #ROWS_PER_CHECKPOINT} rows between two checkpoints (the
 * source waits for each checkpoint before it emits the next rows, so both jobs commit the same
 * files at the same checkpoints). The server's proxy counts every request of each job by kind
 * (LIST, HEAD, GET, PUT, multipart, COPY, DELETE); the test prints both sides per commit and holds
 * Sluice to no more requests per commit than {@code FlinkSink} and to no COPY. Totals are compared
 * per commit, not per run: where barriers fall decides how many commits a run makes. Both tables
 * are read back, from what the AWS SDK downloaded, by Iceberg's reader: every row once.
 */
class IcebergObjectStoreRequestCostIT {

    private static final String BUCKET = "iceberg-cost";
    private static final long ROWS = 3000;
    private static final int ROWS_PER_CHECKPOINT = 200;
    private static final RowType ROW = RowType.of(
            new LogicalType[] {new BigIntType(false), new VarCharType(false, 10)}, new String[] {"id", "bucket"});

    @RegisterExtension
    static final S3Server S3 = S3Server.inMemory(BUCKET).withFlinkFileSystems(FlinkS3FileSystem.HADOOP);

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(2)
                    .build());

    /** Iceberg's REST catalog server on an in-memory catalog whose files are on S3. */
    @RegisterExtension
    static final RESTServerExtension REST = new RESTServerExtension(Map.of(
            RESTCatalogServer.REST_PORT,
            RESTServerExtension.FREE_PORT,
            CatalogProperties.CATALOG_IMPL,
            InMemoryCatalog.class.getName(),
            CatalogProperties.FILE_IO_IMPL,
            "org.apache.iceberg.hadoop.HadoopFileIO",
            CatalogProperties.WAREHOUSE_LOCATION,
            "s3a://" + BUCKET + "/wh"));

    @TempDir
    Path tmp;

    @BeforeAll
    static void storage() {
        TestPluginsDir.assumeIntegrationTestPhase();
        // upstream's FlinkSink in this JVM reaches s3a:// as the plugin does: Hadoop over Flink's S3 file system
        ObjectStores.routeThroughFlinkByDefault();
    }

    private static String uri() {
        return "http://localhost:" + REST.config().get(RESTCatalogServer.REST_PORT) + "/";
    }

    @Test
    void aCommitCostsNoMoreRequestsThanWithFlinkSink() throws Exception {
        TableIdentifier upstreamTable = createTable("flinksink");
        Cost upstream = run(
                upstreamTable,
                rows -> FlinkSink.forRowData(rows)
                        .tableLoader(TableLoader.fromCatalog(
                                CatalogLoader.rest(
                                        "rest",
                                        new org.apache.hadoop.conf.Configuration(),
                                        Map.of(
                                                CatalogProperties.URI,
                                                uri(),
                                                CatalogProperties.FILE_IO_IMPL,
                                                "org.apache.iceberg.hadoop.HadoopFileIO")),
                                upstreamTable))
                        .append());
        TableIdentifier sluiceTable = createTable("sluice");
        Map<String, String> options = new HashMap<>();
        options.put("sluice.plugins.dir", TestPluginsDir.get().toString());
        options.put("target", "iceberg");
        options.put("catalog-type", "rest");
        options.put("uri", uri());
        options.put("io-impl", "org.apache.iceberg.hadoop.HadoopFileIO");
        options.put("catalog-database", "db");
        options.put("catalog-table", sluiceTable.name());
        SinkDescriptor descriptor = SinkDescriptor.resolve(options, ROW, List.of());
        SinkValidation.validate(descriptor);
        Cost sluice = run(sluiceTable, rows -> rows.sinkTo(SluiceSink.of(descriptor)));

        System.out.println("Requests per commit on S3, one writer, two partitions, Parquet, rest catalog:");
        System.out.println(String.format("%-20s %10s %10s", "kind", "FlinkSink", "Sluice"));
        for (S3Request.Kind kind : S3Request.Kind.values()) {
            if (upstream.counts.containsKey(kind) || sluice.counts.containsKey(kind)) {
                System.out.println(
                        String.format("%-20s %10.2f %10.2f", kind, upstream.perCommit(kind), sluice.perCommit(kind)));
            }
        }
        System.out.println(
                String.format("%-20s %10.2f %10.2f", "all", upstream.totalPerCommit(), sluice.totalPerCommit()));
        System.out.println(String.format("%-20s %10d %10d", "requests", upstream.total(), sluice.total()));
        System.out.println(String.format("%-20s %10d %10d", "commits", upstream.commits, sluice.commits));
        System.out.println(String.format("%-20s %10d %10d", "data files", upstream.dataFiles, sluice.dataFiles));

        assertThat(sluice.counts).as("requests of Sluice's job").doesNotContainKey(S3Request.Kind.COPY);
        // the same rows at the same checkpoints, one or two data files a commit on either side
        // (where a barrier falls among the rows decides): what differs is what a commit asks of the store
        assertThat(sluice.commits)
                .as("commits, Sluice %s beside FlinkSink %s", sluice, upstream)
                .isGreaterThan(5);
        assertThat(sluice.totalPerCommit())
                .as("requests per commit, Sluice %s beside FlinkSink %s", sluice, upstream)
                .isLessThanOrEqualTo(upstream.totalPerCommit());
        assertThat(sluice.perCommit(S3Request.Kind.PUT))
                .as("PUTs per commit, Sluice %s beside FlinkSink %s", sluice, upstream)
                .isLessThanOrEqualTo(upstream.perCommit(S3Request.Kind.PUT));
    }

    private static TableIdentifier createTable(String name) {
        Schema schema = new Schema(
                Types.NestedField.required(1, "id", Types.LongType.get()),
                Types.NestedField.required(2, "bucket", Types.StringType.get()));
        TableIdentifier id = TableIdentifier.of(Namespace.of("db"), name);
        if (!REST.client().namespaceExists(id.namespace())) {
            REST.client().createNamespace(id.namespace());
        }
        REST.client()
                .createTable(
                        id,
                        schema,
                        PartitionSpec.builderFor(schema).identity("bucket").build());
        return id;
    }

    /** Runs the job into {@code id} with {@code sink}; what it asked of S3, and the table read back. */
    private Cost run(TableIdentifier id, Consumer<DataStream<RowData>> sink) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        env.enableCheckpointing(200);
        DataGeneratorSource<RowData> source = new DataGeneratorSource<>(
                index -> GenericRowData.of(index + 1, StringData.fromString("b" + (index + 1) % 2)),
                ROWS,
                RateLimiterStrategy.perCheckpoint(ROWS_PER_CHECKPOINT),
                InternalTypeInfo.of(ROW));
        sink.accept(env.fromSource(source, WatermarkStrategy.noWatermarks(), "numbers"));
        S3.traffic().clearRequests();
        env.execute("request cost " + id);
        Map<S3Request.Kind, Long> counts = new EnumMap<>(S3Request.Kind.class);
        S3.traffic().requests().forEach(r -> counts.merge(r.kind(), 1L, Long::sum));

        // read back from what the AWS SDK downloaded, the metadata from the catalog
        TableMetadata metadata =
                ((HasTableOperations) REST.client().loadTable(id)).operations().current();
        String location = metadata.location();
        String prefix = location.substring(("s3a://" + BUCKET + "/").length()) + "/";
        Path copy = S3.download(BUCKET, prefix, tmp.resolve(id.name()));
        Table table =
                IcebergTables.fromCopy(copy, location + "/", io -> new StaticTableOperations(metadata, io), id.name());
        List<Long> ids = IcebergTables.records(table).stream()
                .map(r -> (Long) r.getField("id"))
                .sorted()
                .collect(Collectors.toList());
        assertThat(ids)
                .as("rows of " + id)
                .containsExactlyElementsOf(
                        LongStream.rangeClosed(1, ROWS).boxed().collect(Collectors.toList()));
        assertThat(IcebergTables.records(table))
                .extracting((Record r) -> r.getField("bucket"))
                .containsOnly("b0", "b1");
        List<Snapshot> snapshots = IcebergTables.snapshots(table);
        long dataFiles = snapshots.stream()
                .mapToLong(s -> Long.parseLong(s.summary().getOrDefault("added-data-files", "0")))
                .sum();
        return new Cost(counts, snapshots.size(), dataFiles);
    }

    private static final class Cost {
        final Map<S3Request.Kind, Long> counts;
        final int commits;
        final long dataFiles;

        Cost(Map<S3Request.Kind, Long> counts, int commits, long dataFiles) {
            this.counts = counts;
            this.commits = Math.max(1, commits);
            this.dataFiles = dataFiles;
        }

        double perCommit(S3Request.Kind kind) {
            return counts.getOrDefault(kind, 0L) / (double) commits;
        }

        long total() {
            return counts.values().stream().mapToLong(Long::longValue).sum();
        }

        double totalPerCommit() {
            return total() / (double) commits;
        }

        @Override
        public String toString() {
            return counts + " in " + commits + " commits of " + dataFiles + " data files";
        }
    }
}

package io.sluice.plugin.iceberg.it;

import io.sluice.hadoopbridge.ObjectStores;
import io.sluice.testservers.hdfs.HdfsServer;
import io.sluice.testservers.s3.FlinkS3FileSystem;
import io.sluice.testservers.s3.S3Fault;
import io.sluice.testservers.s3.S3Request;
import io.sluice.testservers.s3.S3Server;

import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.StaticTableOperations;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.inmemory.InMemoryCatalog;
import org.apache.iceberg.rest.RESTCatalogServer;
import org.apache.iceberg.rest.RESTServerExtension;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The iceberg target's failure campaign ({@link IcebergCampaign}: seeded schedules, append and
 * upsert, failures in the source, around Iceberg's commit and in the job right after a commit) on
 * real storage: an S3 API server through Flink's own {@code flink-s3-fs-hadoop} (the plugin's
 * Hadoop reaches it through its bridge) with the {@code rest} catalog (Iceberg's REST server over
 * an in-memory catalog, the warehouse on S3), and HDFS with the {@code hadoop} catalog, whose
 * single DataNode restarts at a moment drawn from the seed. On S3 the
 * server's proxy adds the store's own faults, drawn from the seed: 503 Slow Down, 500, connections
 * reset mid-upload or after the server acted but before the client heard, answers slower than the
 * client's timeout; on puts, reads, heads, listings, deletes and multipart requests.
 *
 * <p>Besides the campaign's checks (every row once, read back by Iceberg's reader of the test class
 * path from what the AWS SDK downloaded or from HDFS; the snapshots one per checkpoint, in order,
 * adding up to the rows), each run checks the store: every object of the table under its {@code
 * data/} or {@code metadata/}, no object written or deleted outside the table's location, no
 * multipart upload left open, no data file in {@code data/} that no snapshot references (a
 * restored writer deletes what its failed predecessors wrote and nothing commits).
 *
 * <p>CI runs {@code sluice.campaign.store-runs} seeds per store (default 2) from {@code
 * sluice.campaign.seed}; rerun one with {@code -Dsluice.campaign.seed=<seed>
 * -Dsluice.campaign.store-runs=1}.
 */
class IcebergObjectStoreFailureCampaignIT {

    private static final String BUCKET = "iceberg-campaign";

    @RegisterExtension
    static final S3Server S3 =
            S3Server.inMemory(BUCKET).withFlinkFileSystems(S3Server::flinkConfigFailingFast, FlinkS3FileSystem.HADOOP);

    @RegisterExtension
    static final HdfsServer HDFS = new HdfsServer();

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(4)
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
        // the REST server of this JVM reaches s3a:// as the plugin does
        ObjectStores.routeThroughFlinkByDefault();
    }

    static Stream<Arguments> runs() {
        long base = Long.getLong("sluice.campaign.seed", 20261201L);
        int runs = Integer.getInteger("sluice.campaign.store-runs", 2);
        return Stream.of(System.getProperty("sluice.campaign.stores", "s3,hdfs").split(","))
                .flatMap(store -> LongStream.range(base, base + runs).mapToObj(seed -> Arguments.of(store, seed)));
    }

    @ParameterizedTest(name = "{0} seed {1}")
    @MethodSource("runs")
    void everyRecordExactlyOnceAndNothingLeftInTheStore(String store, long seed) throws Exception {
        IcebergCampaign run = new IcebergCampaign(seed, tmp.resolve("markers"));
        System.out.println("campaign iceberg " + store + " " + run);
        if (store.equals("s3")) {
            onS3(run, seed);
        } else {
            onHdfs(run, seed);
        }
    }

    private void onS3(IcebergCampaign run, long seed) throws Exception {
        TableIdentifier id = TableIdentifier.of(Namespace.of("db"), "numbers_" + seed);
        String location = run.createTable(REST.client(), id).location();
        String root = "s3a://" + BUCKET + "/";
        assertThat(location).startsWith(root + "wh/");
        String prefix = location.substring(root.length()) + "/";

        S3.traffic().clearRequests();
        // the store's faults in every run, drawn apart from the schedule; a run makes some
        // hundred requests (fewer than the filesystem target's persists): a few of them hit
        Random draws = new Random(seed * 17 + 3);
        S3.traffic().faults(S3Fault.Plan.campaign(seed, 0.03 + draws.nextDouble() * 0.07, 2 + draws.nextInt(4)));
        List<String> faults;
        try {
            run.execute(
                    Map.of(
                            "catalog-type",
                            "rest",
                            "uri",
                            "http://localhost:" + REST.config().get(RESTCatalogServer.REST_PORT) + "/",
                            "catalog-database",
                            "db",
                            "catalog-table",
                            id.name()),
                    () -> REST.client().loadTable(id),
                    Duration.ofMillis(200));
        } finally {
            S3.traffic().faults(S3Fault.Plan.NONE);
            faults = S3.traffic().injectedFaults();
        }
        List<S3Request> requests = S3.traffic().requests();
        String context = "S3 faults " + faults;

        // the metadata from the catalog, every file it names read from what the AWS SDK downloaded
        TableMetadata metadata =
                ((HasTableOperations) REST.client().loadTable(id)).operations().current();
        Path copy = S3.download(BUCKET, prefix, tmp.resolve("copy"));
        Table table =
                IcebergTables.fromCopy(copy, location + "/", io -> new StaticTableOperations(metadata, io), id.name());
        int injected = run.injectedFailures() + faults.size();
        run.check(table, "iceberg-s3", injected, context);

        List<String> keys = S3.keys(BUCKET, prefix);
        assertThat(keys)
                .as("every object of the table under data/ or metadata/; " + context)
                .allMatch(
                        k -> k.equals(prefix) || k.startsWith(prefix + "data/") || k.startsWith(prefix + "metadata/"));
        assertThat(S3.traffic().mutationsOutside(BUCKET, prefix))
                .as("requests that changed keys outside " + prefix)
                .isEmpty();
        long multipart = requests.stream()
                .filter(r -> r.kind() == S3Request.Kind.MULTIPART_INIT)
                .count();
        List<String> open = S3.openUploads(BUCKET);
        Set<String> referenced = IcebergTables.referencedFiles(table);
        List<String> orphans = keys.stream()
                .filter(k -> k.startsWith(prefix + "data/") && !k.endsWith("/"))
                .filter(k -> !referenced.contains(root + k))
                .collect(Collectors.toList());
        System.out.println("campaign iceberg s3 seed " + seed + ": " + requests.size() + " requests, " + faults.size()
                + " faults " + faults + ", " + multipart + " multipart uploads begun, " + open.size() + " left open, "
                + orphans.size() + " unreferenced data files " + orphans);
        assertThat(open).as("multipart uploads left open; " + context).isEmpty();
        assertThat(orphans).as("data files no snapshot references; " + context).isEmpty();
    }

    private void onHdfs(IcebergCampaign run, long seed) throws Exception {
        String warehouse = HDFS.uri() + "/iceberg-wh";
        String name = "numbers_" + seed;
        TableIdentifier id = TableIdentifier.of(Namespace.of("db"), name);
        // Hadoop's HDFS client and Iceberg's Hadoop catalog of the test class path, not the plugin's
        Configuration conf = new Configuration();
        org.apache.hadoop.fs.FileSystem hdfs = org.apache.hadoop.fs.FileSystem.get(URI.create(HDFS.uri()), conf);
        List<String> before = files(hdfs);
        try (HadoopCatalog catalog = new HadoopCatalog(conf, warehouse)) {
            run.createTable(catalog, id);
            // the store's fault on HDFS: its DataNode dies and comes back while the writers have
            // blocks open and the catalog writes metadata; the plugin's Hadoop client gets the
            // settings of a one-DataNode cluster from hadoop-conf-dir, as an operator gives them
            Path hadoopConf = HdfsServer.writeClientSiteFile(tmp.resolve("hadoop-conf"));
            HdfsServer.DataNodeRestart restart =
                    HDFS.restartDataNodeLater(seed, Duration.ofMillis(300), Duration.ofMillis(2000));
            long endedAtMs;
            try {
                run.execute(
                        Map.of(
                                "catalog-type",
                                "hadoop",
                                "warehouse",
                                warehouse,
                                "hadoop-conf-dir",
                                hadoopConf.toString(),
                                "catalog-database",
                                "db",
                                "catalog-table",
                                name),
                        () -> catalog.loadTable(id),
                        Duration.ofMillis(50));
            } finally {
                endedAtMs = restart.elapsedMs();
                // the next run starts on a DataNode that is up
                restart.awaitBack(Duration.ofSeconds(60));
            }
            long backAtMs = restart.awaitBack(Duration.ZERO);
            boolean duringJob = restart.delayMs() < endedAtMs;
            System.out.println("campaign iceberg hdfs seed " + seed + ": " + restart + " of " + endedAtMs
                    + " ms (back after " + backAtMs + " ms)");
            Table table = catalog.loadTable(id);
            run.check(table, "iceberg-hdfs", run.injectedFailures() + (duringJob ? 1 : 0), "hdfs, " + restart);

            String dir = "/iceberg-wh/db/" + name + "/";
            List<String> written = files(hdfs);
            written.removeAll(before);
            assertThat(written)
                    .as("files written by the run")
                    .isNotEmpty()
                    .allMatch(f -> f.startsWith(dir + "data/") || f.startsWith(dir + "metadata/"));
            Set<String> referenced = IcebergTables.referencedFiles(table);
            List<String> orphans = written.stream()
                    .filter(f -> f.startsWith(dir + "data/"))
                    .filter(f -> referenced.stream()
                            .noneMatch(r -> URI.create(r).getPath().equals(f)))
                    .collect(Collectors.toList());
            System.out.println("campaign iceberg hdfs seed " + seed + ": " + orphans.size()
                    + " unreferenced data files " + orphans);
            assertThat(orphans)
                    .as("data files no snapshot references; hdfs, " + restart)
                    .isEmpty();
        }
    }

    /** Every file on the HDFS, by path. */
    private static List<String> files(org.apache.hadoop.fs.FileSystem hdfs) throws IOException {
        List<String> files = new ArrayList<>();
        RemoteIterator<LocatedFileStatus> listed = hdfs.listFiles(new org.apache.hadoop.fs.Path("/"), true);
        while (listed.hasNext()) {
            files.add(listed.next().getPath().toUri().getPath());
        }
        return files;
    }
}

package io.sluice.plugin.hive.it;

import io.sluice.testservers.s3.FlinkS3FileSystem;
import io.sluice.testservers.s3.RequestCost;
import io.sluice.testservers.s3.S3Request;
import io.sluice.testservers.s3.S3Server;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.serialization.SimpleStringEncoder;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.file.sink.FileSink;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.filesystem.BucketAssigner;
import org.apache.flink.streaming.api.functions.sink.filesystem.bucketassigners.SimpleVersionedStringSerializer;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a checkpoint of the hive target costs on S3, in requests, beside Flink's own {@code
 * FileSink} on the same server, the same S3 file system ({@code flink-s3-fs-hadoop}) and the same
 * rows: one writer, a table partitioned in two, text files, {@value #ROWS_PER_CHECKPOINT} rows
 * between two checkpoints (the source waits for each checkpoint, so both jobs persist the same
 * files at the same checkpoints). The hive target also commits each partition it wrote at every
 * checkpoint ({@code metastore,success-file}): its {@code _SUCCESS} object, and what the embedded
 * metastore asks of the store for a new partition. The test prints both sides per checkpoint (the
 * README's figures) and holds the hive target's persists to no more requests than {@code
 * FileSink}'s, its files to no more multipart requests, and its commits to no COPY (no rename that
 * the store turns into a copy). Both outputs are read back: every row once.
 */
class HiveObjectStoreRequestCostIT {

    private static final String BUCKET = "hive-cost";
    private static final long ROWS = 2000;
    private static final int ROWS_PER_CHECKPOINT = 200;

    @RegisterExtension
    static final S3Server S3 = S3Server.inMemory(BUCKET).withFlinkFileSystems(FlinkS3FileSystem.HADOOP);

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(2)
                    .build());

    @TempDir
    Path tmp;

    @BeforeAll
    static void pluginDir() {
        HivePluginDir.assumeIntegrationTestPhase();
    }

    @Test
    void aCheckpointOfTheHiveTargetCostsNoMoreRequestsPerPersistThanFileSink() throws Exception {
        RequestCost fileSink = run("filesink", (env, numbers) -> {
            numbers.map(i -> i + "," + bucketOf(i))
                    .returns(Types.STRING)
                    .sinkTo(FileSink.forRowFormat(
                                    new org.apache.flink.core.fs.Path("s3a://" + BUCKET + "/filesink"),
                                    new SimpleStringEncoder<String>())
                            .withBucketAssigner(new ByBucketColumn())
                            .build());
            env.execute("request cost filesink");
        });
        RequestCost hive = run("hive", (env, numbers) -> {
            StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
            tEnv.executeSql("CREATE CATALOG h WITH ('type' = 'sluice', 'target' = 'hive', "
                    + "'sluice.plugins.dir' = '" + HivePluginDir.get() + "', "
                    + "'metastore' = 'embedded', 'metastore.dir' = '" + tmp.resolve("metastore") + "')");
            tEnv.executeSql(
                    "CREATE DATABASE h.db WITH ('hive.database.location-uri' = 's3a://" + BUCKET + "/hive/db.db')");
            tEnv.executeSql("CREATE TABLE h.db.t (id BIGINT, bucket STRING) PARTITIONED BY (bucket) WITH ("
                    + "'hive.storage.file-format' = 'textfile', "
                    + "'sink.partition-commit.policy.kind' = 'metastore,success-file')");
            DataStream<Row> rows = numbers.map(i -> Row.of(i, bucketOf(i)))
                    .returns(Types.ROW_NAMED(new String[] {"id", "bucket"}, Types.LONG, Types.STRING));
            S3.traffic().clearRequests(); // the job's requests, not the catalog's
            tEnv.fromDataStream(rows).executeInsert("h.db.t").await();
        });

        System.out.println("Requests per checkpoint on S3, one writer, two partitions, text:");
        System.out.print(RequestCost.table("FileSink", fileSink, "hive", hive));
        long successFiles = S3.traffic().requests().stream()
                .filter(r -> r.kind() == S3Request.Kind.PUT && r.key().endsWith("/_SUCCESS"))
                .count();
        System.out.println("_SUCCESS PUTs of the hive target: " + successFiles);
        System.out.println("requests of the hive target neither on a tail nor of an upload ("
                + hive.others().size() + "):");
        hive.others().forEach(r -> System.out.println("  " + r));

        assertThat(hive.count(S3Request.Kind.COPY)).as("COPY requests").isZero();
        assertThat(hive.perPersist())
                .as("requests per persist, hive %s beside FileSink %s", hive, fileSink)
                .isLessThanOrEqualTo(fileSink.perPersist());
        assertThat(hive.persists())
                .as("persists, at most two open files a checkpoint")
                .isLessThanOrEqualTo(2 * hive.checkpoints());
        assertThat(hive.ofUploads()).as("multipart requests").isLessThanOrEqualTo(fileSink.ofUploads());
        // what committing the partitions adds: the metastore's look at a partition's directory
        // when it is added, a _SUCCESS object per partition commit (FileSink commits no partition)
        assertThat(hive.others().size() - fileSink.others().size())
                .as("requests of the partition commits, %d checkpoints", hive.checkpoints())
                .isLessThanOrEqualTo(2 * 2 * hive.checkpoints());
        assertThat(successFiles)
                .as("_SUCCESS objects written: at most one per partition and checkpoint")
                .isBetween(2L, 2L * (hive.checkpoints() + 1));

        TreeMap<Long, String> expected = new TreeMap<>();
        for (long id = 1; id <= ROWS; id++) {
            expected.put(id, bucketOf(id));
        }
        assertThat(rowsIn("filesink", line -> line.split(",")[1])).isEqualTo(expected);
        assertThat(rowsIn("hive/db.db/t", null)).isEqualTo(expected);
    }

    private static String bucketOf(long id) {
        return "b" + (id % 2);
    }

    /** Builds and runs a job on the paced numbers; the job's requests are those after the last clear. */
    private interface Job {
        void run(StreamExecutionEnvironment env, DataStream<Long> numbers) throws Exception;
    }

    private RequestCost run(String prefix, Job job) throws Exception {
        String runId = UUID.randomUUID().toString();
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        env.enableCheckpointing(200);
        DataGeneratorSource<Long> source = new DataGeneratorSource<>(
                index -> index + 1, ROWS, RateLimiterStrategy.perCheckpoint(ROWS_PER_CHECKPOINT), Types.LONG);
        DataStream<Long> numbers = env.fromSource(source, WatermarkStrategy.noWatermarks(), "numbers")
                .map(new RequestCost.CheckpointCounter<Long>(runId))
                .returns(Types.LONG);
        S3.traffic().clearRequests();
        long started = System.nanoTime();
        job.run(env, numbers);
        long minutes = TimeUnit.NANOSECONDS.toMinutes(System.nanoTime() - started);
        return RequestCost.of(S3.traffic().requests(), prefix, RequestCost.CheckpointCounter.completed(runId), minutes);
    }

    /**
     * The rows under {@code prefix} (id to bucket), from the visible files the AWS SDK downloads:
     * the bucket from each line ({@code bucketOfLine}) or, if that is null, from the file's
     * partition directory; fails on an id seen twice.
     */
    private TreeMap<Long, String> rowsIn(String prefix, Function<String, String> bucketOfLine) throws IOException {
        Path copy = S3.download(BUCKET, prefix + "/", tmp.resolve(prefix.replace('/', '-')));
        TreeMap<Long, String> rows = new TreeMap<>();
        List<Path> files;
        try (Stream<Path> walk = Files.walk(copy)) {
            files = walk.filter(Files::isRegularFile)
                    .filter(f -> !f.getFileName().toString().startsWith("_")
                            && !f.getFileName().toString().startsWith("."))
                    .collect(Collectors.toList());
        }
        for (Path file : files) {
            String partition = file.getParent().getFileName().toString();
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                long id = Long.parseLong(line.split(",")[0]);
                String bucket =
                        bucketOfLine != null ? bucketOfLine.apply(line) : partition.substring("bucket=".length());
                String before = rows.put(id, bucket);
                if (before != null) {
                    throw new UncheckedIOException(new IOException("id " + id + " twice under " + prefix));
                }
            }
        }
        return rows;
    }

    /** FileSink's buckets as the hive table's partitions: {@code bucket=b0}, {@code bucket=b1}. */
    private static final class ByBucketColumn implements BucketAssigner<String, String> {
        @Override
        public String getBucketId(String element, Context context) {
            return "bucket=" + element.substring(element.indexOf(',') + 1);
        }

        @Override
        public SimpleVersionedSerializer<String> getSerializer() {
            return SimpleVersionedStringSerializer.INSTANCE;
        }
    }
}

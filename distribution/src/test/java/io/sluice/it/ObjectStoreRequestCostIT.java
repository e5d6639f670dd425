package io.sluice.it;

import io.sluice.runtime.sink.SluiceSink;
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
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a checkpoint costs on S3, in requests, beside Flink's own {@code FileSink} on the same
 * server, the same S3 file system ({@code flink-s3-fs-hadoop}) and the same rows: one writer, two
 * partitions, csv, {@value #ROWS_PER_CHECKPOINT} rows between two checkpoints (the source waits for
 * each checkpoint before it emits the next rows, so both jobs persist the same files at the same
 * checkpoints; a steady pace against a checkpoint timer made the number of persists vary from run
 * to run). The server's proxy counts every request by kind (LIST, HEAD, GET, PUT, multipart, COPY,
 * DELETE); the test prints both sides per checkpoint and holds Sluice to no more requests for the
 * same rows than {@code FileSink} and to no COPY (a commit never relies on a rename the store turns
 * into a copy).
 * Both outputs are read back: every row once.
 */
class ObjectStoreRequestCostIT {

    private static final String BUCKET = "cost-lake";
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

    @TempDir
    Path tmp;

    @Test
    void aCheckpointCostsNoMoreRequestsThanWithFileSink() throws Exception {
        RequestCost fileSink = run(
                "filesink",
                numbers -> numbers.map(i -> i + ",b" + (i % 2))
                        .returns(Types.STRING)
                        .sinkTo(FileSink.forRowFormat(
                                        new org.apache.flink.core.fs.Path("s3a://" + BUCKET + "/filesink"),
                                        new SimpleStringEncoder<String>())
                                .withBucketAssigner(new ByBucketColumn())
                                .build()));
        RequestCost sluice = run(
                "sluice",
                numbers -> numbers.map(i -> (RowData) GenericRowData.of(i, StringData.fromString("b" + (i % 2))))
                        .returns(InternalTypeInfo.of(ROW))
                        .sinkTo(SluiceSink.forRowData(ROW)
                                .withTarget("filesystem")
                                .withPluginsDir(TestDistribution.pluginsDir())
                                .withPath("s3a://" + BUCKET + "/sluice")
                                .withFormat("csv")
                                .withPartitionKeys("bucket")
                                .build()));

        System.out.println("Requests per checkpoint on S3, one writer, two partitions, csv:");
        System.out.print(RequestCost.table("FileSink", fileSink, "Sluice", sluice));

        assertThat(sluice.count(S3Request.Kind.COPY)).as("COPY requests").isZero();
        // Both sides persist through Flink's S3 recoverable writer at each checkpoint that found new
        // rows in a file (PUT of the unfinished tail; HEAD, DELETE, LIST to drop the one before).
        // Where a barrier falls among the rows decides how many persists a run makes (a checkpoint
        // taken after the first row persists one file, not two), so the totals of two runs differ
        // by chance; what must hold is the cost of each persist, at most one persist per open file
        // per checkpoint, and the same multipart uploads.
        assertThat(sluice.perPersist())
                .as("requests per persist, Sluice %s beside FileSink %s", sluice, fileSink)
                .isLessThanOrEqualTo(fileSink.perPersist());
        assertThat(sluice.persists())
                .as("persists, at most two open files a checkpoint")
                .isLessThanOrEqualTo(2 * sluice.checkpoints());
        assertThat(sluice.ofUploads()).as("multipart requests").isLessThanOrEqualTo(fileSink.ofUploads());
        // the committer's sweep for uploads a retried initiation left under published keys: one
        // listing a minute at most, and one when it closes
        assertThat(sluice.count(S3Request.Kind.LIST_UPLOADS))
                .as("listings of open uploads in a run of %d whole minute(s)", sluice.minutes())
                .isBetween(1L, 2 + sluice.minutes());
        assertThat(idsIn("filesink")).containsExactlyElementsOf(all());
        assertThat(idsIn("sluice")).containsExactlyElementsOf(all());
    }

    private RequestCost run(String name, java.util.function.Consumer<DataStream<Long>> sink) throws Exception {
        String runId = UUID.randomUUID().toString();
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        env.enableCheckpointing(200);
        DataGeneratorSource<Long> source = new DataGeneratorSource<>(
                index -> index + 1, ROWS, RateLimiterStrategy.perCheckpoint(ROWS_PER_CHECKPOINT), Types.LONG);
        DataStream<Long> numbers = env.fromSource(source, WatermarkStrategy.noWatermarks(), "numbers")
                .map(new RequestCost.CheckpointCounter<Long>(runId))
                .returns(Types.LONG);
        sink.accept(numbers);
        S3.traffic().clearRequests();
        long started = System.nanoTime();
        env.execute("request cost " + name);
        long minutes = TimeUnit.NANOSECONDS.toMinutes(System.nanoTime() - started);
        return RequestCost.of(S3.traffic().requests(), name, RequestCost.CheckpointCounter.completed(runId), minutes);
    }

    private TreeSet<Long> idsIn(String name) {
        Path copy = S3.download(BUCKET, name + "/", tmp.resolve(name));
        List<String> lines = CommittedFiles.lines(copy);
        assertThat(lines).as(name).hasSize((int) ROWS);
        return lines.stream().map(l -> Long.parseLong(l.split(",")[0])).collect(Collectors.toCollection(TreeSet::new));
    }

    private static TreeSet<Long> all() {
        return LongStream.rangeClosed(1, ROWS).boxed().collect(Collectors.toCollection(TreeSet::new));
    }

    /** FileSink's buckets as Sluice's partitions: {@code bucket=b0}, {@code bucket=b1}. */
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

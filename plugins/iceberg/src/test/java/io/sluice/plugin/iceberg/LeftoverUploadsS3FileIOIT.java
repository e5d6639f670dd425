package io.sluice.plugin.iceberg;

import io.sluice.plugin.iceberg.it.VendingRestCatalogServer;
import io.sluice.spi.Payload;
import io.sluice.spi.sink.TargetCommitter;
import io.sluice.spi.sink.TargetWriter;
import io.sluice.spi.sink.WriterLineage;
import io.sluice.testkit.TestSinkContext;
import io.sluice.testservers.s3.S3Request;
import io.sluice.testservers.s3.S3Server;

import com.amazonaws.services.s3.model.AbortMultipartUploadRequest;
import com.amazonaws.services.s3.model.ListMultipartUploadsRequest;
import com.amazonaws.services.s3.model.ListPartsRequest;
import com.amazonaws.services.s3.model.MultipartUpload;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.Table;
import org.apache.iceberg.inmemory.InMemoryCatalog;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.PositionOutputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import static io.sluice.plugin.iceberg.Writes.ids;
import static io.sluice.plugin.iceberg.Writes.request;
import static io.sluice.plugin.iceberg.Writes.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A restored writer of a table on Iceberg's own {@code S3FileIO} aborts the multipart uploads its
 * dead predecessors left open, through the table's own S3 client, on a cluster where Flink has no
 * S3 file system at all (as {@code bin/sluice} or a cluster without {@code flink-s3-fs-hadoop}):
 * the credentials and endpoint are the catalog's {@code s3.*} options only.
 *
 * <p>The uploads are begun as a killed writer leaves them: an output file of the table's {@code
 * S3FileIO}, written past its multipart threshold so that parts went up, never closed. The dead
 * writers are the restored state's (its files numbered above what it handed over) and an earlier
 * attempt from the same checkpoint (the lineage's predecessor). A live writer's upload in the same
 * directory, and uploads under the dead writer's names outside the table's data location (a
 * sibling directory whose name begins alike, another table) stay open; the file the restored
 * state handed over is committed afterwards, rows intact. With {@code ResolvingFileIO}, which
 * resolves {@code s3://} to {@code S3FileIO}, the same.
 */
class LeftoverUploadsS3FileIOIT {

    private static final String BUCKET = "leftover-uploads";
    private static final String OPERATOR = "00000000000000000000000000000b0b";
    private static final String WRITER_A = "6f1c1a52-0000-3000-8000-00000000000a";
    private static final String WRITER_B = "6f1c1a52-0000-3000-8000-00000000000b";
    private static final String WRITER_C = "6f1c1a52-0000-3000-8000-00000000000c";
    private static final String WRITER_D = "6f1c1a52-0000-3000-8000-00000000000d";
    /** S3's least part size, and S3FileIO's: its upload begins once a file holds this much. */
    private static final int PART_SIZE = 5 * 1024 * 1024;

    /** No Flink S3 file system: the only S3 client is the table's. */
    @RegisterExtension
    static final S3Server S3 = S3Server.inMemory(BUCKET);

    @TempDir
    static Path tmp;

    private static VendingRestCatalogServer rest;

    @BeforeAll
    static void servers() throws Exception {
        // S3Proxy takes neither the AWS SDK's flexible checksums nor their validation (IcebergS3FileIOIT)
        System.setProperty("aws.requestChecksumCalculation", "when_required");
        System.setProperty("aws.responseChecksumValidation", "when_required");
        InMemoryCatalog backing = new InMemoryCatalog();
        Map<String, String> properties = new HashMap<>(s3FileIoProperties("org.apache.iceberg.aws.s3.S3FileIO"));
        properties.put(CatalogProperties.WAREHOUSE_LOCATION, "s3://" + BUCKET + "/wh");
        backing.initialize("backing", properties);
        rest = VendingRestCatalogServer.start(backing, Map.of());
    }

    @AfterAll
    static void stop() throws Exception {
        System.clearProperty("aws.requestChecksumCalculation");
        System.clearProperty("aws.responseChecksumValidation");
        if (rest != null) {
            rest.close();
        }
    }

    /** Each test begins with no open upload. */
    @AfterEach
    void abortEveryUpload() {
        for (MultipartUpload upload : S3.client()
                .listMultipartUploads(new ListMultipartUploadsRequest(BUCKET))
                .getMultipartUploads()) {
            S3.client()
                    .abortMultipartUpload(
                            new AbortMultipartUploadRequest(BUCKET, upload.getKey(), upload.getUploadId()));
        }
    }

    /** {@code io-impl} {@code ioImpl} on the test server, with the keys and a part size of 5 MB. */
    private static Map<String, String> s3FileIoProperties(String ioImpl) {
        Map<String, String> p = new HashMap<>();
        p.put(CatalogProperties.FILE_IO_IMPL, ioImpl);
        p.put("s3.endpoint", S3.endpoint());
        p.put("s3.path-style-access", "true");
        p.put("client.region", "us-east-1");
        p.put("s3.access-key-id", S3Server.ACCESS_KEY);
        p.put("s3.secret-access-key", S3Server.SECRET_KEY);
        // S3Proxy takes neither trailing checksums nor aws-chunked uploads over http (IcebergS3FileIOIT)
        p.put("client.legacy-md5-plugin-enabled", "true");
        p.put("s3.chunked-encoding-enabled", "false");
        p.put("http-client.type", "urlconnection");
        p.put("s3.client-factory-impl", "org.apache.iceberg.aws.s3.DefaultS3FileIOAwsClientFactory");
        // an upload begins once a file holds one part
        p.put("s3.multipart.part-size-bytes", String.valueOf(PART_SIZE));
        p.put("s3.multipart.threshold", "1.0");
        p.put("s3.staging-dir", tmp.toString());
        return p;
    }

    @ParameterizedTest
    @ValueSource(strings = {"org.apache.iceberg.aws.s3.S3FileIO", "org.apache.iceberg.io.ResolvingFileIO"})
    void aRestoredWriterAbortsTheDeadWritersUploadsThroughTheTablesS3FileIo(String ioImpl) throws Exception {
        assertThatThrownBy(() -> new org.apache.flink.core.fs.Path("s3://" + BUCKET + "/").getFileSystem())
                .as("Flink's own S3 file system is out of this test");
        String tableName = "t_" + ioImpl.substring(ioImpl.lastIndexOf('.') + 1).toLowerCase();
        TestSinkContext.Builder base = TestSinkContext.builder(Writes.ROW)
                .jobId(IcebergSinks.JOB)
                .subtask(0, 2)
                .option("catalog-type", "rest")
                .option("uri", rest.uri())
                .option("catalog-database", "db")
                .option("catalog-table", tableName)
                .options(s3FileIoProperties(ioImpl));
        TestSinkContext a =
                base.writerLineage(WriterLineage.of(WRITER_A, List.of())).build();
        IcebergTargetFactory target = new IcebergTargetFactory();
        target.validate(a);
        Table table = CatalogTable.load(a.options()).table();
        assertThat(table.io().getClass().getName()).isEqualTo(ioImpl);
        String tableKey = "wh/db/" + tableName + "/";
        assertThat(table.location() + "/").isEqualTo("s3://" + BUCKET + "/" + tableKey);
        String data = "s3://" + BUCKET + "/" + tableKey + "data/";

        // writer A hands file 1 over at checkpoint 1, then dies sending file 2; attempt C, restored
        // from checkpoint 1 before, died sending its first file
        TargetWriter writerA = target.createWriter(a, List.of());
        List<Payload> checkpoint1 = write(writerA, 1, 10);
        List<Payload> state = writerA.snapshotState(1);
        String aName = "00000-0-" + WRITER_A + "-00002.parquet";
        // the streams stay open: closing one would complete its upload
        List<PositionOutputStream> killed = new ArrayList<>();
        killed.add(beginUpload(table.io(), data + aName, 2));
        killed.add(beginUpload(table.io(), data + "dt=2026-12-07/00000-0-" + WRITER_C + "-00001.parquet", 2));
        // a live writer of another subtask, and the dead writer's name outside the data location
        List<String> staying = List.of(
                tableKey + "data/00001-0-" + WRITER_D + "-00001.parquet",
                tableKey + "data-old/" + aName,
                "wh/db/u/data/" + aName);
        for (String key : staying) {
            killed.add(beginUpload(table.io(), "s3://" + BUCKET + "/" + key, 1));
        }
        assertThat(S3.openUploads(BUCKET)).hasSize(5);
        S3.traffic().clearRequests();

        // attempt B, restored from checkpoint 1 after C
        target.createWriter(
                        base.writerLineage(WriterLineage.of(WRITER_B, List.of(WRITER_C)))
                                .build(),
                        state)
                .close();

        assertThat(S3.openUploads(BUCKET, tableKey + "data/"))
                .as("uploads of the dead writers under the table's data location")
                .containsExactly(staying.get(0));
        assertThat(S3.openUploads(BUCKET)).containsExactlyInAnyOrderElementsOf(staying);
        List<S3Request> aborts = S3.traffic().requests().stream()
                .filter(r -> r.kind() == S3Request.Kind.MULTIPART_ABORT)
                .collect(Collectors.toList());
        assertThat(aborts)
                .hasSize(2)
                .allSatisfy(r -> assertThat(r.userAgent())
                        .as("the table's S3FileIO, AWS SDK v2")
                        .contains("s3fileio/")
                        .contains("aws-sdk-java/2."));

        // what A handed over before the checkpoint is committed, rows intact
        try (TargetCommitter committer = target.createCommitter(a)) {
            committer.commit(request(IcebergSinks.JOB, OPERATOR, 1, checkpoint1));
        }
        assertThat(ids(CatalogTable.load(a.options()).table()))
                .isEqualTo(LongStream.rangeClosed(1, 10).boxed().collect(Collectors.toList()));
    }

    /**
     * Begins the upload of {@code location} as a writer killed while writing it leaves it: more
     * than {@code parts} parts written to the file IO's output stream, so {@code parts} went up as
     * parts of an upload, and the stream never closed (closing would complete the upload).
     */
    private static PositionOutputStream beginUpload(FileIO io, String location, int parts) throws IOException {
        PositionOutputStream out = io.newOutputFile(location).create();
        byte[] chunk = new byte[1024 * 1024];
        new Random(location.hashCode()).nextBytes(chunk);
        long chunks = (long) parts * PART_SIZE / chunk.length + 1;
        for (long i = 0; i < chunks; i++) {
            out.write(chunk);
        }
        String key = location.substring(("s3://" + BUCKET + "/").length());
        awaitParts(key, parts);
        return out;
    }

    /** Waits until the server holds {@code parts} parts of an open upload of {@code key}. */
    private static void awaitParts(String key, int parts) {
        long deadline = System.nanoTime() + 60_000_000_000L;
        int uploaded = 0;
        while (System.nanoTime() < deadline) {
            for (MultipartUpload upload : S3.client()
                    .listMultipartUploads(new ListMultipartUploadsRequest(BUCKET).withPrefix(key))
                    .getMultipartUploads()) {
                if (upload.getKey().equals(key)) {
                    uploaded = S3.client()
                            .listParts(new ListPartsRequest(BUCKET, key, upload.getUploadId()))
                            .getParts()
                            .size();
                }
            }
            if (uploaded >= parts) {
                return;
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        throw new AssertionError("The upload of " + key + " has " + uploaded + " parts, not " + parts);
    }
}

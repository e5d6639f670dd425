package io.sluice.testservers.s3;

import com.amazonaws.ClientConfiguration;
import com.amazonaws.auth.AWSStaticCredentialsProvider;
import com.amazonaws.auth.BasicAWSCredentials;
import com.amazonaws.client.builder.AwsClientBuilder;
import com.amazonaws.services.s3.AmazonS3;
import com.amazonaws.services.s3.AmazonS3ClientBuilder;
import com.amazonaws.services.s3.model.InitiateMultipartUploadRequest;
import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The S3 server, its proxy's counts and faults, and Flink's S3 file systems on it. */
class S3ServerIT {

    @RegisterExtension
    static final S3Server S3 = S3Server.inMemory("lake");

    @AfterEach
    void noFaults() {
        S3.traffic().faults(S3Fault.Plan.NONE);
        S3.traffic().clearRequests();
    }

    private static AmazonS3 clientThroughProxy(int maxErrorRetry) {
        return AmazonS3ClientBuilder.standard()
                .withEndpointConfiguration(new AwsClientBuilder.EndpointConfiguration(S3.endpoint(), "us-east-1"))
                .withPathStyleAccessEnabled(true)
                .withClientConfiguration(new ClientConfiguration().withMaxErrorRetry(maxErrorRetry))
                .withCredentials(new AWSStaticCredentialsProvider(
                        new BasicAWSCredentials(S3Server.ACCESS_KEY, S3Server.SECRET_KEY)))
                .build();
    }

    @Test
    void theProxyCountsEachRequestByKindAndKey() {
        AmazonS3 client = clientThroughProxy(0);
        client.putObject("lake", "t/a.txt", "one");
        client.getObjectMetadata("lake", "t/a.txt");
        assertThat(new String(S3.read("lake", "t/a.txt"), StandardCharsets.UTF_8))
                .isEqualTo("one");
        client.listObjectsV2("lake", "t/");
        client.deleteObject("lake", "t/a.txt");

        assertThat(S3.traffic().requests())
                .extracting(r -> r.kind() + " " + r.keyOrPrefix())
                .containsExactly("PUT t/a.txt", "HEAD t/a.txt", "LIST t/", "DELETE t/a.txt");
        assertThat(S3.keys("lake", "t/")).isEmpty();
        client.shutdown();
    }

    @Test
    void aSlowDownIsRetriedByTheClientAndCounted() {
        S3.traffic().faults(S3Fault.Plan.nth(S3Request.Kind.PUT, 1, S3Fault.slowDown()));
        AmazonS3 client = clientThroughProxy(3);
        client.putObject("lake", "retry/x", "after a 503");
        assertThat(S3.readText("lake", "retry/x")).isEqualTo("after a 503");
        assertThat(S3.traffic().countsByKind()).containsEntry(S3Request.Kind.PUT, 2L);
        assertThat(S3.traffic().injectedFaults()).singleElement().asString().startsWith("SLOW_DOWN on PUT");
        client.shutdown();
    }

    @Test
    void withoutRetriesTheClientSeesTheFault() {
        S3.traffic().faults(S3Fault.Plan.nth(S3Request.Kind.PUT, 1, S3Fault.internalError()));
        AmazonS3 client = clientThroughProxy(0);
        assertThatThrownBy(() -> client.putObject("lake", "fail/x", "never")).hasMessageContaining("InternalError");
        assertThat(S3.keys("lake", "fail/")).isEmpty();
        client.shutdown();
    }

    @Test
    void openMultipartUploadsAreListed() {
        AmazonS3 client = clientThroughProxy(0);
        String id = client.initiateMultipartUpload(new InitiateMultipartUploadRequest("lake", "mpu/open"))
                .getUploadId();
        assertThat(S3.openUploads("lake")).containsExactly("mpu/open");
        client.abortMultipartUpload(
                new com.amazonaws.services.s3.model.AbortMultipartUploadRequest("lake", "mpu/open", id));
        assertThat(S3.openUploads("lake")).isEmpty();
        assertThat(S3.traffic().countsByKind())
                .containsEntry(S3Request.Kind.MULTIPART_INIT, 1L)
                .containsEntry(S3Request.Kind.MULTIPART_ABORT, 1L);
        client.shutdown();
    }

    @ParameterizedTest
    @EnumSource(FlinkS3FileSystem.class)
    void flinksOwnS3FileSystemsWriteAndReadThroughTheProxy(FlinkS3FileSystem fs) throws IOException {
        FlinkS3FileSystem.initialize(S3.flinkConfig(), fs);
        try {
            Path file = new Path(fs.scheme() + "://lake/flink/" + fs.name() + ".txt");
            FileSystem fileSystem = FileSystem.get(URI.create(file.toString()));
            try (FSDataOutputStream out = fileSystem.create(file, FileSystem.WriteMode.NO_OVERWRITE)) {
                out.write("written by flink".getBytes(StandardCharsets.UTF_8));
            }
            assertThat(S3.readText("lake", "flink/" + fs.name() + ".txt")).isEqualTo("written by flink");
            try (FSDataInputStream in = fileSystem.open(file)) {
                assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8))
                        .isEqualTo("written by flink");
            }
            assertThat(S3.traffic().requests())
                    .anyMatch(r -> r.kind() == S3Request.Kind.PUT && r.key().equals("flink/" + fs.name() + ".txt"));
        } finally {
            FileSystem.initialize(new org.apache.flink.configuration.Configuration(), null);
        }
    }

    @Test
    void flinkConfigCarriesTheServersSettings() {
        Map<String, String> conf = S3.flinkConfig();
        assertThat(conf).containsEntry("s3.endpoint", S3.endpoint()).containsEntry("s3.path.style.access", "true");
    }
}

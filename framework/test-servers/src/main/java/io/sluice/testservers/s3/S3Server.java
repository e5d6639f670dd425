package io.sluice.testservers.s3;

import io.sluice.testservers.ServerProcess;

import com.amazonaws.auth.AWSStaticCredentialsProvider;
import com.amazonaws.auth.BasicAWSCredentials;
import com.amazonaws.client.builder.AwsClientBuilder;
import com.amazonaws.services.s3.AmazonS3;
import com.amazonaws.services.s3.AmazonS3ClientBuilder;
import com.amazonaws.services.s3.model.ListMultipartUploadsRequest;
import com.amazonaws.services.s3.model.ListObjectsV2Request;
import com.amazonaws.services.s3.model.ListObjectsV2Result;
import com.amazonaws.services.s3.model.MultipartUpload;
import com.amazonaws.services.s3.model.MultipartUploadListing;
import com.amazonaws.services.s3.model.S3ObjectSummary;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A real S3 API server for integration tests: S3Proxy ({@code org.gaul:s3proxy}) in a JVM of its
 * own, signing checked (AWS v2 and v4) with {@link #ACCESS_KEY} and {@link #SECRET_KEY}, on its
 * in-memory {@code transient} store or on a directory ({@link #onDisk()}). Clients under test reach
 * it through a {@link S3TrafficProxy} ({@link #endpoint()}), which counts their requests and injects
 * faults; the checks of a test ({@link #keys}, {@link #read}, {@link #openUploads}) go to the server
 * directly with the AWS SDK's own client, so they are neither counted nor faulted.
 *
 * <p>As a JUnit 5 extension ({@code @RegisterExtension static}) it starts before the class's tests,
 * stops after them, and prints the server's log when a test fails. With {@link #withFlinkFileSystems}
 * it also sets this JVM's Flink file systems up for the server once it runs (Flink's S3 plugins and
 * their {@code s3.*} keys, as a cluster's {@code config.yaml} does) and back to plain ones after the
 * class, so that no test class sets Flink's S3 configuration up by hand.
 */
public final class S3Server implements BeforeAllCallback, AfterAllCallback, TestWatcher {

    public static final String ACCESS_KEY = "sluice-test-access";
    /** Distinctive, so a test can search outputs and logs for it: a secret must never be printed. */
    public static final String SECRET_KEY = "sluice-test-secret-Zq8w";

    private static final String MAIN = "org.gaul.s3proxy.Main";
    private static final String CLASSPATH_RESOURCE = "s3proxy.classpath";

    private final boolean onDisk;
    private final List<String> buckets;
    private Path dir;
    private ServerProcess server;
    private S3TrafficProxy proxy;
    private AmazonS3 client;
    private FlinkS3FileSystem[] flinkFileSystems = new FlinkS3FileSystem[0];
    private java.util.function.Function<S3Server, Map<String, String>> flinkSettings = S3Server::flinkConfig;

    private S3Server(boolean onDisk, List<String> buckets) {
        this.onDisk = onDisk;
        this.buckets = List.copyOf(buckets);
    }

    /** A server on S3Proxy's in-memory store, with these buckets. */
    public static S3Server inMemory(String... buckets) {
        return new S3Server(false, List.of(buckets));
    }

    /**
     * A server on S3Proxy's {@code filesystem} store in a directory under {@code target/}: objects are
     * files, so a test can also read them as files. (S3A's default deletion of directory markers can
     * hang this store on a multi-object delete: clients set {@code fs.s3a.directory.marker.retention}
     * = {@code keep}, which {@link #flinkConfig()} does.)
     */
    public static S3Server onDisk(String... buckets) {
        return new S3Server(true, List.of(buckets));
    }

    /**
     * Once the server runs (before the class's {@code @BeforeAll} methods), initializes this JVM's
     * Flink file systems with Flink's S3 plugins {@code which} and {@link #flinkConfig()}; after the
     * class, plain Flink file systems again. A MiniCluster initializes none of its own.
     */
    public S3Server withFlinkFileSystems(FlinkS3FileSystem... which) {
        return withFlinkFileSystems(S3Server::flinkConfig, which);
    }

    /**
     * {@link #withFlinkFileSystems(FlinkS3FileSystem...)} with other settings, made from the running
     * server: e.g. {@code S3Server::flinkConfigFailingFast}, or {@link #flinkConfig()} and a key more.
     */
    public S3Server withFlinkFileSystems(
            java.util.function.Function<S3Server, Map<String, String>> settings, FlinkS3FileSystem... which) {
        if (which.length == 0) {
            throw new IllegalArgumentException("Name at least one of Flink's S3 file systems");
        }
        this.flinkSettings = settings;
        this.flinkFileSystems = which.clone();
        return this;
    }

    public synchronized void start() throws IOException {
        if (server != null) {
            throw new IllegalStateException("The S3 server is running already");
        }
        Path root = Paths.get("target", "s3-servers").toAbsolutePath();
        Files.createDirectories(root);
        dir = Files.createTempDirectory(root, "s3-");
        int port = ServerProcess.freePort();
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put("s3proxy.endpoint", "http://127.0.0.1:" + port);
        properties.put("s3proxy.authorization", "aws-v2-or-v4");
        properties.put("s3proxy.identity", ACCESS_KEY);
        properties.put("s3proxy.credential", SECRET_KEY);
        properties.put("jclouds.identity", ACCESS_KEY);
        properties.put("jclouds.credential", SECRET_KEY);
        if (onDisk) {
            properties.put("jclouds.provider", "filesystem");
            properties.put(
                    "jclouds.filesystem.basedir",
                    Files.createDirectories(dir.resolve("store")).toString());
        } else {
            properties.put("jclouds.provider", "transient");
        }
        StringBuilder text = new StringBuilder();
        properties.forEach((k, v) -> text.append(k).append('=').append(v).append('\n'));
        Path conf = dir.resolve("s3proxy.conf");
        Files.writeString(conf, text.toString());
        Path logback = dir.resolve("logback.xml");
        Files.writeString(
                logback,
                "<configuration><appender name=\"out\" class=\"ch.qos.logback.core.ConsoleAppender\"><encoder>"
                        + "<pattern>%d{HH:mm:ss.SSS} %-5level %logger{20} - %msg%n</pattern></encoder></appender>"
                        + "<root level=\"WARN\"><appender-ref ref=\"out\"/></root></configuration>\n");

        server = new ServerProcess(
                "S3 server (S3Proxy)",
                List.of("-Xmx512m", "-Dlogback.configurationFile=" + logback),
                ServerProcess.classPathResource(S3Server.class, CLASSPATH_RESOURCE),
                MAIN,
                List.of("--properties", conf.toString()),
                dir,
                port);
        server.start();
        proxy = new S3TrafficProxy(new InetSocketAddress("127.0.0.1", port));
        client = AmazonS3ClientBuilder.standard()
                .withEndpointConfiguration(
                        new AwsClientBuilder.EndpointConfiguration("http://127.0.0.1:" + port, "us-east-1"))
                .withPathStyleAccessEnabled(true)
                .withCredentials(new AWSStaticCredentialsProvider(new BasicAWSCredentials(ACCESS_KEY, SECRET_KEY)))
                .build();
        for (String bucket : buckets) {
            createBucket(bucket);
        }
    }

    public synchronized void stop() throws InterruptedException, IOException {
        if (client != null) {
            client.shutdown();
            client = null;
        }
        if (proxy != null) {
            proxy.close();
            proxy = null;
        }
        if (server != null) {
            server.stop();
            server = null;
        }
    }

    /** The endpoint clients under test use: {@code http://127.0.0.1:<proxy port>}. */
    public String endpoint() {
        return "http://127.0.0.1:" + proxy.port();
    }

    /** The server itself, past the proxy: neither counted nor faulted. */
    public String directEndpoint() {
        return "http://127.0.0.1:" + server.port();
    }

    /** The proxy every client under test goes through: its request log and fault plan. */
    public S3TrafficProxy traffic() {
        return proxy;
    }

    /** The AWS SDK's S3 client on the server directly, for a test's own checks. */
    public AmazonS3 client() {
        return client;
    }

    public void createBucket(String bucket) {
        if (!client.doesBucketExistV2(bucket)) {
            client.createBucket(bucket);
        }
    }

    /**
     * Flink's S3 settings for this server ({@code s3.*}: both of Flink's S3 file systems read them),
     * as an operator puts them into {@code config.yaml}.
     */
    public Map<String, String> flinkConfig() {
        Map<String, String> conf = new TreeMap<>();
        conf.put("s3.endpoint", endpoint());
        conf.put("s3.path.style.access", "true");
        conf.put("s3.access-key", ACCESS_KEY);
        conf.put("s3.secret-key", SECRET_KEY);
        // S3A: keep directory markers (S3Proxy's filesystem store may hang deleting them), no SSL on loopback
        conf.put("s3.directory.marker.retention", "keep");
        conf.put("s3.connection.ssl.enabled", "false");
        // Presto's S3 client: no SSL either
        conf.put("s3.ssl.enabled", "false");
        return conf;
    }

    /**
     * How long a client configured by {@link #flinkConfigFailingFast()} waits for an answer: a
     * {@link S3Fault#delay} longer than this is a timeout to it.
     */
    public static final long FAIL_FAST_TIMEOUT_MILLIS = 3000;

    /**
     * {@link #flinkConfig()} for a failure campaign: S3A's own retries take a fault or two (two
     * attempts, 50 ms apart), a longer outage fails the task, and an answer slower than {@link
     * #FAIL_FAST_TIMEOUT_MILLIS} times out.
     */
    public Map<String, String> flinkConfigFailingFast() {
        Map<String, String> conf = flinkConfig();
        conf.put("s3.attempts.maximum", "2");
        conf.put("s3.retry.limit", "2");
        conf.put("s3.retry.interval", "50ms");
        conf.put("s3.retry.throttle.interval", "50ms");
        conf.put("s3.connection.timeout", String.valueOf(FAIL_FAST_TIMEOUT_MILLIS));
        conf.put("s3.connection.request.timeout", String.valueOf(FAIL_FAST_TIMEOUT_MILLIS));
        return conf;
    }

    /** The keys under {@code prefix} in {@code bucket}, sorted. */
    public List<String> keys(String bucket, String prefix) {
        List<String> keys = new ArrayList<>();
        ListObjectsV2Request request =
                new ListObjectsV2Request().withBucketName(bucket).withPrefix(prefix);
        ListObjectsV2Result result;
        do {
            result = client.listObjectsV2(request);
            for (S3ObjectSummary summary : result.getObjectSummaries()) {
                keys.add(summary.getKey());
            }
            request.setContinuationToken(result.getNextContinuationToken());
        } while (result.isTruncated());
        keys.sort(null);
        return keys;
    }

    /**
     * Copies every object under {@code prefix} into {@code target}, keys as relative paths (a key's
     * part after {@code prefix}): the store's content as local files, for checks that read files.
     * Directory markers (keys ending in {@code /}) become directories.
     */
    public Path download(String bucket, String prefix, Path target) {
        try {
            Files.createDirectories(target);
            for (String key : keys(bucket, prefix)) {
                Path file = target.resolve(key.substring(prefix.length())).normalize();
                if (!file.startsWith(target)) {
                    throw new IllegalStateException("Key " + key + " leads outside " + target);
                }
                if (key.endsWith("/")) {
                    Files.createDirectories(file);
                    continue;
                }
                Files.createDirectories(file.getParent());
                Files.write(file, read(bucket, key));
            }
            return target;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The bytes of an object. */
    public byte[] read(String bucket, String key) {
        try (InputStream in = client.getObject(bucket, key).getObjectContent()) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The text of an object, UTF-8. */
    public String readText(String bucket, String key) {
        return new String(read(bucket, key), StandardCharsets.UTF_8);
    }

    /** The keys of the multipart uploads begun in {@code bucket} and neither completed nor aborted. */
    public List<String> openUploads(String bucket) {
        return openUploads(bucket, "");
    }

    /** {@link #openUploads(String)} under a prefix. */
    public List<String> openUploads(String bucket, String prefix) {
        List<String> keys = new ArrayList<>();
        ListMultipartUploadsRequest request = new ListMultipartUploadsRequest(bucket).withPrefix(prefix);
        MultipartUploadListing listing;
        do {
            listing = client.listMultipartUploads(request);
            for (MultipartUpload upload : listing.getMultipartUploads()) {
                keys.add(upload.getKey());
            }
            request.setKeyMarker(listing.getNextKeyMarker());
            request.setUploadIdMarker(listing.getNextUploadIdMarker());
        } while (listing.isTruncated());
        return keys;
    }

    /** The server's log. */
    public String logTail(int chars) {
        return server == null ? "(no S3 server)" : server.logTail(chars);
    }

    /** The directory of the {@link #onDisk()} store (a folder per bucket), or null in memory. */
    public Path storeDirectory() {
        return onDisk ? dir.resolve("store") : null;
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        start();
        if (flinkFileSystems.length > 0) {
            FlinkS3FileSystem.initialize(flinkSettings.apply(this), flinkFileSystems);
        }
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        try {
            if (flinkFileSystems.length > 0) {
                org.apache.flink.core.fs.FileSystem.initialize(
                        new org.apache.flink.configuration.Configuration(), null);
            }
        } finally {
            stop();
        }
    }

    @Override
    public void testFailed(ExtensionContext context, Throwable cause) {
        System.err.println("==== S3 server log (test " + context.getDisplayName() + " failed) ====");
        System.err.println(logTail(100_000));
        if (proxy != null) {
            System.err.println("==== faults injected: " + proxy.injectedFaults());
        }
        System.err.println("==== end of S3 server log ====");
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

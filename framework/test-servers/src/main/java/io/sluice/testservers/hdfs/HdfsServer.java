package io.sluice.testservers.hdfs;

import io.sluice.testservers.ServerProcess;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * A real HDFS for integration tests: Hadoop's {@code MiniDFSCluster} ({@code HdfsServerMain}) in a
 * JVM of its own, on Hadoop {@code ${hadoop.version}}, with a NameNode at {@link #uri()} on loopback
 * and one DataNode. Clients need nothing but the URI: {@code hdfs://127.0.0.1:<port>/path}.
 *
 * <p>As a JUnit 5 extension ({@code @RegisterExtension static}) it starts before the class's tests,
 * stops after them, and prints the server's log when a test fails.
 */
public final class HdfsServer implements BeforeAllCallback, AfterAllCallback, TestWatcher {

    private static final String CLASSPATH_RESOURCE = "hdfs.classpath";
    /** In {@code sluice-test-servers-hdfs}, with Hadoop's mini cluster on its class path resource only. */
    private static final String MAIN = "io.sluice.testservers.hdfs.HdfsServerMain";

    private static final long READY_TIMEOUT_MS = TimeUnit.MINUTES.toMillis(3);

    /**
     * The Hadoop client settings a writer to this cluster of one DataNode needs: when a block's
     * pipeline breaks (the DataNode restarts) or a file is appended to (a restored writer), the
     * client's default policy asks the NameNode for another DataNode to replace the bad one for a
     * file of replication 3 (the client's default), and with none to be had the write fails
     * ("Failed to replace a bad datanode on the existing pipeline ... no more good datanodes")
     * however often the job restores. Off, the client carries on with the DataNodes it has, as a
     * one- or two-DataNode cluster needs (Hadoop's {@code hdfs-default.xml} says so too).
     */
    public static final Map<String, String> ONE_DATANODE_CLIENT_SETTINGS =
            Map.of("dfs.client.block.write.replace-datanode-on-failure.enable", "false");

    private ServerProcess server;
    private Path commands;
    private int commandsSent;

    public synchronized void start() throws IOException {
        if (server != null) {
            throw new IllegalStateException("HDFS is running already");
        }
        Path root = Paths.get("target", "hdfs-servers").toAbsolutePath();
        Files.createDirectories(root);
        Path dir = Files.createTempDirectory(root, "hdfs-");
        Path ready = dir.resolve("ready");
        commands = Files.createDirectories(dir.resolve("commands"));
        int port = ServerProcess.freePort();
        server = new ServerProcess(
                "HDFS (MiniDFSCluster)",
                List.of("-Xmx768m"),
                ServerProcess.codeSourceOfResource(HdfsServer.class, CLASSPATH_RESOURCE)
                        + File.pathSeparator
                        + ServerProcess.classPathResource(HdfsServer.class, CLASSPATH_RESOURCE),
                HdfsServerMain.class.getName(),
                List.of(Integer.toString(port), dir.resolve("data").toString(), ready.toString(), commands.toString()),
                dir,
                port);
        server.start();
        long deadline = System.currentTimeMillis() + READY_TIMEOUT_MS;
        while (!Files.exists(ready)) {
            if (!server.isAlive() || System.currentTimeMillis() > deadline) {
                String log = server.logTail(50_000);
                try {
                    server.kill();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                throw new IOException("HDFS did not become ready; its log:\n" + log);
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("Interrupted while waiting for HDFS", e);
            }
        }
    }

    public synchronized void stop() throws InterruptedException {
        if (server != null) {
            server.stop();
            server = null;
        }
    }

    /**
     * Stops the DataNode and starts it again on the same ports and storage; returns once it has
     * registered again. Clients writing at that moment see their pipelines break.
     */
    public synchronized void restartDataNode(Duration timeout) throws IOException, InterruptedException {
        int n = ++commandsSent;
        Path done = commands.resolve(n + ".done");
        Path failed = commands.resolve(n + ".failed");
        Path tmp = commands.resolve(n + ".tmp");
        Files.writeString(tmp, "");
        Files.move(tmp, commands.resolve(n + ".restart-datanode"), StandardCopyOption.ATOMIC_MOVE);
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!Files.exists(done)) {
            if (Files.exists(failed)) {
                throw new IOException("Restarting the DataNode failed: " + Files.readString(failed));
            }
            if (System.nanoTime() > deadline) {
                throw new IOException("The DataNode did not restart within " + timeout + "; log:\n" + logTail(20_000));
            }
            Thread.sleep(50);
        }
    }

    /**
     * {@link #ONE_DATANODE_CLIENT_SETTINGS} as Flink configuration keys ({@code flink.hadoop.*}),
     * which Flink's Hadoop file system ({@code hdfs://} for the framework and the {@code
     * filesystem} and {@code hive} targets' files) passes on to the Hadoop client it creates.
     */
    public static Map<String, String> flinkClientSettings() {
        Map<String, String> flink = new LinkedHashMap<>();
        ONE_DATANODE_CLIENT_SETTINGS.forEach((key, value) -> flink.put("flink.hadoop." + key, value));
        return flink;
    }

    /**
     * Writes {@link #ONE_DATANODE_CLIENT_SETTINGS} as an {@code hdfs-site.xml} into {@code dir}, a
     * Hadoop configuration directory for the plugins' own Hadoop clients ({@code hadoop-conf-dir}
     * of the iceberg and hive targets); returns {@code dir}.
     */
    public static Path writeClientSiteFile(Path dir) throws IOException {
        StringBuilder xml = new StringBuilder("<?xml version=\"1.0\"?>\n<configuration>\n");
        ONE_DATANODE_CLIENT_SETTINGS.forEach((key, value) -> xml.append("  <property><name>")
                .append(key)
                .append("</name><value>")
                .append(value)
                .append("</value></property>\n"));
        xml.append("</configuration>\n");
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("hdfs-site.xml"), xml.toString());
        return dir;
    }

    /**
     * Restarts the DataNode ({@link #restartDataNode}) from a thread of its own, at a moment drawn
     * from {@code seed} between {@code earliest} and {@code latest} from now: the storage fault of a
     * campaign run on HDFS, started just before the job.
     */
    public DataNodeRestart restartDataNodeLater(long seed, Duration earliest, Duration latest) {
        long delayMs = earliest.toMillis()
                + new Random(seed * 31 + 7).nextInt((int) Math.max(1, latest.toMillis() - earliest.toMillis()));
        return new DataNodeRestart(delayMs);
    }

    /** A restart of the DataNode at a given moment, from {@link #restartDataNodeLater}. */
    public final class DataNodeRestart {

        private final long delayMs;
        private final long startedNanos = System.nanoTime();
        private final Thread thread;
        private volatile long backAtMs = -1;
        private volatile Exception failure;

        private DataNodeRestart(long delayMs) {
            this.delayMs = delayMs;
            this.thread = new Thread(
                    () -> {
                        try {
                            Thread.sleep(delayMs);
                            restartDataNode(Duration.ofSeconds(60));
                            backAtMs = (System.nanoTime() - startedNanos) / 1_000_000;
                        } catch (Exception e) {
                            failure = e;
                        }
                    },
                    "datanode-restart");
            thread.setDaemon(true);
            thread.start();
        }

        /** Milliseconds from the start until the DataNode was stopped. */
        public long delayMs() {
            return delayMs;
        }

        /** Milliseconds since the start. */
        public long elapsedMs() {
            return (System.nanoTime() - startedNanos) / 1_000_000;
        }

        /**
         * Waits until the DataNode is back, and returns the milliseconds from the start until then.
         *
         * @throws IOException when the restart failed or took longer than {@code timeout}
         */
        public long awaitBack(Duration timeout) throws IOException, InterruptedException {
            thread.join(Math.max(1, timeout.toMillis()));
            if (failure != null) {
                throw new IOException("Restarting the DataNode failed", failure);
            }
            if (backAtMs < 0) {
                throw new IOException("The DataNode was not back within " + timeout);
            }
            return backAtMs;
        }

        @Override
        public String toString() {
            return "DataNode restart " + delayMs + " ms into the run";
        }
    }

    /** {@code hdfs://127.0.0.1:<port>}. */
    public String uri() {
        return "hdfs://127.0.0.1:" + server.port();
    }

    public String logTail(int chars) {
        return server == null ? "(no HDFS)" : server.logTail(chars);
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        start();
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        stop();
    }

    @Override
    public void testFailed(ExtensionContext context, Throwable cause) {
        System.err.println("==== HDFS log (test " + context.getDisplayName() + " failed) ====");
        System.err.println(logTail(100_000));
        System.err.println("==== end of HDFS log ====");
    }
}

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
import java.util.List;
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

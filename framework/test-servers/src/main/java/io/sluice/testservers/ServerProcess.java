package io.sluice.testservers;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A server in a JVM of its own, on a class path Maven resolved at build time: started, awaited on
 * its port, killed as a crashed machine would be, and its log kept for a failing test. A server in
 * its own JVM keeps its libraries (S3Proxy's Jetty and jclouds, HDFS's Hadoop) off the test's class
 * path, as a real server would be.
 */
public final class ServerProcess {

    private static final long START_TIMEOUT_MS = TimeUnit.MINUTES.toMillis(3);

    private final String name;
    private final List<String> command;
    private final Path workDir;
    private final Path log;
    private final int port;
    private volatile Process process;
    private boolean shutdownHook;

    /**
     * @param name what the server is, for messages
     * @param jvmOptions options before the class path
     * @param classPath the server's class path
     * @param mainClass its main class
     * @param arguments its arguments
     * @param workDir its working directory; the log {@code server.log} goes there
     * @param port the port it listens on when it is up
     */
    public ServerProcess(
            String name,
            List<String> jvmOptions,
            String classPath,
            String mainClass,
            List<String> arguments,
            Path workDir,
            int port) {
        this.name = name;
        this.workDir = workDir;
        this.log = workDir.resolve("server.log");
        this.port = port;
        List<String> cmd = new ArrayList<>();
        cmd.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-XX:+UseSerialGC");
        cmd.add("-Djava.io.tmpdir=" + workDir.resolve("tmp"));
        cmd.addAll(jvmOptions);
        cmd.add("-cp");
        cmd.add(classPath);
        cmd.add(mainClass);
        cmd.addAll(arguments);
        this.command = List.copyOf(cmd);
    }

    /** Starts the JVM and returns once its port answers. */
    public synchronized void start() throws IOException {
        if (process != null && process.isAlive()) {
            throw new IllegalStateException(name + " is running already (port " + port + ")");
        }
        Files.createDirectories(workDir.resolve("tmp"));
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(workDir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        builder.environment().remove("HADOOP_CONF_DIR");
        builder.environment().remove("HADOOP_HOME");
        process = builder.start();
        if (!shutdownHook) { // a test JVM that exits without stopping its servers leaves none behind
            shutdownHook = true;
            Runtime.getRuntime().addShutdownHook(new Thread(this::destroyAtExit, name + "-stop"));
        }
        awaitPort();
    }

    /** Kills the JVM at once ({@code SIGKILL}) and waits until it is gone. */
    public synchronized void kill() throws InterruptedException {
        Process p = process;
        if (p != null) {
            p.destroyForcibly();
            p.waitFor(30, TimeUnit.SECONDS);
        }
    }

    /** Stops the JVM ({@code SIGTERM}, then {@code SIGKILL} after 20 s). */
    public synchronized void stop() throws InterruptedException {
        Process p = process;
        if (p == null) {
            return;
        }
        p.destroy();
        if (!p.waitFor(20, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            p.waitFor(20, TimeUnit.SECONDS);
        }
        process = null;
    }

    public boolean isAlive() {
        Process p = process;
        return p != null && p.isAlive();
    }

    public int port() {
        return port;
    }

    /** The server's standard output and error, every start appended. */
    public Path log() {
        return log;
    }

    /** The last {@code chars} characters of the log, or a note that there is none. */
    public String logTail(int chars) {
        if (!Files.exists(log)) {
            return "(no log of " + name + ")";
        }
        try {
            String text = Files.readString(log, StandardCharsets.UTF_8);
            return text.length() <= chars ? text : "...\n" + text.substring(text.length() - chars);
        } catch (IOException e) {
            return "(log " + log + " of " + name + " unreadable: " + e + ")";
        }
    }

    private void destroyAtExit() { // not synchronized: a thread waiting for the port may hold the lock
        Process p = process;
        if (p != null) {
            p.destroyForcibly();
        }
    }

    private void awaitPort() throws IOException {
        long deadline = System.currentTimeMillis() + START_TIMEOUT_MS;
        while (System.currentTimeMillis() < deadline) {
            if (!process.isAlive()) {
                throw new IOException(name + " exited with " + process.exitValue() + " before its port " + port
                        + " answered; its log " + log + ":\n" + logTail(50_000));
            }
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress("127.0.0.1", port), 500);
                return;
            } catch (IOException notYet) {
                sleep(200);
            }
        }
        process.destroyForcibly();
        throw new IOException(name + "'s port " + port + " did not answer within " + START_TIMEOUT_MS / 1000
                + " s; its log " + log + ":\n" + logTail(50_000));
    }

    /** A port free on 127.0.0.1 now. */
    public static int freePort() {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress("127.0.0.1", 0));
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A class path that Maven wrote at build time into a resource next to {@code owner}
     * ({@code maven-dependency-plugin:build-classpath}), every jar checked to exist.
     */
    public static String classPathResource(Class<?> owner, String resource) {
        try (InputStream in = owner.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("No resource " + resource + " next to " + owner.getName()
                        + ": the test-servers module's build writes it (maven-dependency-plugin build-classpath)");
            }
            String path = new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
            for (String jar : path.split(File.pathSeparator)) {
                if (!Files.isRegularFile(Paths.get(jar))) {
                    throw new IllegalStateException(
                            "A jar of the class path " + resource + " is missing: " + jar + " (rebuild test-servers)");
                }
            }
            return path;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The jar or class directory that holds a resource next to {@code owner}: for a child JVM whose
     * main class lives beside its class-path resource.
     */
    public static String codeSourceOfResource(Class<?> owner, String resource) {
        java.net.URL url = owner.getResource(resource);
        if (url == null) {
            throw new IllegalStateException("No resource " + resource + " next to " + owner.getName());
        }
        String text = url.toString();
        String depth = owner.getPackageName().replace('.', '/') + "/" + resource;
        try {
            if (text.startsWith("jar:")) {
                return Paths.get(new java.net.URI(text.substring(4, text.indexOf("!/"))))
                        .toString();
            }
            Path file = Paths.get(url.toURI());
            for (int i = 0; i < depth.split("/").length; i++) {
                file = file.getParent();
            }
            return file.toString();
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    static void sleep(long millis) throws IOException {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("Interrupted", e);
        }
    }
}

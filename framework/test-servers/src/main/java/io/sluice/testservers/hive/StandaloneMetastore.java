package io.sluice.testservers.hive;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;

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
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Hive's metastore server (Hive 3.1.3, {@code org.apache.hadoop.hive.metastore.HiveMetaStore}) as
 * a JVM of its own, on an embedded Derby database and a local warehouse in a directory under
 * {@code target/}. Its class path is the hive plugin's own libraries (hive-exec, a Hadoop client,
 * DataNucleus, Derby ...) plus logging, resolved by Maven at build time into the resources {@value
 * #CLASSPATH_RESOURCE} and {@value #EXTRAS_CLASSPATH_RESOURCE} next to this class (the jar of
 * {@code sluice-test-servers-hive-metastore} carries them; none of those jars is on the test's class
 * path).
 *
 * <p>As a JUnit 5 extension ({@code @RegisterExtension static}) it starts before the class's tests
 * and stops after them, and prints the server's log when a test fails. The server listens on a
 * free port; clients reach it at {@code thrift://127.0.0.1:<port>} through the {@code hive-site.xml}
 * in {@link #hiveConfDir()} (Hive 3.1.3 has no setting for the address the metastore binds to: it
 * listens on every interface of the machine).
 */
public final class StandaloneMetastore implements BeforeAllCallback, AfterAllCallback, TestWatcher {

    /** The server's class path ({@code File.pathSeparator}-separated jars), a resource of this class. */
    public static final String CLASSPATH_RESOURCE = "metastore-server.classpath";
    /**
     * What the server needs beyond the plugin's libraries (commons-cli, slf4j, log4j 2; DBCP and its
     * pool, for the lock API), a resource of this class.
     */
    public static final String EXTRAS_CLASSPATH_RESOURCE = "metastore-extras.classpath";
    /**
     * S3A for the server's own Hadoop (hadoop-aws of the plugin's Hadoop version and the AWS SDK v1
     * modules it links against), a resource of this class; for {@link #withClassPathResource}.
     */
    public static final String S3A_CLASSPATH_RESOURCE = "metastore-s3a.classpath";

    private static final String MAIN = "org.apache.hadoop.hive.metastore.HiveMetaStore";
    private static final long START_TIMEOUT_MS = TimeUnit.MINUTES.toMillis(3);

    private Path dir;
    private Path warehouse;
    private Path confDir;
    private Path log;
    private int port;
    private volatile Process process;
    private boolean shutdownHook;
    private java.util.function.Supplier<Map<String, String>> serverProperties = Map::of;
    private final List<String> extraClassPathResources = new ArrayList<>();
    private boolean transactionTables;
    private boolean transactionTablesReady;

    /**
     * What the server's own Hadoop needs for an S3 API server at {@code endpoint} (plain HTTP, path
     * style): S3A's keys, as an operator puts them in the metastore's {@code hive-site.xml} or {@code
     * core-site.xml}; with {@value #S3A_CLASSPATH_RESOURCE} for the server's class path.
     */
    public static Map<String, String> s3aSettings(String endpoint, String accessKey, String secretKey) {
        Map<String, String> keys = new java.util.TreeMap<>();
        keys.put("fs.s3a.endpoint", endpoint);
        keys.put("fs.s3a.endpoint.region", "us-east-1");
        keys.put("fs.s3a.path.style.access", "true");
        keys.put("fs.s3a.connection.ssl.enabled", "false");
        keys.put("fs.s3a.access.key", accessKey);
        keys.put("fs.s3a.secret.key", secretKey);
        keys.put("fs.s3a.directory.marker.retention", "keep");
        return keys;
    }

    /**
     * More properties for the server's own {@code hive-site.xml} (its Hadoop reads them too, e.g.
     * {@code fs.s3a.*}), asked for at every start: values that other servers only know once they run.
     */
    public StandaloneMetastore withServerProperties(java.util.function.Supplier<Map<String, String>> properties) {
        this.serverProperties = properties;
        return this;
    }

    /**
     * More jars for the server's class path: a resource next to this class holding them, as {@value
     * #CLASSPATH_RESOURCE} does (e.g. {@value #S3A_CLASSPATH_RESOURCE}).
     */
    public StandaloneMetastore withClassPathResource(String resource) {
        extraClassPathResources.add(resource);
        return this;
    }

    /**
     * Gives the server's database Hive's transaction tables ({@code TXNS}, {@code HIVE_LOCKS} ...)
     * before its first start, as Hive's schema tool does for a production database: the lock API
     * (Iceberg's {@code HiveCatalog} commits under a table lock) needs them, and the schema
     * DataNucleus makes has none. Hive's own {@code TxnDbUtil.prepDb} of the server's class path,
     * in a short-lived JVM of its own.
     */
    public StandaloneMetastore withTransactionTables() {
        this.transactionTables = true;
        return this;
    }

    /** Starts the server: a new directory under {@code target/metastores}, a free port; waits until the port answers. */
    public synchronized void start() throws IOException {
        if (process != null) {
            throw new IllegalStateException("The metastore is running already (port " + port + ")");
        }
        Path root = Paths.get("target", "metastores").toAbsolutePath();
        Files.createDirectories(root);
        dir = Files.createTempDirectory(root, "hms-");
        warehouse = Files.createDirectories(dir.resolve("warehouse"));
        confDir = Files.createDirectories(dir.resolve("client-conf"));
        port = freePort();
        launch();
    }

    /**
     * Starts the server again after {@link #kill()} or {@link #stop()}, on the same port, database and
     * warehouse: the clients' {@code hive-site.xml} stays valid.
     */
    public synchronized void restart() throws IOException {
        if (dir == null) {
            throw new IllegalStateException("The metastore never started");
        }
        if (process != null && process.isAlive()) {
            throw new IllegalStateException("The metastore is running (port " + port + ")");
        }
        launch();
    }

    /** Kills the server's JVM at once ({@code SIGKILL}), as a crashed machine would, and waits until it is gone. */
    public synchronized void kill() throws InterruptedException {
        if (process != null) {
            process.destroyForcibly();
            process.waitFor(30, TimeUnit.SECONDS);
        }
    }

    /** Stops the server ({@code SIGTERM}, then {@code SIGKILL} after 20 s). */
    public synchronized void stop() throws InterruptedException {
        if (process == null) {
            return;
        }
        process.destroy();
        if (!process.waitFor(20, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(20, TimeUnit.SECONDS);
        }
        process = null;
    }

    public synchronized boolean isAlive() {
        return process != null && process.isAlive();
    }

    /** The thrift port on 127.0.0.1. */
    public int port() {
        return port;
    }

    /** {@code thrift://127.0.0.1:<port>}. */
    public String uri() {
        return "thrift://127.0.0.1:" + port;
    }

    /** The local warehouse directory, where the server puts databases' and tables' directories. */
    public Path warehouse() {
        return warehouse;
    }

    /** A directory with the clients' {@code hive-site.xml}: the metastore's URI and the warehouse; for {@code hive-conf-dir}. */
    public Path hiveConfDir() {
        return confDir;
    }

    /** The server's log file (its standard output and error, every start appended). */
    public Path log() {
        return log;
    }

    /** The server's log, or a note that there is none. */
    public String logText() {
        if (log == null || !Files.exists(log)) {
            return "(no metastore log)";
        }
        try {
            return Files.readString(log, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(metastore log " + log + " unreadable: " + e + ")";
        }
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
        System.err.println("==== metastore log " + log + " (test " + context.getDisplayName() + " failed) ====");
        System.err.println(tail(logText(), 200_000));
        System.err.println("==== end of metastore log ====");
    }

    private void launch() throws IOException {
        Path serverConf = Files.createDirectories(dir.resolve("server-conf"));
        String derby = "jdbc:derby:;databaseName=" + dir.resolve("metastore_db") + ";create=true";
        Map<String, String> site = new java.util.TreeMap<>(serverProperties.get());
        site.putAll(Map.of(
                "javax.jdo.option.ConnectionURL", derby,
                "javax.jdo.option.ConnectionDriverName", "org.apache.derby.jdbc.EmbeddedDriver",
                // a new database has no schema: DataNucleus creates it, and no schema tool ran
                "datanucleus.schema.autoCreateAll", "true",
                "hive.metastore.schema.verification", "false",
                "metastore.schema.verification", "false",
                "hive.metastore.warehouse.dir", warehouse.toUri().toString(),
                "hive.metastore.uris", "",
                // no notification events or statistics threads a test does not need
                "hive.metastore.event.db.notification.api.auth", "false"));
        Files.writeString(serverConf.resolve("hive-site.xml"), siteXml(site));
        Files.writeString(
                serverConf.resolve("log4j2.properties"),
                String.join(
                        "\n",
                        "rootLogger.level = INFO",
                        "rootLogger.appenderRef.out.ref = out",
                        "appender.out.type = Console",
                        "appender.out.name = out",
                        "appender.out.layout.type = PatternLayout",
                        "appender.out.layout.pattern = %d{HH:mm:ss,SSS} %-5p %t %c{1} - %m%n",
                        "logger.datanucleus.name = DataNucleus",
                        "logger.datanucleus.level = WARN",
                        ""));
        Files.writeString(
                confDir.resolve("hive-site.xml"),
                siteXml(Map.of(
                        "hive.metastore.uris",
                        uri(),
                        "hive.metastore.warehouse.dir",
                        warehouse.toUri().toString())));

        log = dir.resolve("metastore.log");
        if (transactionTables && !transactionTablesReady) {
            prepareTransactionTables(serverConf);
            transactionTablesReady = true;
        }

        List<String> command = new ArrayList<>();
        command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx512m");
        command.add("-XX:+UseSerialGC");
        for (String pkg : new String[] {"java.lang", "java.util", "java.net", "java.nio", "java.lang.invoke"}) {
            command.add("--add-opens=java.base/" + pkg + "=ALL-UNNAMED");
        }
        command.add("-Djava.io.tmpdir=" + Files.createDirectories(dir.resolve("tmp")));
        command.add("-Dderby.stream.error.file=" + dir.resolve("derby.log"));
        command.add("-Dlog4j.configurationFile=" + serverConf.resolve("log4j2.properties"));
        command.add("-Dlog4j2.configurationFile=" + serverConf.resolve("log4j2.properties"));
        command.add("-cp");
        command.add(serverConf + File.pathSeparator + classPath());
        command.add(MAIN);
        command.add("-p");
        command.add(Integer.toString(port));

        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        builder.environment().put("HIVE_CONF_DIR", serverConf.toString());
        builder.environment().put("METASTORE_CONF_DIR", serverConf.toString());
        builder.environment().remove("HADOOP_CONF_DIR");
        builder.environment().remove("HIVE_HOME");
        process = builder.start();
        if (!shutdownHook) { // a test JVM that exits without afterAll leaves no server behind
            shutdownHook = true;
            Runtime.getRuntime().addShutdownHook(new Thread(this::destroyAtExit, "standalone-metastore-stop"));
        }
        awaitPort();
    }

    /**
     * Runs Hive's {@code TxnDbUtil.prepDb} on the server's configuration (its database's URL) with
     * the server's class path, as a single-file source program; its output goes to the server's log.
     */
    private void prepareTransactionTables(Path serverConf) throws IOException {
        Path source = dir.resolve("PrepareTransactionTables.java");
        Files.writeString(
                source,
                String.join(
                        "\n",
                        "public class PrepareTransactionTables {",
                        "    public static void main(String[] args) throws Exception {",
                        "        org.apache.hadoop.hive.metastore.txn.TxnDbUtil.prepDb(",
                        "                org.apache.hadoop.hive.metastore.conf.MetastoreConf.newMetastoreConf());",
                        "    }",
                        "}",
                        ""));
        List<String> command = new ArrayList<>();
        command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx256m");
        command.add("-Dderby.stream.error.file=" + dir.resolve("derby.log"));
        command.add("-Dlog4j2.configurationFile=" + serverConf.resolve("log4j2.properties"));
        command.add("-cp");
        command.add(serverConf + File.pathSeparator + classPath());
        command.add(source.toString());
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        builder.environment().put("HIVE_CONF_DIR", serverConf.toString());
        builder.environment().put("METASTORE_CONF_DIR", serverConf.toString());
        builder.environment().remove("HADOOP_CONF_DIR");
        Process prepare = builder.start();
        try {
            if (!prepare.waitFor(2, TimeUnit.MINUTES)) {
                prepare.destroyForcibly();
                throw new IOException("Preparing the metastore's transaction tables took over 2 min; its log " + log
                        + ":\n" + tail(logText(), 50_000));
            }
        } catch (InterruptedException e) {
            prepare.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("Interrupted while preparing the metastore's transaction tables", e);
        }
        if (prepare.exitValue() != 0) {
            throw new IOException("Preparing the metastore's transaction tables failed (exit " + prepare.exitValue()
                    + "); its log " + log + ":\n" + tail(logText(), 50_000));
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
                throw new IOException("The metastore process exited with " + process.exitValue() + " before its port "
                        + port + " answered; its log " + log + ":\n" + tail(logText(), 50_000));
            }
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress("127.0.0.1", port), 500);
                return;
            } catch (IOException notYet) {
                try {
                    Thread.sleep(200);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("Interrupted while waiting for the metastore", e);
                }
            }
        }
        process.destroyForcibly();
        throw new IOException("The metastore's port " + port + " did not answer within " + START_TIMEOUT_MS / 1000
                + " s; its log " + log + ":\n" + tail(logText(), 50_000));
    }

    /** The jars Maven resolved for the server, from this class's resources. */
    private String classPath() throws IOException {
        StringBuilder path = new StringBuilder(resource(CLASSPATH_RESOURCE))
                .append(File.pathSeparator)
                .append(resource(EXTRAS_CLASSPATH_RESOURCE));
        for (String extra : extraClassPathResources) {
            path.append(File.pathSeparator).append(resource(extra));
        }
        return path.toString();
    }

    private static String resource(String name) throws IOException {
        try (InputStream in = StandaloneMetastore.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException(
                        "No resource " + name + " next to " + StandaloneMetastore.class.getName()
                                + ": the build of sluice-test-servers-hive-metastore writes it (maven-dependency-plugin"
                                + " build-classpath)");
            }
            String path = new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
            for (String jar : path.split(File.pathSeparator)) {
                if (!Files.isRegularFile(Paths.get(jar))) {
                    throw new IllegalStateException("A jar of the metastore's class path (" + name + ") is missing: "
                            + jar + " (rebuild sluice-test-servers-hive-metastore)");
                }
            }
            return path;
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress("127.0.0.1", 0));
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String siteXml(Map<String, String> properties) {
        StringBuilder xml = new StringBuilder("<?xml version=\"1.0\"?>\n<configuration>\n");
        new java.util.TreeMap<>(properties)
                .forEach((k, v) -> xml.append("  <property><name>")
                        .append(escape(k))
                        .append("</name><value>")
                        .append(escape(v))
                        .append("</value></property>\n"));
        return xml.append("</configuration>\n").toString();
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    private static String tail(String text, int chars) {
        return text.length() <= chars ? text : "...\n" + text.substring(text.length() - chars);
    }
}

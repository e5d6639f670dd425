package io.sluice.it;

import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A Flink session cluster of two separate JVM processes, a JobManager and a TaskManager, started
 * from a Sluice distribution the way a Flink installation runs them: the classpath is the
 * distribution's {@code lib/} (the framework jar) plus the Flink jars of {@code opt/embedded}, and
 * the plugins directory reaches both processes through {@code SLUICE_PLUGINS_DIR}.
 *
 * <p>Flink's bash scripts are bypassed, so what they would compute is written out here: every
 * TaskManager memory component is configured explicitly (the TaskManager refuses to start
 * without them) and the JVM limits are derived from the same numbers, so the two cannot disagree.
 * Everything binds to 127.0.0.1 on free ports; logs, temp files and the configuration live in one
 * work directory.
 */
final class StandaloneCluster implements AutoCloseable {

    private static final String HOST = "127.0.0.1";
    private static final int SLOTS = 2;
    private static final int LOG_TAIL_LINES = 60;

    /** JobManager memory in MiB: heap, off-heap (direct), metaspace. */
    private static final int JM_HEAP = 256, JM_OFF_HEAP = 64, JM_METASPACE = 192;

    /** TaskManager memory in MiB, one value per component Flink splits the process into. */
    private static final int TM_FRAMEWORK_HEAP = 128, TM_TASK_HEAP = 256, TM_MANAGED = 64, TM_NETWORK = 64,
            TM_FRAMEWORK_OFF_HEAP = 128, TM_TASK_OFF_HEAP = 64, TM_METASPACE = 256, TM_OVERHEAD = 128;

    private final Path workDir;
    private final int restPort;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final ObjectMapper json = new ObjectMapper();
    private final List<Process> processes = new ArrayList<>();
    private final Map<String, Path> logs = new LinkedHashMap<>();
    private final Thread killOnExit;

    private StandaloneCluster(Path workDir, int restPort) {
        this.workDir = workDir;
        this.restPort = restPort;
        // if the test JVM exits without reaching @AfterAll, the cluster must not outlive it
        this.killOnExit = new Thread(() -> processes.forEach(Process::destroyForcibly), "kill-standalone-cluster");
        Runtime.getRuntime().addShutdownHook(killOnExit);
    }

    /**
     * Starts a JobManager and a TaskManager from the distribution {@code dist}, waits until the
     * TaskManager has registered with the JobManager, and returns the running cluster.
     *
     * @param workDir empty directory for configuration, logs and Flink's temp files
     * @param pluginsDir the Sluice plugins directory the cluster's processes use
     */
    static StandaloneCluster start(Path dist, Path workDir, Path pluginsDir, Duration timeout) throws Exception {
        Path confDir = Files.createDirectories(workDir.resolve("conf"));
        Path tmpDir = Files.createDirectories(workDir.resolve("tmp"));
        // Flink's own plugin mechanism (metrics reporters, file systems) must not find Sluice's
        // plugins: it looks in ./plugins by default, so point it at an empty directory
        Path flinkPluginsDir = Files.createDirectories(workDir.resolve("flink-plugins"));
        int rpcPort = freePort();
        int restPort = freePort();
        writeConfig(confDir, tmpDir, rpcPort, restPort);
        writeLog4j(confDir);

        StandaloneCluster cluster = new StandaloneCluster(workDir, restPort);
        try {
            String classpath = dist.resolve("lib") + File.separator + "*" + File.pathSeparator
                    + dist.resolve("opt").resolve("embedded") + File.separator + "*";
            cluster.launch("jobmanager", "org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint",
                    Arrays.asList("-Xmx" + JM_HEAP + "m", "-XX:MaxDirectMemorySize=" + JM_OFF_HEAP + "m",
                            "-XX:MaxMetaspaceSize=" + JM_METASPACE + "m"),
                    classpath, confDir, tmpDir, flinkPluginsDir, pluginsDir);
            cluster.launch("taskmanager", "org.apache.flink.runtime.taskexecutor.TaskManagerRunner",
                    Arrays.asList("-Xmx" + (TM_FRAMEWORK_HEAP + TM_TASK_HEAP) + "m",
                            "-XX:MaxDirectMemorySize=" + (TM_FRAMEWORK_OFF_HEAP + TM_TASK_OFF_HEAP + TM_NETWORK) + "m",
                            "-XX:MaxMetaspaceSize=" + TM_METASPACE + "m"),
                    classpath, confDir, tmpDir, flinkPluginsDir, pluginsDir);
            cluster.awaitTaskManagers(1, timeout);
            return cluster;
        } catch (Throwable t) {
            t.addSuppressed(new AssertionError("Standalone cluster did not come up:\n" + cluster.logTails()));
            cluster.close();
            throw t;
        }
    }

    private static void writeConfig(Path confDir, Path tmpDir, int rpcPort, int restPort) throws IOException {
        Map<String, String> c = new LinkedHashMap<>();
        // 127.0.0.1 rather than 'localhost' everywhere: the TaskManager reaches the JobManager's
        // RPC endpoint at exactly the address the JobManager advertises and binds to
        c.put("jobmanager.rpc.address", HOST);
        c.put("jobmanager.rpc.port", String.valueOf(rpcPort));
        c.put("jobmanager.bind-host", HOST);
        c.put("rest.address", HOST);
        c.put("rest.bind-address", HOST);
        c.put("rest.port", String.valueOf(restPort));
        c.put("taskmanager.bind-host", HOST);
        c.put("taskmanager.host", HOST);
        c.put("taskmanager.numberOfTaskSlots", String.valueOf(SLOTS));
        // blob server, TaskManager RPC and data ports keep Flink's default 0: any free port

        c.put("jobmanager.memory.heap.size", JM_HEAP + "m");
        c.put("jobmanager.memory.off-heap.size", JM_OFF_HEAP + "m");
        c.put("jobmanager.memory.jvm-metaspace.size", JM_METASPACE + "m");

        // what Flink's scripts would compute and pass as dynamic properties: TaskManagerRunner
        // checks that heap, off-heap, managed and network (min = max) sizes and CPU cores are set
        c.put("taskmanager.cpu.cores", String.valueOf(SLOTS));
        c.put("taskmanager.memory.framework.heap.size", TM_FRAMEWORK_HEAP + "m");
        c.put("taskmanager.memory.task.heap.size", TM_TASK_HEAP + "m");
        c.put("taskmanager.memory.managed.size", TM_MANAGED + "m");
        c.put("taskmanager.memory.network.min", TM_NETWORK + "m");
        c.put("taskmanager.memory.network.max", TM_NETWORK + "m");
        c.put("taskmanager.memory.framework.off-heap.size", TM_FRAMEWORK_OFF_HEAP + "m");
        c.put("taskmanager.memory.task.off-heap.size", TM_TASK_OFF_HEAP + "m");
        c.put("taskmanager.memory.jvm-metaspace.size", TM_METASPACE + "m");
        c.put("taskmanager.memory.jvm-overhead.min", TM_OVERHEAD + "m");
        c.put("taskmanager.memory.jvm-overhead.max", TM_OVERHEAD + "m");

        // keep Flink's scratch files in the work directory, not in the machine's /tmp
        c.put("io.tmp.dirs", tmpDir.toString());
        c.put("web.tmpdir", tmpDir.toString());
        c.put("blob.storage.directory", tmpDir.toString());
        // a failing task fails the job at once instead of restarting until the test times out
        c.put("restart-strategy.type", "none");

        // config.yaml, read with the standard YAML parser; Flink 1.20 still reads a legacy
        // flink-conf.yaml (and prefers it when both exist), but that format is deprecated
        StringBuilder yaml = new StringBuilder("# written by StandaloneCluster\n");
        c.forEach((k, v) -> yaml.append(k).append(": '").append(v).append("'\n"));
        Files.write(confDir.resolve("config.yaml"), yaml.toString().getBytes(StandardCharsets.UTF_8));
    }

    private static void writeLog4j(Path confDir) throws IOException {
        String props = String.join("\n",
                "rootLogger.level = INFO",
                "rootLogger.appenderRef.console.ref = Console",
                "appender.console.name = Console",
                "appender.console.type = CONSOLE",
                "appender.console.layout.type = PatternLayout",
                "appender.console.layout.pattern = %d{HH:mm:ss,SSS} %-5p %t %c{1} - %m%n",
                "logger.pekko.name = org.apache.pekko",
                "logger.pekko.level = WARN",
                "logger.netty.name = org.apache.flink.shaded.netty4",
                "logger.netty.level = WARN",
                "");
        Files.write(confDir.resolve("log4j.properties"), props.getBytes(StandardCharsets.UTF_8));
    }

    private void launch(String name, String mainClass, List<String> memoryFlags, String classpath, Path confDir,
            Path tmpDir, Path flinkPluginsDir, Path pluginsDir) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(ProcessHandle.current().info().command().orElseThrow(() -> new IllegalStateException("no java command")));
        cmd.addAll(memoryFlags);
        // Flink's serializers and RPC reflect into these JDK packages, which Java 17 closes
        for (String pkg : Arrays.asList("java.util", "java.lang", "java.nio", "java.net", "java.lang.invoke",
                "java.util.concurrent")) {
            cmd.add("--add-opens=java.base/" + pkg + "=ALL-UNNAMED");
        }
        cmd.add("-Djava.io.tmpdir=" + tmpDir);
        cmd.add("-Dlog4j.configurationFile=" + confDir.resolve("log4j.properties"));
        cmd.add("-cp");
        cmd.add(classpath);
        cmd.add(mainClass);
        cmd.add("--configDir");
        cmd.add(confDir.toString());

        Path log = workDir.resolve(name + ".out");
        ProcessBuilder pb = new ProcessBuilder(cmd)
                .directory(workDir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        pb.environment().put("SLUICE_PLUGINS_DIR", pluginsDir.toString());
        pb.environment().put("FLINK_PLUGINS_DIR", flinkPluginsDir.toString());
        pb.environment().put("FLINK_CONF_DIR", confDir.toString());
        logs.put(name, log);
        processes.add(pb.start());
    }

    /** The JobManager's REST port on 127.0.0.1. */
    int restPort() {
        return restPort;
    }

    String host() {
        return HOST;
    }

    /** The TaskManager's output so far (stdout and stderr). */
    String taskManagerLog() throws IOException {
        return new String(Files.readAllBytes(logs.get("taskmanager")), StandardCharsets.UTF_8);
    }

    /** GET {@code path} on the JobManager's REST endpoint, parsed. */
    JsonNode get(String path) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(
                HttpRequest.newBuilder(URI.create("http://" + HOST + ":" + restPort + path))
                        .timeout(Duration.ofSeconds(5)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException("GET " + path + ": HTTP " + response.statusCode() + " " + response.body());
        }
        return json.readTree(response.body());
    }

    private void awaitTaskManagers(int count, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        String last = "no answer yet";
        while (System.nanoTime() < deadline) {
            for (int i = 0; i < processes.size(); i++) {
                if (!processes.get(i).isAlive()) {
                    throw new IllegalStateException(new ArrayList<>(logs.keySet()).get(i) + " exited with code "
                            + processes.get(i).exitValue());
                }
            }
            try {
                JsonNode tms = get("/taskmanagers").path("taskmanagers");
                if (tms.size() >= count) {
                    return;
                }
                last = tms.size() + " TaskManagers registered";
            } catch (IOException e) {
                // the REST endpoint is not up yet
                last = e.toString();
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException("No " + count + " TaskManager(s) after " + timeout + ": " + last);
    }

    /** The last lines of each process's output, for failure messages. */
    String logTails() {
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<String, Path> e : logs.entrySet()) {
            sb.append("----- ").append(e.getKey()).append(" (").append(e.getValue()).append("), last ")
                    .append(LOG_TAIL_LINES).append(" lines -----\n");
            try {
                List<String> lines = Files.readAllLines(e.getValue(), StandardCharsets.UTF_8);
                lines.subList(Math.max(0, lines.size() - LOG_TAIL_LINES), lines.size())
                        .forEach(l -> sb.append(l).append('\n'));
            } catch (IOException | UncheckedIOException ex) {
                sb.append("(cannot read: ").append(ex).append(")\n");
            }
        }
        return sb.toString();
    }

    /**
     * Stops both processes: a polite SIGTERM first, so Flink's shutdown hooks clean up, then a
     * forced kill of whatever is still alive after ten seconds.
     */
    @Override
    public void close() throws InterruptedException {
        // both at once: each shuts down on its own, and waiting for one before the other only adds time
        processes.forEach(Process::destroy);
        for (Process p : processes) {
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
        try {
            Runtime.getRuntime().removeShutdownHook(killOnExit);
        } catch (IllegalStateException alreadyShuttingDown) {
            // the hook is running or will run; nothing left to do
        }
    }

    private static int freePort() throws IOException {
        // a small race (another process may take the port before Flink binds it) is accepted for
        // a test; Flink would fail to start with a clear bind error
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(HOST))) {
            return socket.getLocalPort();
        }
    }
}

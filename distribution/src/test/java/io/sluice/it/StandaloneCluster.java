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
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * A Flink session cluster of separate JVM processes, a JobManager and one or more TaskManagers,
 * started from a Sluice distribution the way a Flink installation runs them: the classpath is the
 * distribution's {@code lib/} (the framework jar) plus the Flink jars of {@code opt/embedded}, and
 * Sluice is installed as the README says: {@code config.yaml} is the Flink line's default (the test
 * resource {@code flink-1.20-default-config.yaml} or {@code flink-2.1-default-config.yaml}, with its
 * {@code env.java.opts.all} JDK 17 flags,
 * which become the processes' JVM options as Flink's scripts make them) plus one line, {@code
 * sluice.plugins.dir: <dir>}. No system property or environment variable names the plugins.
 *
 * <p>Each TaskManager has a fixed resource id ({@code taskmanager-1}, {@code taskmanager-2}, ...,
 * in start order), the id the REST API reports for the TaskManager that runs a subtask; a test can
 * start more TaskManagers while a job runs and kill one with SIGKILL.
 *
 * <p>Flink's bash scripts are bypassed, so what they would compute is written out here: every
 * TaskManager memory component is configured explicitly (the TaskManager refuses to start
 * without them) and the JVM limits are derived from the same numbers, so the two cannot disagree.
 * What only a test needs (127.0.0.1 and free ports, those memory sizes, temp directories, the
 * restart strategy and a test's own settings) goes on the command line as dynamic properties
 * ({@code -D key=value}), which override {@code config.yaml} as they do for Flink's scripts.
 * Logs, temp files and the configuration live in one work directory.
 */
final class StandaloneCluster implements AutoCloseable {

    private static final String HOST = "127.0.0.1";
    private static final int SLOTS = 2;
    private static final int LOG_TAIL_LINES = 60;

    /** JobManager memory in MiB: heap, off-heap (direct), metaspace. */
    private static final int JM_HEAP = 256, JM_OFF_HEAP = 64, JM_METASPACE = 192, JM_OVERHEAD = 192;

    /** TaskManager memory in MiB, one value per component Flink splits the process into. */
    private static final int TM_FRAMEWORK_HEAP = 128,
            TM_TASK_HEAP = 256,
            TM_MANAGED = 64,
            TM_NETWORK = 64,
            TM_FRAMEWORK_OFF_HEAP = 128,
            TM_TASK_OFF_HEAP = 64,
            TM_METASPACE = 256,
            TM_OVERHEAD = 128;

    private final Path workDir;
    private final int restPort;
    private final String classpath;
    private final Path confDir, tmpDir, flinkPluginsDir;
    /** The test's settings, passed to every process as dynamic properties. */
    private final Map<String, String> dynamicProperties;
    /** {@code env.java.opts.all} of the cluster's config.yaml, split as a shell would. */
    private final List<String> jvmOptions;

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final ObjectMapper json = new ObjectMapper();
    /** Every process started, by name (the TaskManager's resource id for a TaskManager), in start order. */
    private final Map<String, Process> processes = new LinkedHashMap<>();
    /** Processes killed on purpose: their exit is no reason to give up waiting for the cluster. */
    private final Set<String> killed = new HashSet<>();

    private final Map<String, Path> logs = new LinkedHashMap<>();
    private final Thread killOnExit;
    private int taskManagersStarted;

    private StandaloneCluster(
            Path workDir,
            int restPort,
            String classpath,
            Path confDir,
            Path tmpDir,
            Path flinkPluginsDir,
            Map<String, String> dynamicProperties,
            List<String> jvmOptions) {
        this.workDir = workDir;
        this.restPort = restPort;
        this.classpath = classpath;
        this.confDir = confDir;
        this.tmpDir = tmpDir;
        this.flinkPluginsDir = flinkPluginsDir;
        this.dynamicProperties = dynamicProperties;
        this.jvmOptions = jvmOptions;
        // if the test JVM exits without reaching @AfterAll, the cluster must not outlive it
        this.killOnExit = new Thread(() -> processList().forEach(Process::destroyForcibly), "kill-standalone-cluster");
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
        return start(dist, workDir, pluginsDir, Collections.emptyMap(), timeout);
    }

    /**
     * As {@link #start(Path, Path, Path, Duration)}, with {@code config} written into the
     * cluster's configuration after (and so replacing) the defaults here, e.g. a restart strategy
     * instead of {@code restart-strategy.type: none}, or heartbeat settings.
     */
    static StandaloneCluster start(
            Path dist, Path workDir, Path pluginsDir, Map<String, String> config, Duration timeout) throws Exception {
        Path confDir = Files.createDirectories(workDir.resolve("conf"));
        Path tmpDir = Files.createDirectories(workDir.resolve("tmp"));
        // Flink's own plugins directory ($FLINK_HOME/plugins: metrics reporters, file systems),
        // empty, as in a fresh Flink installation; a test may put something there first
        Path flinkPluginsDir = Files.createDirectories(workDir.resolve("flink-plugins"));
        int rpcPort = freePort();
        int restPort = freePort();
        writeConfigYaml(confDir, pluginsDir);
        Map<String, String> dynamicProperties = testSettings(tmpDir, rpcPort, restPort, config);
        writeLog4j(confDir);

        String classpath = dist.resolve("lib") + File.separator + "*" + File.pathSeparator
                + dist.resolve("opt").resolve("embedded") + File.separator + "*";
        StandaloneCluster cluster = new StandaloneCluster(
                workDir, restPort, classpath, confDir, tmpDir, flinkPluginsDir, dynamicProperties, jvmOptions(confDir));
        try {
            cluster.launch(
                    "jobmanager",
                    "org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint",
                    Arrays.asList(
                            "-Xmx" + JM_HEAP + "m",
                            "-XX:MaxDirectMemorySize=" + JM_OFF_HEAP + "m",
                            "-XX:MaxMetaspaceSize=" + JM_METASPACE + "m"),
                    Collections.emptyMap());
            cluster.startTaskManager(timeout);
            return cluster;
        } catch (Throwable t) {
            t.addSuppressed(new AssertionError("Standalone cluster did not come up:\n" + cluster.logTails()));
            cluster.close();
            throw t;
        }
    }

    /**
     * Starts one more TaskManager process with {@value #SLOTS} slots and waits until it has
     * registered with the JobManager.
     *
     * @return its resource id, {@code taskmanager-<n>}
     */
    String startTaskManager(Duration timeout) throws Exception {
        String id = "taskmanager-" + (++taskManagersStarted);
        launch(
                id,
                "org.apache.flink.runtime.taskexecutor.TaskManagerRunner",
                Arrays.asList(
                        "-Xmx" + (TM_FRAMEWORK_HEAP + TM_TASK_HEAP) + "m",
                        "-XX:MaxDirectMemorySize=" + (TM_FRAMEWORK_OFF_HEAP + TM_TASK_OFF_HEAP + TM_NETWORK) + "m",
                        "-XX:MaxMetaspaceSize=" + TM_METASPACE + "m"),
                // the one setting that differs between TaskManagers sharing the configuration
                Map.of("taskmanager.resource-id", id));
        awaitTaskManager(id, timeout);
        return id;
    }

    /**
     * Kills the TaskManager {@code id} with SIGKILL ({@link Process#destroyForcibly()}), as a
     * crashed machine or the kernel's OOM killer would: no shutdown hook runs, nothing is flushed,
     * no goodbye reaches the JobManager. Returns once the process is gone.
     */
    void killTaskManager(String id) throws InterruptedException {
        Process p = processes.get(id);
        if (p == null || !id.startsWith("taskmanager-")) {
            throw new IllegalArgumentException("No TaskManager " + id + " in " + processes.keySet());
        }
        killed.add(id);
        if (!p.destroyForcibly().waitFor(10, TimeUnit.SECONDS)) {
            throw new IllegalStateException("TaskManager " + id + " still alive 10 s after SIGKILL");
        }
    }

    /**
     * The cluster's {@code config.yaml}: the Flink line's default and, at its end, the one line the
     * README's install step adds. Nothing else: what a test needs on top is {@link #testSettings}.
     */
    private static void writeConfigYaml(Path confDir, Path pluginsDir) throws IOException {
        String flinkDefault;
        String resource = "/flink-" + TestDistribution.flinkLine() + "-default-config.yaml";
        try (java.io.InputStream in = StandaloneCluster.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("No test resource " + resource + " for this Flink line");
            }
            flinkDefault = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        String sluice = "\n# Sluice: where its plugins are, for every Flink process (README, install step 3)\n"
                + "sluice.plugins.dir: " + pluginsDir.toAbsolutePath().normalize() + "\n";
        Files.write(confDir.resolve("config.yaml"), (flinkDefault + sluice).getBytes(StandardCharsets.UTF_8));
    }

    /**
     * The JVM options of {@code config.yaml} ({@code env.java.opts.all}: the JDK 17 flags of
     * Flink's default), split on white space as Flink's scripts leave them to the shell.
     */
    private static List<String> jvmOptions(Path confDir) {
        org.apache.flink.configuration.Configuration conf =
                org.apache.flink.configuration.GlobalConfiguration.loadConfiguration(confDir.toString());
        String all = conf.get(org.apache.flink.configuration.CoreOptions.FLINK_JVM_OPTIONS);
        List<String> options = new ArrayList<>();
        for (String o : all.trim().split("\\s+")) {
            if (!o.isEmpty()) {
                options.add(o);
            }
        }
        return options;
    }

    /** The settings only a test needs, as dynamic properties of every process. */
    private static Map<String, String> testSettings(
            Path tmpDir, int rpcPort, int restPort, Map<String, String> overrides) {
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

        // config.yaml's process sizes (1600m, 1728m) must agree with the components below, or
        // Flink refuses the configuration: set them to the sums
        c.put("jobmanager.memory.process.size", (JM_HEAP + JM_OFF_HEAP + JM_METASPACE + JM_OVERHEAD) + "m");
        c.put("jobmanager.memory.jvm-overhead.min", JM_OVERHEAD + "m");
        c.put("jobmanager.memory.jvm-overhead.max", JM_OVERHEAD + "m");
        c.put(
                "taskmanager.memory.process.size",
                (TM_FRAMEWORK_HEAP
                                + TM_TASK_HEAP
                                + TM_MANAGED
                                + TM_NETWORK
                                + TM_FRAMEWORK_OFF_HEAP
                                + TM_TASK_OFF_HEAP
                                + TM_METASPACE
                                + TM_OVERHEAD)
                        + "m");
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
        c.putAll(overrides);
        return c;
    }

    private static void writeLog4j(Path confDir) throws IOException {
        String props = String.join(
                "\n",
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
        // and what the README tells an operator to append to Flink's log4j.properties
        Files.write(
                confDir.resolve("log4j.properties"), (props + readmeLog4jSnippet()).getBytes(StandardCharsets.UTF_8));
    }

    /** The properties block after the README's {@code flink-log4j-snippet} marker. */
    static String readmeLog4jSnippet() throws IOException {
        String readme = Files.readString(java.nio.file.Paths.get("..", "docs", "install.md"));
        int marker = readme.indexOf("<!-- flink-log4j-snippet");
        if (marker < 0) {
            throw new IllegalStateException("docs/install.md has no flink-log4j-snippet marker");
        }
        int start = readme.indexOf("```properties\n", marker) + "```properties\n".length();
        return readme.substring(start, readme.indexOf("```", start));
    }

    private void launch(String name, String mainClass, List<String> memoryFlags, Map<String, String> ownProperties)
            throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(ProcessHandle.current()
                .info()
                .command()
                .orElseThrow(() -> new IllegalStateException("no java command")));
        cmd.addAll(memoryFlags);
        // the JDK 17 flags of config.yaml, as Flink's scripts pass them
        cmd.addAll(jvmOptions);
        cmd.add("-Djava.io.tmpdir=" + tmpDir);
        cmd.add("-Dlog4j.configurationFile=" + confDir.resolve("log4j.properties"));
        cmd.add("-cp");
        cmd.add(classpath);
        cmd.add(mainClass);
        cmd.add("--configDir");
        cmd.add(confDir.toString());
        Map<String, String> properties = new LinkedHashMap<>(dynamicProperties);
        properties.putAll(ownProperties);
        properties.forEach((k, v) -> {
            cmd.add("-D");
            cmd.add(k + "=" + v);
        });

        Path log = workDir.resolve(name + ".out");
        ProcessBuilder pb = new ProcessBuilder(cmd)
                .directory(workDir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        // what Flink's config.sh exports to every process; the test JVM's own setting, if it has
        // one, must not reach the cluster
        pb.environment().remove("SLUICE_PLUGINS_DIR");
        pb.environment().put("FLINK_PLUGINS_DIR", flinkPluginsDir.toString());
        pb.environment().put("FLINK_CONF_DIR", confDir.toString());
        logs.put(name, log);
        // under the lock the shutdown hook's copy takes: a process started must be one it kills
        synchronized (this) {
            processes.put(name, pb.start());
        }
    }

    private synchronized List<Process> processList() {
        return new ArrayList<>(processes.values());
    }

    /** The JobManager's REST port on 127.0.0.1. */
    int restPort() {
        return restPort;
    }

    String host() {
        return HOST;
    }

    /** The output so far (stdout and stderr) of every TaskManager, one after the other. */
    String taskManagerLog() throws IOException {
        StringBuilder sb = new StringBuilder();
        for (String name : logs.keySet()) {
            if (name.startsWith("taskmanager-")) {
                sb.append(taskManagerLog(name));
            }
        }
        return sb.toString();
    }

    /** The output so far (stdout and stderr) of the TaskManager {@code id}. */
    String taskManagerLog(String id) throws IOException {
        return new String(Files.readAllBytes(logs.get(id)), StandardCharsets.UTF_8);
    }

    /** GET {@code path} on the JobManager's REST endpoint, parsed. */
    JsonNode get(String path) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(
                HttpRequest.newBuilder(URI.create("http://" + HOST + ":" + restPort + path))
                        .timeout(Duration.ofSeconds(5))
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException("GET " + path + ": HTTP " + response.statusCode() + " " + response.body());
        }
        return json.readTree(response.body());
    }

    private void awaitTaskManager(String id, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        String last = "no answer yet";
        while (System.nanoTime() < deadline) {
            for (Map.Entry<String, Process> p : processes.entrySet()) {
                if (!p.getValue().isAlive() && !killed.contains(p.getKey())) {
                    throw new IllegalStateException(
                            p.getKey() + " exited with code " + p.getValue().exitValue());
                }
            }
            try {
                List<String> registered = new ArrayList<>();
                get("/taskmanagers")
                        .path("taskmanagers")
                        .forEach(tm -> registered.add(tm.path("id").asText()));
                if (registered.contains(id)) {
                    return;
                }
                last = "TaskManagers registered: " + registered;
            } catch (IOException e) {
                // the REST endpoint is not up yet
                last = e.toString();
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException("TaskManager " + id + " not registered after " + timeout + ": " + last);
    }

    /** The last lines of each process's output, for failure messages. */
    /** The resource ids of the TaskManagers the subtasks of the job at {@code jobPath} ({@code /jobs/<id>}) run on or last ran on. */
    Set<String> taskManagersOf(String jobPath) throws IOException, InterruptedException {
        Set<String> ids = new TreeSet<>();
        for (JsonNode vertex : get(jobPath).path("vertices")) {
            for (JsonNode subtask :
                    get(jobPath + "/vertices/" + vertex.path("id").asText()).path("subtasks")) {
                ids.add(subtask.path("taskmanager-id").asText());
            }
        }
        return ids;
    }

    String logTails() {
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<String, Path> e : logs.entrySet()) {
            sb.append("----- ")
                    .append(e.getKey())
                    .append(" (")
                    .append(e.getValue())
                    .append("), last ")
                    .append(LOG_TAIL_LINES)
                    .append(" lines -----\n");
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
     * Stops every process: a polite SIGTERM first, so Flink's shutdown hooks clean up, then a
     * forced kill of whatever is still alive after ten seconds.
     */
    @Override
    public void close() throws InterruptedException {
        // all at once: each shuts down on its own, and waiting for one before the other only adds time
        List<Process> all = processList();
        all.forEach(Process::destroy);
        for (Process p : all) {
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

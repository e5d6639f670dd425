package io.sluice.testshared;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Comparator;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * What the benchmarks (of the distribution and of the plugins) measure and report about the
 * machine they run on, and how they print numbers, in one place so their tables read alike.
 */
public final class BenchmarkMachine {

    private BenchmarkMachine() {}

    /** CPU time of this whole JVM (task threads, GC, JIT): robust against other load on the machine. */
    public static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    /** The 1, 5 and 15 minute load averages, as {@code uptime} prints them; {@code n/a} off Linux. */
    public static String loadAverage() {
        try {
            String[] parts =
                    new String(Files.readAllBytes(Paths.get("/proc/loadavg")), StandardCharsets.US_ASCII).split(" ");
            return parts[0] + " " + parts[1] + " " + parts[2];
        } catch (IOException e) {
            return "n/a";
        }
    }

    /** The CPU's model name; {@code unknown CPU} off Linux. */
    public static String cpuModel() {
        try (Stream<String> lines = Files.lines(Paths.get("/proc/cpuinfo"))) {
            return lines.filter(l -> l.startsWith("model name"))
                    .map(l -> l.substring(l.indexOf(':') + 1).trim())
                    .findFirst()
                    .orElse("unknown CPU");
        } catch (IOException | UncheckedIOException e) {
            return "unknown CPU";
        }
    }

    /** Rows per second with thousands separators. */
    public static String rate(double rowsPerSecond) {
        return String.format(Locale.ROOT, "%,.0f", rowsPerSecond);
    }

    /** Bytes as megabytes, one decimal. */
    public static String mb(long bytes) {
        return String.format(Locale.ROOT, "%.1f MB", bytes / 1024.0 / 1024.0);
    }

    /** Deletes a directory tree, if there is one (a benchmark's output between runs). */
    public static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) files.sorted(Comparator.reverseOrder())::iterator) {
                Files.delete(p);
            }
        }
    }
}

package io.sluice.testshared;

import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

import static io.sluice.testshared.BenchmarkMachine.processCpuNanos;
import static io.sluice.testshared.BenchmarkMachine.rate;

/**
 * One timed job of a benchmark: the job's net run time on the cluster (what the throughput is
 * taken from), its wall time on the client, and the CPU time of the whole JVM. A benchmark's own
 * run extends it with what it found of the job's output.
 */
public class TimedRun {

    public final JobExecutionResult job;
    public final long rows;
    public final long netMs;
    public final long wallMs;
    public final long cpuMs;

    /** The finished {@code job} of {@code rows} rows, timed from the two starts (nanoseconds) to now. */
    public TimedRun(JobExecutionResult job, long rows, long wallStartNanos, long cpuStartNanos) {
        this.job = job;
        this.rows = rows;
        this.netMs = job.getNetRuntime();
        this.wallMs = (System.nanoTime() - wallStartNanos) / 1_000_000;
        this.cpuMs = (processCpuNanos() - cpuStartNanos) / 1_000_000;
    }

    /** The same timing, for a subclass that adds what it measured. */
    protected TimedRun(TimedRun timing) {
        this.job = timing.job;
        this.rows = timing.rows;
        this.netMs = timing.netMs;
        this.wallMs = timing.wallMs;
        this.cpuMs = timing.cpuMs;
    }

    /** Runs the job built on {@code env} to its end, timed from submission. */
    public static TimedRun execute(StreamExecutionEnvironment env, String jobName, long rows) throws Exception {
        long cpuStart = processCpuNanos();
        long wallStart = System.nanoTime();
        return new TimedRun(env.execute(jobName), rows, wallStart, cpuStart);
    }

    public double rowsPerSecond() {
        return rows * 1000.0 / netMs;
    }

    public double cpuSeconds() {
        return cpuMs / 1000.0;
    }

    /** Net, wall and CPU seconds and the throughput, for a benchmark's log line. */
    public String timing() {
        return String.format(
                Locale.ROOT,
                "%6.2f s (wall %6.2f s, cpu %6.2f s)  %s rows/s",
                netMs / 1000.0,
                wallMs / 1000.0,
                cpuMs / 1000.0,
                rate(rowsPerSecond()));
    }

    /** Each run's net run time in seconds, in run order. */
    public static String seconds(List<? extends TimedRun> runs) {
        return runs.stream()
                .map(r -> String.format(Locale.ROOT, "%.2f", r.netMs / 1000.0))
                .collect(Collectors.joining(", "));
    }
}

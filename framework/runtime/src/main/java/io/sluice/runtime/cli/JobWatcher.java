package io.sluice.runtime.cli;

import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.core.execution.JobClient;

import java.io.PrintStream;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Waits for a submitted job to end, telling the user every few seconds that it is still running,
 * so that a long INSERT does not look like a hung command.
 */
final class JobWatcher {

    private final PrintStream progress;
    private final Duration interval;

    JobWatcher(PrintStream progress, Duration interval) {
        this.progress = progress;
        this.interval = interval;
    }

    /**
     * Blocks until the job ends.
     *
     * @return the job's result, once it finished
     * @throws ExecutionException with the job's failure as cause, if it failed or was cancelled
     */
    JobExecutionResult await(JobClient job) throws ExecutionException, InterruptedException {
        long started = System.nanoTime();
        CompletableFuture<JobExecutionResult> result = job.getJobExecutionResult();
        while (true) {
            try {
                return result.get(interval.toMillis(), TimeUnit.MILLISECONDS);
            } catch (TimeoutException stillRunning) {
                progress.println("  job " + job.getJobID() + " " + status(job) + ", " + seconds(started) + " elapsed");
            }
        }
    }

    /** The job's status, or UNKNOWN: a progress line is not worth failing or waiting for. */
    private String status(JobClient job) {
        try {
            JobStatus status = job.getJobStatus().get(1, TimeUnit.SECONDS);
            return status.name();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "UNKNOWN";
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            return "UNKNOWN";
        }
    }

    /** Seconds since a {@link System#nanoTime()} reading, for messages. */
    static String seconds(long startedNanos) {
        return String.format(Locale.ROOT, "%.1f s", (System.nanoTime() - startedNanos) / 1e9);
    }
}

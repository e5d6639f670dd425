package io.sluice.testservers.s3;

import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What one job cost on an S3 server: the requests under its prefix by kind, the persists of open
 * files among them (PUTs of an unfinished tail, {@code _<name>_tmp_<uuid>}), the checkpoints it
 * took and the whole minutes it ran. The request-cost tests set two of these side by side, a
 * Sluice target's and an upstream sink's on the same rows and server.
 */
public final class RequestCost {

    private final Map<S3Request.Kind, Long> counts;
    /** Requests on unfinished tails ({@code _<name>_tmp_<uuid>}): what the persists cost. */
    private final long ofTails;
    /** Requests neither on a tail nor of a multipart upload, in order: what commits cost. */
    private final List<S3Request> others;

    private final int persists;
    private final int checkpoints;
    private final long minutes;

    private RequestCost(
            Map<S3Request.Kind, Long> counts,
            long ofTails,
            List<S3Request> others,
            int persists,
            int checkpoints,
            long minutes) {
        this.counts = counts;
        this.ofTails = ofTails;
        this.others = others;
        this.persists = persists;
        this.checkpoints = Math.max(1, checkpoints);
        this.minutes = minutes;
    }

    /**
     * @param requests what the server's proxy saw during the job
     * @param prefix the job's key prefix, without the trailing slash: requests on it and under it count
     * @param checkpoints the checkpoints the job took ({@link CheckpointCounter})
     * @param minutes the whole minutes the job ran
     */
    public static RequestCost of(List<S3Request> requests, String prefix, int checkpoints, long minutes) {
        Map<S3Request.Kind, Long> counts = new EnumMap<>(S3Request.Kind.class);
        long ofTails = 0;
        List<S3Request> others = new ArrayList<>();
        int persists = 0;
        for (S3Request request : requests) {
            if (request.keyOrPrefix().startsWith(prefix + "/")
                    || request.keyOrPrefix().equals(prefix)) {
                counts.merge(request.kind(), 1L, Long::sum);
                if (request.keyOrPrefix().contains("_tmp_")) {
                    ofTails++;
                    if (request.kind() == S3Request.Kind.PUT) {
                        persists++;
                    }
                } else if (!isOfUploads(request.kind())) {
                    others.add(request);
                }
            }
        }
        return new RequestCost(counts, ofTails, others, persists, checkpoints, minutes);
    }

    public long count(S3Request.Kind kind) {
        return counts.getOrDefault(kind, 0L);
    }

    public int persists() {
        return persists;
    }

    public int checkpoints() {
        return checkpoints;
    }

    public long minutes() {
        return minutes;
    }

    /**
     * Requests of the persists per persist: those on unfinished tails, the tail's PUT and the HEAD,
     * DELETE, LIST that drop the one before (Flink's S3 recoverable writer).
     */
    public double perPersist() {
        return ofTails / (double) Math.max(1, persists);
    }

    /** Requests that write the files themselves: each file's multipart upload. */
    public long ofUploads() {
        return counts.entrySet().stream()
                .filter(e -> isOfUploads(e.getKey()))
                .mapToLong(Map.Entry::getValue)
                .sum();
    }

    /**
     * The requests neither on a tail nor of a multipart upload (committing partitions: success
     * files, a metastore's look at a new partition's directory), in the order they came.
     */
    public List<S3Request> others() {
        return Collections.unmodifiableList(others);
    }

    private static boolean isOfUploads(S3Request.Kind kind) {
        return kind.name().startsWith("MULTIPART") || kind == S3Request.Kind.UPLOAD_PART;
    }

    public double perCheckpoint(S3Request.Kind kind) {
        return count(kind) / (double) checkpoints;
    }

    public long total() {
        return counts.values().stream().mapToLong(Long::longValue).sum();
    }

    /**
     * Both sides per checkpoint by kind, then the totals and persists: what the request-cost tests
     * print for the README's figures.
     */
    public static String table(String leftName, RequestCost left, String rightName, RequestCost right) {
        StringBuilder out =
                new StringBuilder(String.format(Locale.ROOT, "%-20s %10s %10s%n", "kind", leftName, rightName));
        for (S3Request.Kind kind : S3Request.Kind.values()) {
            if (left.counts.containsKey(kind) || right.counts.containsKey(kind)) {
                out.append(String.format(
                        Locale.ROOT,
                        "%-20s %10.2f %10.2f%n",
                        kind,
                        left.perCheckpoint(kind),
                        right.perCheckpoint(kind)));
            }
        }
        out.append(String.format(
                Locale.ROOT,
                "%-20s %10.2f %10.2f   (%d and %d requests, %d and %d checkpoints)%n",
                "all",
                left.total() / (double) left.checkpoints,
                right.total() / (double) right.checkpoints,
                left.total(),
                right.total(),
                left.checkpoints,
                right.checkpoints));
        out.append(String.format(Locale.ROOT, "%-20s %10d %10d%n", "persists", left.persists, right.persists));
        out.append(String.format(Locale.ROOT, "%-20s %10d %10d%n", "tail requests", left.ofTails, right.ofTails));
        out.append(String.format(
                Locale.ROOT, "%-20s %10d %10d%n", "other requests", left.others.size(), right.others.size()));
        out.append(String.format(
                Locale.ROOT, "%-20s %10.2f %10.2f%n", "requests/persist", left.perPersist(), right.perPersist()));
        return out.toString();
    }

    @Override
    public String toString() {
        return counts + " in " + persists + " persists, " + checkpoints + " checkpoints";
    }

    /**
     * Counts the checkpoints a job took, per run id: a pass-through map placed after the source,
     * with parallelism 1 (each checkpoint is one persist of every file a writer has open).
     */
    public static final class CheckpointCounter<T> extends RichMapFunction<T, T> implements CheckpointedFunction {
        private static final Map<String, AtomicInteger> COMPLETED = new ConcurrentHashMap<>();
        private final String runId;

        public CheckpointCounter(String runId) {
            this.runId = runId;
        }

        /** The checkpoints run {@code runId} took; forgets the run. */
        public static int completed(String runId) {
            AtomicInteger count = COMPLETED.remove(runId);
            return count == null ? 0 : count.get();
        }

        @Override
        public T map(T value) {
            return value;
        }

        @Override
        public void snapshotState(FunctionSnapshotContext context) {
            COMPLETED.computeIfAbsent(runId, k -> new AtomicInteger()).incrementAndGet();
        }

        @Override
        public void initializeState(FunctionInitializationContext context) {}
    }
}

package io.sluice.partfiles;

import io.sluice.hadoopbridge.OpenUploads;
import io.sluice.spi.Payload;
import io.sluice.spi.sink.CommitRequest;
import io.sluice.spi.sink.CompactionUnit;
import io.sluice.spi.sink.PendingCommit;
import io.sluice.spi.sink.TargetCommitter;

import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import org.apache.flink.core.fs.RecoverableWriter;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Publishes pending part files, and runs the compaction units of a request. The final name of
 * every file is fixed when it is written, and the file system's {@code commitAfterRecovery}
 * succeeds without change when the file is already in place, so a retried commit is a no-op rather
 * than a duplicate; a unit is idempotent too ({@link UnitCompaction}). With overwrite, the other
 * files of the directories a commit publishes to are deleted first ({@link OverwrittenFiles}).
 * Every file a request would publish, compact or delete must be under the table's base path
 * ({@link TableRoot}), checked before the first change. After the commit it removes the recoverable
 * state of in-progress files that the request's checkpoint superseded ({@link ObsoleteResumable}).
 *
 * <p>The compaction units of a request run on up to {@code compaction.parallelism} threads at
 * once ({@link #runUnits}). Why a pool inside the committer rather than an operator of its own:
 * the units of one request are independent (each has its own inputs, in one bucket, and its own
 * output, named after its first input), each is idempotent, and the request only returns, so the
 * checkpoint's commit only completes and the partitions' policies only run, once every unit has
 * ended. A failed unit fails the request after the others have ended, with an error naming its
 * bucket and file; the request is handed over again after the failover, and the units that had
 * succeeded find their output and only remove what is left of their inputs. So the committer's
 * order (files published, then units, then policies) and its exactly-once stay as with one
 * thread, without a second operator whose state would have to agree with the aggregator's.
 * Each thread has its own {@link UnitCompaction} (its own format writers and readers); the
 * compactor is shared, so it runs on several units at once.
 */
final class FileTargetCommitter implements TargetCommitter {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(FileTargetCommitter.class);

    private final RecoverableWriter fsWriter;
    private final Supplier<UnitCompaction> compaction; // one per thread that runs units, made when first needed
    private final int parallelism;
    /** What the threads of earlier units made and left for the next ones. */
    private final java.util.concurrent.ConcurrentLinkedQueue<UnitCompaction> idle =
            new java.util.concurrent.ConcurrentLinkedQueue<>();

    private final boolean overwrite;
    private final TableRoot root;
    private final Path basePath;
    private final java.util.function.Function<String, Path> locations; // partition (bucket) id -> its directory

    /**
     * How often at most the committer lists the table's open uploads to abort orphaned ones (see
     * {@link #abortOrphanedUploads}): one request a minute, and one when it closes, rather than one
     * per checkpoint.
     */
    static final long ORPHANED_UPLOAD_SWEEP_INTERVAL_MILLIS = 60_000;

    /** Names of the part files published since the last sweep for orphaned uploads (unique per writer and counter). */
    private final java.util.Set<String> publishedSinceSweep = new java.util.HashSet<>();

    private long lastSweep = System.currentTimeMillis();

    FileTargetCommitter(
            RecoverableWriter fsWriter,
            Supplier<UnitCompaction> compaction,
            int parallelism,
            boolean overwrite,
            Path basePath,
            java.util.function.Function<String, Path> locations) {
        if (parallelism < 1) {
            throw new IllegalArgumentException(
                    "Invalid 'compaction.parallelism' '" + parallelism + "': must be at least 1");
        }
        this.parallelism = parallelism;
        this.locations = locations;
        this.root = new TableRoot(basePath);
        this.basePath = basePath;
        this.fsWriter = fsWriter;
        this.compaction = compaction;
        this.overwrite = overwrite;
    }

    @Override
    public void commit(CommitRequest request) throws IOException {
        List<PendingFile> files = new ArrayList<>(request.pending().size());
        List<ObsoleteResumable> obsolete = new ArrayList<>();
        for (Payload p : request.pending()) {
            if (ObsoleteResumable.isOne(p)) {
                obsolete.add(ObsoleteResumable.of(p, fsWriter));
            } else {
                files.add(PendingFile.of(p, fsWriter));
            }
        }
        checkUnderRoot(files, request.compactions());
        if (overwrite) {
            overwritten(files, request.compactions()).deleteOthers();
        }
        for (PendingFile file : files) {
            file.commit(fsWriter);
            if (file.path() != null) {
                publishedSinceSweep.add(file.path().getName());
            }
        }
        runUnits(request.compactions());
        removeObsolete(obsolete);
        long now = System.currentTimeMillis();
        if (!publishedSinceSweep.isEmpty() && now - lastSweep >= ORPHANED_UPLOAD_SWEEP_INTERVAL_MILLIS) {
            abortOrphanedUploads();
        }
    }

    /**
     * Deletes the pending files that their writer opened after its last snapshot (so no snapshot
     * refers to them) and that the failed job will never commit: a local or HDFS file's hidden
     * in-progress file, an S3 file's open multipart upload. A file a writer's snapshot still
     * refers to stays for a restore from that snapshot to resume; so do payloads of versions that
     * did not record it. Never a published file: only staged names ({@code .<name>.inprogress.*})
     * and uploads, only below the table's base path. Best effort, logged.
     */
    @Override
    public void discard(List<PendingCommit> pending) {
        Map<Path, Set<String>> namesByDirectory = new HashMap<>();
        Set<String> names = new HashSet<>();
        for (PendingCommit p : pending) {
            try {
                if (ObsoleteResumable.isOne(p.payload())) {
                    continue;
                }
                PendingFile file = PendingFile.of(p.payload(), fsWriter);
                if (file.openedAfterSnapshot() && root.isBelow(file.path())) {
                    namesByDirectory
                            .computeIfAbsent(file.path().getParent(), d -> new HashSet<>())
                            .add(file.path().getName());
                    names.add(file.path().getName());
                }
            } catch (IOException | RuntimeException e) {
                LOG.warn("Cannot read a pending file to discard under {}: {}", basePath, e.toString());
            }
        }
        int removed = 0;
        for (Map.Entry<Path, Set<String>> dir : namesByDirectory.entrySet()) {
            // staged under the name of a discarded file, never the published name itself
            removed += FileTargetWriter.removeStaged(
                    dir.getKey(),
                    name -> name.startsWith(".")
                            && name.contains(".inprogress.")
                            && dir.getValue().contains(FileTargetWriter.finalNameOf(name)));
        }
        if (!names.isEmpty()) {
            try {
                removed += Math.max(0, OpenUploads.abortUnder(FileSystems.of(basePath), basePath, names::contains));
            } catch (Exception | LinkageError e) {
                LOG.warn("Cannot abort the multipart uploads of discarded files under {}: {}", basePath, e.toString());
            }
        }
        LOG.info(
                "Discarded {} of {} pending file(s) under {} that no checkpoint holds",
                removed,
                pending.size(),
                basePath);
    }

    /** Aborts what open uploads remain under the keys of files published since the last sweep. */
    @Override
    public void close() {
        if (!publishedSinceSweep.isEmpty()) {
            abortOrphanedUploads();
        }
    }

    /**
     * On S3, aborts the open multipart uploads under the key of a file this committer published:
     * an upload the writer began for a part file is completed by the commit, so another one under
     * the same key is one whose initiation the S3 client retried after a lost answer, and nobody
     * would ever complete or abort it (FLINK-39786). One listing of the table's uploads per sweep;
     * nothing on other file systems. Best effort: a failure is logged, the commit stands.
     */
    private void abortOrphanedUploads() {
        java.util.Set<String> published = new java.util.HashSet<>(publishedSinceSweep);
        publishedSinceSweep.clear();
        lastSweep = System.currentTimeMillis();
        try {
            int aborted = OpenUploads.abortUnder(FileSystems.of(basePath), basePath, published::contains);
            if (aborted > 0) {
                LOG.info(
                        "Aborted {} orphaned multipart upload(s) under the keys of published files of {}",
                        aborted,
                        basePath);
            }
        } catch (Exception | LinkageError e) {
            LOG.warn("Cannot abort orphaned multipart uploads under {}: {}", basePath, e.toString());
        }
    }

    /**
     * Runs the units, up to {@link #parallelism} at a time, and returns when all have ended (see
     * the class doc). The pool lives for one request: commits come once per checkpoint, and a pool
     * kept between them would hold threads of an idle committer.
     *
     * @throws IOException of the first unit that failed (in the request's order), the other
     *     failures suppressed in it, once every unit has ended
     */
    private void runUnits(List<CompactionUnit> units) throws IOException {
        int threads = Math.min(parallelism, units.size());
        if (threads <= 1) {
            for (CompactionUnit unit : units) {
                runOne(unit);
            }
            return;
        }
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        java.util.concurrent.atomic.AtomicInteger count = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "sluice-compaction-" + count.incrementAndGet());
            t.setDaemon(true);
            t.setContextClassLoader(loader); // the plugin's: formats and compactors load through it
            return t;
        });
        try {
            List<java.util.concurrent.Future<?>> running = new ArrayList<>(units.size());
            for (CompactionUnit unit : units) {
                running.add(pool.submit(() -> {
                    runOne(unit);
                    return null;
                }));
            }
            IOException failure = null;
            for (java.util.concurrent.Future<?> f : running) {
                try {
                    f.get();
                } catch (java.util.concurrent.ExecutionException e) {
                    IOException cause = e.getCause() instanceof IOException
                            ? (IOException) e.getCause()
                            : new IOException(e.getCause().getMessage(), e.getCause());
                    if (failure == null) {
                        failure = cause;
                    } else {
                        failure.addSuppressed(cause);
                    }
                }
            }
            if (failure != null) {
                throw failure;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("Interrupted while compaction units ran under " + basePath);
        } finally {
            pool.shutdownNow();
        }
    }

    /** Runs one unit with a {@link UnitCompaction} no other thread uses meanwhile. */
    private void runOne(CompactionUnit unit) throws IOException {
        // the thread in the log line shows how many units of a commit run at once
        LOG.debug("Compacting {} file(s) of bucket '{}'", unit.inputs().size(), unit.bucketId());
        UnitCompaction units = idle.poll();
        if (units == null) {
            units = compaction.get();
        }
        try {
            units.run(unit);
        } catch (IOException | RuntimeException e) {
            throw new IOException(
                    "Compaction unit of bucket '" + unit.bucketId() + "' ("
                            + unit.inputs().size() + " files, the first " + firstPath(unit) + ") failed: "
                            + e.getMessage(),
                    e);
        } finally {
            idle.add(units);
        }
    }

    private String firstPath(CompactionUnit unit) {
        if (unit.inputs().isEmpty()) {
            return "none";
        }
        try {
            Path path = PendingFile.of(unit.inputs().get(0), fsWriter).path();
            return path == null ? "of unknown path" : path.toString();
        } catch (IOException | RuntimeException e) {
            return "unreadable";
        }
    }

    /**
     * Removes what resumed in-progress files at an earlier checkpoint ({@link ObsoleteResumable}).
     * Best effort: what stays behind costs storage and loses nothing, so a failure is logged and
     * the commit stands; a retried commit removes it again, which the file system allows.
     */
    private void removeObsolete(List<ObsoleteResumable> obsolete) {
        for (ObsoleteResumable o : obsolete) {
            try {
                fsWriter.cleanupRecoverableState(o.resumable());
            } catch (IOException | RuntimeException e) {
                LOG.warn(
                        "Cannot remove the recoverable state of an in-progress file under {}: {}",
                        basePath,
                        e.toString());
            }
        }
    }

    /** A partition's directory: its id is the bucket id ({@code k1=v1/k2=v2} below the base path by default). */
    @Override
    public Optional<Path> partitionLocation(String partitionId) {
        return Optional.of(locations.apply(partitionId));
    }

    @Override
    public List<Path> visibleFiles(String partitionId) throws IOException {
        Path dir = partitionLocation(partitionId).get();
        FileSystem fs = FileSystems.of(dir);
        FileStatus[] entries = fs.exists(dir) ? fs.listStatus(dir) : null;
        List<Path> files = new ArrayList<>();
        if (entries != null) {
            for (FileStatus f : entries) {
                if (!f.isDir() && VisibleFiles.isVisibleName(f.getPath().getName())) {
                    files.add(f.getPath());
                }
            }
        }
        files.sort(java.util.Comparator.comparing(Path::toString));
        return files;
    }

    /** Fails before any change if a file of the request lies outside the table. */
    private void checkUnderRoot(List<PendingFile> files, List<CompactionUnit> units) throws IOException {
        for (PendingFile file : files) {
            if (file.path() != null) { // older versions did not record it; nothing to check against
                root.check(file.path(), "publish");
            }
        }
        for (CompactionUnit unit : units) {
            for (Payload input : unit.inputs()) {
                PendingFile file = PendingFile.of(input, fsWriter);
                if (file.path() != null) {
                    root.check(file.path(), "compact");
                }
            }
        }
    }

    /** The files this commit publishes: the pending files and the outputs of its compaction units. */
    private OverwrittenFiles overwritten(List<PendingFile> files, List<CompactionUnit> units) throws IOException {
        OverwrittenFiles overwritten = new OverwrittenFiles(root);
        for (PendingFile file : files) {
            overwritten.add(requirePath(file));
        }
        for (CompactionUnit unit : units) {
            if (!unit.inputs().isEmpty()) {
                overwritten.add(UnitCompaction.outputPath(
                        requirePath(PendingFile.of(unit.inputs().get(0), fsWriter))));
            }
        }
        return overwritten;
    }

    private static org.apache.flink.core.fs.Path requirePath(PendingFile file) throws IOException {
        if (file.path() == null) {
            throw new IOException(
                    "INSERT OVERWRITE of a pending file written by an older version, whose path is unknown");
        }
        return file.path();
    }
}

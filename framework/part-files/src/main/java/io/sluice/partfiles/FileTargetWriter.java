package io.sluice.partfiles;

import io.sluice.hadoopbridge.OpenUploads;
import io.sluice.spi.NonRecoverableException;
import io.sluice.spi.PathNames;
import io.sluice.spi.Payload;
import io.sluice.spi.partition.PartitionPaths;
import io.sluice.spi.sink.BucketAssigner;
import io.sluice.spi.sink.PendingCommit;
import io.sluice.spi.sink.RecordContext;
import io.sluice.spi.sink.RollingPolicy;
import io.sluice.spi.sink.TargetWriter;
import io.sluice.spi.sink.WriterLineage;

import org.apache.flink.core.fs.Path;
import org.apache.flink.core.fs.RecoverableFsDataOutputStream;
import org.apache.flink.core.fs.RecoverableWriter;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.table.data.RowData;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Writes the rows of one subtask into part files, one open file per bucket. A file closes when the
 * rolling policy says so (before a row, at a checkpoint, on a timer) and becomes a pending commit;
 * a file still open at a checkpoint is persisted and resumed after a restore.
 *
 * <p>State payloads are {@link FileWriterState}s (the uid, the part counter, the buckets and
 * their open files, the buckets written since the snapshot before); pending payloads are {@link
 * PendingFile}s.
 *
 * <p>A writer that dies (a killed TaskManager) leaves the in-progress files it opened after its
 * last checkpoint: no state refers to them and nothing would ever resume or commit them. A writer
 * restored from that checkpoint deletes them: only files whose name carries the dead writer's uid
 * (a random UUID per writer instance, so never another live writer's) with a part number at or
 * above the checkpointed counter (so opened after the checkpoint: every file rolled before it,
 * pending in the committer's state, and the open one resumed here have lower numbers). On S3 the
 * same files are open multipart uploads under their final names; the successor aborts them
 * ({@link OpenUploads}). The dead
 * writer may have opened buckets after its checkpoint that no state names, so the successor walks
 * the table's visible directories (at most {@link #LEFTOVER_SCAN_DIRECTORIES} of them), once for
 * all the writers it takes over.
 *
 * <p>A writer that dies before its first checkpoint is in no state. With a {@link WriterLineage}
 * (the framework's writers have one) its uid is made from the lineage's writer id and opening
 * ({@link FailedWriters#uid}), which the next attempt of the subtask can compute: that attempt
 * treats every part the earlier attempts of its lineage began as a leftover (counter 0 and up), and
 * of the attempt that took the checkpoint every part of the writers opened after it (a dynamic
 * sink's table writers), and removes them with the same walk. Without a lineage the uid is random
 * and such files stay, hidden from every reader.
 *
 * <p>With compaction on, part files get hidden names ({@link UnitCompaction#HIDDEN_PREFIX}) and are
 * marked for compaction: they become visible only as compaction output. Whether a file is hidden is
 * decided when it opens, so a file resumed after compaction was switched off keeps its hidden name
 * and is still published through compaction.
 */
final class FileTargetWriter implements TargetWriter {

    /**
     * How many directories a restored writer lists at most when it looks for a dead writer's
     * in-progress files: the walk is per restored subtask, and leftovers are hidden and harmless,
     * so a very large table is not walked to the end.
     */
    static final int LEFTOVER_SCAN_DIRECTORIES = 10_000;

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(FileTargetWriter.class);

    private final Path basePath;
    private final java.util.function.Function<String, Path> locations; // bucket id -> its directory
    private final TableRoot root;
    private final RecoverableWriter fsWriter;
    private final PartWriters partWriters;
    private final BucketAssigner assigner;
    private final RollingPolicy rollingPolicy;
    private final PartFileNames names;
    private final long checkInterval;
    private final boolean compaction;
    /** Rows come grouped by bucket: a bucket's file closes when the next bucket begins. */
    private final boolean groupedInput;
    /** The bucket id of the last row, for grouped input. */
    private String currentBucket;
    /** The heap the open files may hold together, as their writers estimate it ({@link PartFile#heapBytes}). */
    private final long memoryBudget;
    /** The sum of the open files' heap estimates. */
    private long heldHeap;
    /**
     * The rows of buckets without an open file, once the open files outgrew the memory budget
     * (a bulk format, rows not grouped by bucket); null until then. From then on a bucket's rows
     * since the last checkpoint are written into one file at the next checkpoint instead of
     * rolling a small file whenever the budget is hit, so a writer of thousands of partitions
     * writes one file per partition and checkpoint (two where the file-size policy rolls one), with
     * one file's buffers in its heap at a time. See ARCHITECTURE.md, "Many partitions".
     */
    private BucketRowBuffer buffer;
    /** When the last row came: files written from {@link #buffer} are made at that time. */
    private long lastRowTime;

    /** Names this writer's part files: its lineage's writer id and opening, or a random UUID without one. */
    private final String uid;
    /** Earlier writers of this subtask that may have left files no state names; null: none known. */
    @javax.annotation.Nullable
    private final WriterLineage lineage;

    private final Map<String, Bucket> buckets = new HashMap<>();
    /** One counter for all buckets of this writer: buckets come and go, names must never repeat. */
    private long partCounter;
    /** The part counter at the last snapshot (or the restore): files from it on are in no state. */
    private long counterAtSnapshot;
    /** Buckets this writer opened a file in since its last snapshot (or the restore). */
    private final java.util.Set<String> openedSinceSnapshot = new java.util.HashSet<>();
    /**
     * Names of the files rolled since the last snapshot: handed over (or about to be) for the next
     * checkpoint, so the committer may know them even though no snapshot does; kept at close.
     */
    private final java.util.Set<String> rolledSinceSnapshot = new java.util.HashSet<>();
    /** Whether the input has ended: the files handed over then wait for the committer, also after close. */
    private boolean endOfInput;

    private final List<PendingCommit> pending = new ArrayList<>();
    /** Closes rolled files for commit on other threads; a closed file joins {@link #pending}. */
    private final PartFileClosing closing;
    /** Whether the file system keeps an in-progress file's recoverable state apart, to be removed. */
    private final boolean removesRecoverableState;
    /**
     * What resumed files at the last snapshot, superseded at the next one ({@link
     * ObsoleteResumable}); handed to the committer with that next checkpoint.
     */
    private final List<RecoverableWriter.ResumeRecoverable> superseded = new ArrayList<>();
    /**
     * Buckets this writer opened a file in since its last snapshot, also those whose files rolled
     * and left the bucket map. Part of the state (version 3) for the successors of earlier versions,
     * which looked for leftovers only there; a successor now walks the whole table.
     */
    private final java.util.Set<String> recentBuckets = new java.util.HashSet<>();

    FileTargetWriter(
            Path basePath,
            java.util.function.Function<String, Path> locations,
            RecoverableWriter fsWriter,
            PartWriters partWriters,
            BucketAssigner assigner,
            RollingPolicy rollingPolicy,
            PartFileNames names,
            long checkInterval,
            boolean compaction,
            boolean groupedInput,
            long memoryBudget,
            @javax.annotation.Nullable WriterLineage lineage) {
        this.uid = lineage == null ? UUID.randomUUID().toString() : FailedWriters.uid(lineage);
        this.lineage = lineage;
        this.basePath = basePath;
        this.locations = locations;
        this.root = new TableRoot(basePath);
        this.fsWriter = fsWriter;
        this.partWriters = partWriters;
        this.assigner = assigner;
        this.rollingPolicy = rollingPolicy;
        this.names = names;
        this.checkInterval = checkInterval;
        this.compaction = compaction;
        this.groupedInput = groupedInput;
        this.memoryBudget = memoryBudget;
        this.removesRecoverableState = fsWriter.requiresCleanupOfRecoverableState();
        this.closing = new PartFileClosing(basePath.toString());
    }

    @Override
    public void write(RowData row, RecordContext context) throws IOException {
        String bucketId = assigner.bucketId(row, context);
        long now = context.currentProcessingTime();
        if (groupedInput && currentBucket != null && !currentBucket.equals(bucketId)) {
            closeGroup(currentBucket);
        }
        Bucket bucket = buckets.get(bucketId);
        if (bucket == null) {
            checkDirectoryNames(bucketId);
            bucket = new Bucket(bucketId, bucketPath(bucketId), now);
            buckets.put(bucketId, bucket);
            recentBuckets.add(bucketId);
        }
        if (bucket.open != null && rollingPolicy.shouldRollOnEvent(bucket.open, row)) {
            roll(bucket);
        }
        currentBucket = bucketId;
        lastRowTime = now;
        if (bucket.open == null && buffer != null) {
            buffer.add(bucketId, row);
        } else {
            if (bucket.open == null) {
                bucket.open = openPartFile(bucket, now);
            }
            bucket.open.write(row, now);
            heldHeap += bucket.open.updateHeapEstimate();
        }
        if (heldHeap + bufferedHeap() > memoryBudget) {
            relieveMemory();
        }
    }

    private long bufferedHeap() {
        return buffer == null ? 0 : buffer.heapBytes();
    }

    /**
     * The open files and the buffered rows hold more heap than the budget. Buffered rows that hold
     * most of it go to local disk; else the largest open files roll, and a bulk format's writer
     * holds the rows of buckets without an open file in a {@link #buffer} from then on.
     */
    private void relieveMemory() throws IOException {
        long target = memoryBudget - memoryBudget / 4;
        if (buffer != null && buffer.heapBytes() >= heldHeap) {
            buffer.spill();
        }
        if (heldHeap + bufferedHeap() > target) {
            // room for the held rows too: else the next row would be over the budget again
            rollTheLargestFiles(Math.max(0, target - bufferedHeap()));
        }
        if (buffer == null && partWriters.isBulk() && !groupedInput) {
            buffer = new BucketRowBuffer(partWriters.rowType());
            LOG.info(
                    "From now on this writer holds the rows of its buckets until the next checkpoint and then writes"
                            + " one file per bucket, within 'sink.writer.memory-budget' {} (rows over it spill to local"
                            + " disk)",
                    memoryBudget);
        }
    }

    /**
     * The open files hold more heap than the budget: the largest roll (become pending files, so
     * their buffers go) until a quarter of the budget is free again, so that a writer hovering at
     * the budget does not roll a file for every row.
     */
    private void rollTheLargestFiles(long target) throws IOException {
        List<Bucket> open = new ArrayList<>();
        for (Bucket b : buckets.values()) {
            if (b.open != null) {
                open.add(b);
            }
        }
        if (open.isEmpty()) {
            return;
        }
        open.sort((a, b) -> Long.compare(b.open.heapBytes(), a.open.heapBytes()));
        long before = heldHeap;
        int rolled = 0;
        for (Bucket b : open) {
            if (heldHeap <= target) {
                break;
            }
            roll(b);
            rolled++;
        }
        LOG.info(
                "The {} open part files of this writer held about {} bytes of heap, over 'sink.writer.memory-budget'"
                        + " {}: rolled the {} largest, {} bytes left",
                open.size(),
                before,
                memoryBudget,
                rolled,
                heldHeap);
    }

    /**
     * The rows of a group's bucket have ended: its file is finished now rather than at the end of
     * input, so the writer never holds more than one open file (and a format's buffers) at a time.
     */
    private void closeGroup(String bucketId) throws IOException {
        Bucket bucket = buckets.remove(bucketId);
        if (bucket != null && bucket.open != null) {
            roll(bucket);
        }
    }

    private PartFile openPartFile(Bucket bucket, long now) throws IOException {
        openedSinceSnapshot.add(bucket.id);
        String name = names.name(uid, partCounter++);
        Path path = new Path(bucket.path, compaction ? UnitCompaction.HIDDEN_PREFIX + name : name);
        RecoverableFsDataOutputStream stream;
        try {
            stream = fsWriter.open(path);
        } catch (IOException e) {
            String message = "Cannot open part file " + path + " under 'path' " + basePath + ": " + e.getMessage();
            IOException why = localReason(path, e);
            // a directory that may not be written to stays so on every attempt of the job
            throw refusedByTheFileSystem(why)
                    ? new NonRecoverableException(message + " (" + why + ")", e)
                    : new IOException(message, e);
        }
        PartFile file = partWriters.open(bucket.id, path, stream, now);
        file.opened();
        return file;
    }

    /**
     * Flink's local recoverable writer reports only "Failed to create the parent directory"
     * (File.mkdirs returns no reason): for a local path, creating the directory with java.nio
     * tells why. A file where the directory should be is reported as such, and a directory that
     * exists but may not be written to (no permission, or immutable: {@code chattr +i} refuses
     * even root) as an {@link java.nio.file.AccessDeniedException}. Other file systems' exceptions
     * already carry their reason.
     */
    private static IOException localReason(Path path, IOException e) {
        String scheme = path.toUri().getScheme();
        if (scheme != null && !scheme.equals("file")) {
            return e;
        }
        java.nio.file.Path dir;
        try {
            dir = java.nio.file.Paths.get(path.getParent().toUri().getPath());
        } catch (RuntimeException notALocalPath) {
            return e;
        }
        try {
            java.nio.file.Files.createDirectories(dir);
        } catch (java.nio.file.FileAlreadyExistsException notADirectory) {
            return new java.nio.file.NotDirectoryException(notADirectory.getFile());
        } catch (IOException reason) {
            return reason;
        }
        if (!java.nio.file.Files.isWritable(dir)) {
            return new java.nio.file.AccessDeniedException(dir.toString(), null, "the directory may not be written to");
        }
        return e; // a writable directory: nothing says the next attempt fails too
    }

    /**
     * Whether the file system refused the file for good: no permission (EACCES, or EPERM of an
     * immutable directory), a read-only file system, a parent that is not a directory or cannot be
     * created, a name longer than the file system allows. Transient errors (too many open files, a
     * lost connection, a timeout) are none of these and keep Flink's restarts.
     */
    static boolean refusedByTheFileSystem(Throwable e) {
        for (Throwable c = e; c != null; c = c.getCause()) {
            if (c instanceof java.nio.file.AccessDeniedException
                    || c instanceof java.nio.file.NoSuchFileException
                    || c instanceof java.nio.file.NotDirectoryException
                    || c instanceof java.nio.file.ReadOnlyFileSystemException
                    || c instanceof java.nio.file.FileSystemException && deterministicReason(c.getMessage())
                    // Hadoop's, by name: the plugin has no Hadoop
                    || c.getClass().getName().endsWith(".AccessControlException")) {
                return true;
            }
            if (c.getCause() == c) {
                break;
            }
        }
        return false;
    }

    /** The strerror texts of a local file system's answers that no retry changes. */
    private static boolean deterministicReason(String message) {
        String m = String.valueOf(message);
        return m.contains("Read-only file system")
                || m.contains("Operation not permitted")
                || m.contains("Not a directory")
                || m.contains("File name too long");
    }

    /**
     * Finishes the bucket's open file and has it closed for commit: it becomes a pending commit
     * once {@link #closing} has closed it (at the latest in the next {@link #prepareCommit}).
     */
    private void roll(Bucket bucket) throws IOException {
        PartFile file = bucket.open;
        bucket.open = null;
        heldHeap -= file.heapBytes();
        supersede(bucket);
        file.finish();
        boolean openedAfterSnapshot = file.inNoSnapshot();
        if (file.path() != null) {
            rolledSinceSnapshot.add(file.path().getName());
        }
        // no path: resumed from a version 1 state, written before compaction, so never hidden
        boolean hidden = file.path() != null && file.path().getName().startsWith(UnitCompaction.HIDDEN_PREFIX);
        String partition = bucket.id.isEmpty() ? null : bucket.id;
        long creationTime = bucket.creationTime;
        long size = file.size();
        closing.close(
                file::closeFinishedForCommit,
                recoverable -> pending.add(new PendingCommit(
                        new PendingFile(file.path(), recoverable, openedAfterSnapshot).toPayload(fsWriter),
                        partition,
                        creationTime,
                        size,
                        hidden)));
    }

    /** The bucket's open file was persisted at the last snapshot: this checkpoint supersedes that. */
    private void supersede(Bucket bucket) {
        if (bucket.persisted != null) {
            superseded.add(bucket.persisted);
            bucket.persisted = null;
        }
    }

    @Override
    public List<PendingCommit> prepareCommit(boolean endOfInput) throws IOException {
        this.endOfInput |= endOfInput;
        if (buffer != null && !buffer.isEmpty()) {
            writeBufferedRows();
        }
        Iterator<Bucket> it = buckets.values().iterator();
        while (it.hasNext()) {
            Bucket bucket = it.next();
            if (bucket.open != null && (endOfInput || rollingPolicy.shouldRollOnCheckpoint(bucket.open))) {
                roll(bucket);
            }
            // still open: persisted again at this checkpoint's snapshot, which supersedes the last one
            supersede(bucket);
            if (bucket.open == null) {
                it.remove(); // inactive: keeps memory bounded by the buckets in use
            }
        }
        // the checkpoint's files are all durable before the committer learns of them
        closing.awaitAll();
        List<PendingCommit> result = new ArrayList<>(pending.size() + superseded.size());
        result.addAll(pending);
        pending.clear();
        for (RecoverableWriter.ResumeRecoverable r : superseded) {
            // no partition: removing it makes nothing visible and commits no partition
            result.add(new PendingCommit(new ObsoleteResumable(r).toPayload(fsWriter), null, 0, 0, false));
        }
        superseded.clear();
        return result;
    }

    /**
     * Writes each bucket's buffered rows into a file of its own, one bucket after the other (a
     * bucket whose file outgrows the rolling policy's size gets more), and rolls it: the rows since
     * the last checkpoint, so they are pending commits of this one, and nothing stays open.
     */
    private void writeBufferedRows() throws IOException {
        long start = System.nanoTime();
        int runs = buffer.runs();
        int[] files = new int[1];
        buffer.drain(new BucketRowBuffer.BucketSink() {
            private Bucket bucket;

            @Override
            public void begin(String bucketId) {
                bucket = buckets.computeIfAbsent(bucketId, id -> new Bucket(id, bucketPath(id), lastRowTime));
            }

            @Override
            public void row(RowData row) throws IOException {
                if (bucket.open != null && rollingPolicy.shouldRollOnEvent(bucket.open, row)) {
                    roll(bucket);
                }
                if (bucket.open == null) {
                    bucket.open = openPartFile(bucket, lastRowTime);
                    files[0]++;
                }
                bucket.open.write(row, lastRowTime);
            }

            @Override
            public void end(String bucketId) throws IOException {
                if (bucket.open != null) {
                    roll(bucket);
                }
            }
        });
        LOG.debug(
                "Wrote {} files from held rows ({} spilled runs) in {} ms",
                files[0],
                runs,
                (System.nanoTime() - start) / 1_000_000);
    }

    @Override
    public boolean isIdle() {
        if (buffer != null && !buffer.isEmpty() || !pending.isEmpty() || closing.isBusy()) {
            return false;
        }
        for (Bucket bucket : buckets.values()) {
            if (bucket.open != null || bucket.persisted != null) {
                return false;
            }
        }
        // the part counter and the buckets' names need not survive: a new writer names its files by a new uid
        return true;
    }

    @Override
    public List<Payload> snapshotState(long checkpointId) throws IOException {
        if (buffer != null && !buffer.isEmpty()) {
            // prepareCommit, which comes before every snapshot, writes them out: rows held at a
            // snapshot would be in no file and no state
            throw new IllegalStateException("Checkpoint " + checkpointId + " of a writer that still holds rows");
        }
        List<FileWriterState.BucketState> states = new ArrayList<>(buckets.size());
        for (Bucket bucket : buckets.values()) {
            FileWriterState.OpenFile open = null;
            if (bucket.open != null) {
                RecoverableWriter.ResumeRecoverable resumable = bucket.open.persist();
                bucket.open.snapshotted();
                if (removesRecoverableState) {
                    // a snapshot without a prepareCommit before it (a failed one) supersedes the last too
                    supersede(bucket);
                    bucket.persisted = resumable;
                }
                open = new FileWriterState.OpenFile(
                        bucket.open.path(), resumable, bucket.open.creationTime(), bucket.open.lastUpdateTime());
            }
            states.add(new FileWriterState.BucketState(bucket.id, bucket.creationTime, partCounter, open));
        }
        java.util.Set<String> touched = new java.util.TreeSet<>(recentBuckets);
        touched.addAll(buckets.keySet());
        recentBuckets.clear();
        recentBuckets.addAll(buckets.keySet());
        FileWriterState state = new FileWriterState(uid, partCounter, states, new ArrayList<>(touched));
        counterAtSnapshot = partCounter;
        openedSinceSnapshot.clear();
        rolledSinceSnapshot.clear();
        return Collections.singletonList(state.toPayload(fsWriter.getResumeRecoverableSerializer()));
    }

    /**
     * Resumes the open files of the writers this subtask takes over. A file of a version 1 state
     * has no known final path (see {@link FileWriterState}), so it is finished at once instead:
     * it becomes a pending file of version 1, which the committer publishes under the name inside
     * the file system's recoverable, as it always did; its rows up to the checkpoint are kept.
     */
    void restore(List<Payload> states) throws IOException {
        SimpleVersionedSerializer<RecoverableWriter.ResumeRecoverable> serializer =
                fsWriter.getResumeRecoverableSerializer();
        FailedWriters deadWriters = new FailedWriters();
        Map<String, byte[]> resumed = new HashMap<>();
        for (Payload payload : states) {
            FileWriterState state = FileWriterState.of(payload, serializer);
            partCounter = Math.max(partCounter, state.partCounter());
            for (FileWriterState.BucketState restored : state.buckets()) {
                Bucket bucket = buckets.computeIfAbsent(
                        restored.id(), k -> new Bucket(k, bucketPath(k), restored.creationTime()));
                partCounter = Math.max(partCounter, restored.partCounter());
                FileWriterState.OpenFile open = restored.open();
                if (open != null) {
                    if (bucket.open != null) {
                        // two restored writers had a file open in the same bucket: publish one
                        roll(bucket);
                    }
                    if (open.path() != null) {
                        resumed.put(open.path().getName(), serializer.serialize(open.resumable()));
                    }
                    RecoverableFsDataOutputStream stream;
                    try {
                        stream = fsWriter.recover(open.resumable());
                    } catch (IOException e) {
                        throw cannotResume(restored.id(), open.path(), e);
                    }
                    bucket.open = partWriters.resume(
                            restored.id(), open.path(), stream, open.creationTime(), open.lastUpdateTime());
                    if (removesRecoverableState) {
                        bucket.persisted = open.resumable(); // superseded by the next checkpoint
                    }
                    if (open.path() == null) {
                        roll(bucket);
                    }
                }
            }
            if (state.uid() != null) {
                deadWriters.writer(state.uid(), state.partCounter());
            }
        }
        if (lineage != null && !lineage.reopened()) {
            // earlier attempts that died before a checkpoint: every part they began is a leftover;
            // of the attempt that took the checkpoint, every part of the writers it opened after it.
            // A writer of a lineage opened before in this attempt leaves them: the first one walked
            // the table for them, and a table writer that is reopened whenever it was idle would
            // walk the table each time
            for (String predecessor : lineage.predecessorIds()) {
                deadWriters.openings(predecessor, 0);
            }
            lineage.laterOpenings().forEach(deadWriters::openings);
        }
        counterAtSnapshot = partCounter;
        if (!deadWriters.isEmpty()) {
            // this writer's own id too: a writer of an earlier JobManager session may have had it
            // (attempt numbers begin at 0 again), and this one has not written anything yet; not
            // when a writer of its lineage opened before in this attempt, whose files wait for a commit
            if (lineage != null && !lineage.reopened()) {
                deadWriters.openings(lineage.writerId(), 0);
            }
            deadWriters.writerIfAbsent(uid, 0L);
            java.util.Set<String> published = new java.util.HashSet<>();
            removeLeftovers(deadWriters, resumed, published);
            abortLeftoverUploads(deadWriters, published);
        }
    }

    /**
     * Why an open file of the restored state cannot be resumed. A file sink never overwrites what
     * it published, and a file that is already published was committed by a later checkpoint than
     * the one restored (the job restores from an older checkpoint or savepoint than its last): that
     * recurs on every attempt, so the job ends, naming the file and what to restore from instead.
     * Any other failure (a store that did not answer) stays one a restart may cure.
     */
    private static IOException cannotResume(String bucketId, Path path, IOException e) {
        if (path != null && published(path)) {
            return new NonRecoverableException(
                    "Cannot resume part file " + path + " of bucket '" + abbreviate(bucketId)
                            + "': a later checkpoint than the one this job restores from already published it. A file"
                            + " sink never overwrites committed files; restore from the latest checkpoint or a savepoint"
                            + " taken after it",
                    e);
        }
        return new IOException(
                "Cannot resume part file " + (path == null ? "" : path + " ") + "of bucket '" + abbreviate(bucketId)
                        + "': " + e.getMessage(),
                e);
    }

    private static boolean published(Path path) {
        try {
            return FileSystems.of(path).exists(path);
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Aborts the multipart uploads that the dead writers began after their checkpoint (on S3 a part
     * file stages in an upload under its final name, not in an in-progress file): the same rule as
     * {@link #removeLeftovers}, the dead writer's uid with a part number at or above its checkpointed
     * counter; and uploads under the key of a part file that is already published ({@code
     * published}, the visible files the walk found). Best effort, as there: an upload left open is
     * invisible to readers.
     */
    private void abortLeftoverUploads(FailedWriters deadWriters, java.util.Set<String> published) {
        try {
            int aborted = OpenUploads.abortUnder(
                    FileSystems.of(basePath),
                    basePath,
                    name -> names.isUploadedPart(name, deadWriters)
                            // a part file already published has no upload of its own left: a second
                            // upload under its key is one whose initiation the client retried
                            // after a lost answer, which the committer had no chance to abort
                            || (published.contains(name) && names.isPartName(name)));
            if (aborted > 0) {
                LOG.info(
                        "Aborted {} multipart upload(s) that writers {} began after their last checkpoint",
                        aborted,
                        deadWriters);
            }
        } catch (Exception | LinkageError e) {
            LOG.warn("Cannot abort the multipart uploads failed writers left under {}: {}", basePath, e.toString());
        }
    }

    /**
     * Deletes the in-progress files that the dead writers (uid to checkpointed part counter) opened
     * after their checkpoint, anywhere in the table's visible directories (collecting the names of
     * the visible files there in {@code published}), and on S3 the objects
     * holding such a file's unfinished last part ({@code _<name>_tmp_<uuid>}, FLINK-10963). Best effort: a file left
     * behind is hidden and harmless, so a failure to list or delete is logged and the restore goes
     * on.
     */
    private void removeLeftovers(
            FailedWriters deadWriters, Map<String, byte[]> resumed, java.util.Set<String> published) {
        FailedWriters anyPart = deadWriters.anyPart();
        int removed = 0;
        int listed = 0;
        java.util.ArrayDeque<Path> toList = new java.util.ArrayDeque<>();
        toList.add(basePath);
        while (!toList.isEmpty()) {
            if (listed == LEFTOVER_SCAN_DIRECTORIES) {
                LOG.warn(
                        "Stopped looking for in-progress files of failed writers {} after {} directories of {}",
                        deadWriters,
                        listed,
                        basePath);
                break;
            }
            Path dir = toList.poll();
            listed++;
            try {
                org.apache.flink.core.fs.FileSystem fs = FileSystems.of(dir);
                org.apache.flink.core.fs.FileStatus[] entries = fs.exists(dir) ? fs.listStatus(dir) : null;
                if (entries == null) {
                    continue;
                }
                for (org.apache.flink.core.fs.FileStatus f : entries) {
                    String name = f.getPath().getName();
                    if (f.isDir()) {
                        if (VisibleFiles.isVisibleName(name)) {
                            toList.add(f.getPath());
                        }
                    } else if ((isLeftover(name, deadWriters) || isUnreferencedLastPart(name, anyPart, resumed))
                            && fs.delete(f.getPath(), false)) {
                        removed++;
                    } else if (VisibleFiles.isVisibleName(name)) {
                        published.add(name);
                    }
                }
            } catch (IOException | RuntimeException e) {
                LOG.warn("Cannot remove in-progress files failed writers left in {}: {}", dir, e.toString());
            }
        }
        if (removed > 0) {
            LOG.info(
                    "Removed {} in-progress file(s) that writers {} opened after their last checkpoint",
                    removed,
                    deadWriters);
        }
    }

    private boolean isLeftover(String fileName, FailedWriters deadWriters) {
        return names.isInProgressPart(fileName, deadWriters) || names.isStagedPart(fileName, deadWriters);
    }

    /**
     * Whether {@code fileName} is the persisted last part ({@code _<name>_tmp_<uuid>}, S3) of a dead
     * writer's file that began before its checkpoint, and no restored state needs it: the file was
     * not resumed (it was closed before the checkpoint, so what resumes or commits it has no last
     * part object), or it was resumed from a recoverable that names another object. Such objects
     * are what a persist at a checkpoint that never completed wrote (FLINK-10963); the file system
     * removes superseded ones only after a checkpoint completes. The recoverable's bytes are
     * searched for the object's name; if they hold no last-part name at all the object is kept, as
     * a file system whose format does not spell names out cannot be judged.
     */
    private boolean isUnreferencedLastPart(String fileName, FailedWriters deadWriters, Map<String, byte[]> resumed) {
        if (!names.isStagedPart(fileName, deadWriters)) {
            return false;
        }
        byte[] recoverable = resumed.get(finalNameOf(fileName));
        if (recoverable == null) {
            return true;
        }
        return contains(recoverable, LAST_PART_MARKER)
                && !contains(recoverable, fileName.getBytes(StandardCharsets.UTF_8));
    }

    /** What the name of every persisted last part holds ({@code _<name>_tmp_<uuid>}). */
    private static final byte[] LAST_PART_MARKER = "_tmp_".getBytes(StandardCharsets.UTF_8);

    private static boolean contains(byte[] bytes, byte[] part) {
        outer:
        for (int i = 0; i + part.length <= bytes.length; i++) {
            for (int j = 0; j < part.length; j++) {
                if (bytes[i + j] != part[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    @Override
    public long processingTimeInterval() {
        return checkInterval;
    }

    @Override
    public void onProcessingTime(long currentTime) throws IOException {
        for (Bucket bucket : buckets.values()) {
            if (bucket.open != null && rollingPolicy.shouldRollOnProcessingTime(bucket.open, currentTime)) {
                roll(bucket);
            }
        }
    }

    /**
     * Abandons the open files. Before the end of input (the task fails or is cancelled) the files
     * this writer began after its last snapshot and did not roll are in no state and with no
     * committer, so nothing will ever resume or commit them: they are removed now rather than left
     * to the next attempt, which a job that failed for good never has. Files from before the
     * snapshot stay for a restore from it (the open one resumes; rolled ones wait in the committer's
     * state), files rolled since stay for the committer they were handed to, and everything stays
     * after the end of input, which the committer publishes.
     */
    @Override
    public void close() {
        closing.abandon();
        if (buffer != null) {
            try {
                buffer.close();
            } catch (IOException e) {
                LOG.warn("Cannot delete the local files of held rows: {}", e.toString());
            }
        }
        for (Bucket bucket : buckets.values()) {
            if (bucket.open != null) {
                bucket.open.dispose();
            }
        }
        buckets.clear();
        if (!endOfInput && !openedSinceSnapshot.isEmpty()) {
            FailedWriters self = new FailedWriters().writer(uid, counterAtSnapshot);
            int removed = 0;
            for (String bucketId : openedSinceSnapshot) {
                removed += removeInProgress(bucketPath(bucketId), self);
            }
            try {
                removed += Math.max(
                        0,
                        OpenUploads.abortUnder(
                                FileSystems.of(basePath),
                                basePath,
                                name -> names.isUploadedPart(name, self) && !rolledSinceSnapshot.contains(name)));
            } catch (Exception | LinkageError e) {
                LOG.warn(
                        "Cannot abort the multipart uploads of abandoned part files under {}: {}",
                        basePath,
                        e.toString());
            }
            if (removed > 0) {
                LOG.info("Removed {} part file(s) begun after the last checkpoint, which nothing will commit", removed);
            }
            openedSinceSnapshot.clear();
        }
    }

    /** The part file's final name in an in-progress ({@code .<name>.inprogress.<uuid>}) or persisted-part ({@code _<name>_tmp_<uuid>}) name. */
    static String finalNameOf(String stagedName) {
        int inProgress = stagedName.lastIndexOf(".inprogress.");
        int tmp = stagedName.lastIndexOf("_tmp_");
        return inProgress > 0
                ? stagedName.substring(1, inProgress)
                : tmp > 0 ? stagedName.substring(1, tmp) : stagedName;
    }

    /** Deletes the in-progress files (and S3's persisted last parts) in {@code dir} of {@code writers} but those rolled since the snapshot; best effort. */
    private int removeInProgress(Path dir, FailedWriters writers) {
        return removeStaged(dir, name -> isLeftover(name, writers) && !rolledSinceSnapshot.contains(finalNameOf(name)));
    }

    /**
     * Deletes the files in {@code dir} whose names {@code staged} accepts (in-progress files, S3's
     * persisted last parts; never a directory); best effort, logged. Also the committer's, for
     * what a job that fails for good discards.
     */
    static int removeStaged(Path dir, java.util.function.Predicate<String> staged) {
        int removed = 0;
        try {
            org.apache.flink.core.fs.FileSystem fs = FileSystems.of(dir);
            org.apache.flink.core.fs.FileStatus[] entries = fs.exists(dir) ? fs.listStatus(dir) : null;
            for (org.apache.flink.core.fs.FileStatus f :
                    entries == null ? new org.apache.flink.core.fs.FileStatus[0] : entries) {
                if (!f.isDir() && staged.test(f.getPath().getName()) && fs.delete(f.getPath(), false)) {
                    removed++;
                }
            }
        } catch (IOException | RuntimeException e) {
            LOG.warn("Cannot remove in-progress files in {}: {}", dir, e.toString());
        }
        return removed;
    }

    /**
     * Each directory of a new bucket must be a name the file system can create: a partition value
     * longer than a file name can be failed with Flink's "Failed to create the parent directory"
     * (and restarted forever in STREAMING). Checked with {@link PathNames#nameProblem}, as every
     * other user string that becomes a path segment, before any file of the bucket is opened; the
     * same value fails every attempt alike.
     */
    static void checkDirectoryNames(String bucketId) throws NonRecoverableException {
        if (bucketId.isEmpty()) {
            return;
        }
        for (String segment : bucketId.split("/")) {
            if (PathNames.utf8Length(segment) <= PathNames.MAX_NAME_BYTES) {
                continue;
            }
            String problem = PathNames.nameProblem(segment);
            int eq = segment.indexOf('=');
            if (eq > 0) {
                String column = PartitionPaths.unescape(segment.substring(0, eq));
                String value = PartitionPaths.unescape(segment.substring(eq + 1));
                throw new NonRecoverableException("Partition column '" + column + "' has a value too long for a file"
                        + " name: its directory '" + abbreviate(segment) + "' " + problem + " (the value '"
                        + abbreviate(PathNames.escape(value)) + "' is " + PathNames.utf8Length(value)
                        + " bytes); nothing of it was written");
            }
            throw new NonRecoverableException("Bucket '" + abbreviate(bucketId) + "' cannot be written: its directory '"
                    + abbreviate(segment) + "' " + problem + "; nothing of it was written");
        }
    }

    /** The start of a long name, enough to recognise it in a message. */
    private static String abbreviate(String name) {
        return name.length() <= 64 ? name : name.substring(0, 60) + "...";
    }

    /** The bucket's directory, which must be below the table's root (the committer checks it again). */
    private Path bucketPath(String bucketId) {
        Path path = locations.apply(bucketId);
        if (!root.isBelow(path)) {
            throw new IllegalArgumentException("The directory " + path + " of bucket '" + bucketId
                    + "' is not under the table's 'path' " + basePath);
        }
        return path;
    }

    /** The state of one bucket of this writer. */
    private static final class Bucket {
        final String id;
        final Path path;
        final long creationTime;
        PartFile open;
        /** What resumes {@link #open} from the last snapshot, if the file system keeps it apart. */
        RecoverableWriter.ResumeRecoverable persisted;

        Bucket(String id, Path path, long creationTime) {
            this.id = id;
            this.path = path;
            this.creationTime = creationTime;
        }
    }
}

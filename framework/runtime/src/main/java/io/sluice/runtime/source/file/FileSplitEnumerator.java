package io.sluice.runtime.source.file;

import io.sluice.runtime.config.FileSourceOptions;
import io.sluice.runtime.source.SplitAssignment;

import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.connector.file.src.FileSourceSplit;
import org.apache.flink.connector.file.src.enumerate.FileEnumerator;
import org.apache.flink.core.fs.Path;
import org.apache.flink.util.FlinkRuntimeException;

import javax.annotation.Nullable;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Hands out file splits to readers on request. A bounded read gets all its splits when created; a
 * continuous one lists the paths every monitor interval (in Flink's worker thread) and keeps the
 * splits of files it has not seen (in the coordinator thread, which also takes the checkpoints).
 */
final class FileSplitEnumerator implements SplitEnumerator<FileSourceSplit, EnumeratorState> {

    private final SplitEnumeratorContext<FileSourceSplit> context;
    private final FileEnumerator fileEnumerator;
    private final Path[] paths;
    private final long monitorIntervalMillis; // <= 0: bounded

    @Nullable
    private final SeenFiles seen;

    private final SplitAssignment<FileSourceSplit> assignment;

    FileSplitEnumerator(
            SplitEnumeratorContext<FileSourceSplit> context,
            FileEnumerator fileEnumerator,
            Path[] paths,
            long monitorIntervalMillis,
            @Nullable SeenFiles seen,
            Collection<FileSourceSplit> pending) {
        this.context = context;
        this.fileEnumerator = fileEnumerator;
        this.paths = paths;
        this.monitorIntervalMillis = monitorIntervalMillis;
        this.seen = seen;
        this.assignment = new SplitAssignment<>(context, monitorIntervalMillis <= 0, pending);
    }

    /**
     * The enumerator of a continuous read, new ({@code restored} null) or restored from its
     * checkpointed state; the one place that reads the monitor options, shared by {@link
     * SluiceFileSource} and {@link EnumeratorHarness} so a test harness cannot drift from a job.
     */
    static FileSplitEnumerator continuous(
            SplitEnumeratorContext<FileSourceSplit> context,
            FileEnumerator fileEnumerator,
            Path[] paths,
            ReadableConfig options,
            @Nullable EnumeratorState restored) {
        long interval =
                Math.max(1, options.get(FileSourceOptions.MONITOR_INTERVAL).toMillis());
        if (restored == null) {
            return new FileSplitEnumerator(
                    context,
                    fileEnumerator,
                    paths,
                    interval,
                    new SeenFiles(
                            options.get(FileSourceOptions.MONITOR_LOOKBACK).toMillis()),
                    new ArrayList<>());
        }
        return new FileSplitEnumerator(
                context, fileEnumerator, paths, interval, restored.seen(), restored.pendingSplits());
    }

    @Override
    public void start() {
        if (monitorIntervalMillis > 0) {
            context.callAsync(this::list, this::addNewSplits, 0, monitorIntervalMillis);
        }
    }

    private Collection<FileSourceSplit> list() throws Exception {
        return fileEnumerator.enumerateSplits(paths, context.currentParallelism());
    }

    private void addNewSplits(Collection<FileSourceSplit> listed, Throwable error) {
        if (error != null) {
            throw new FlinkRuntimeException(
                    "Cannot list files under " + Arrays.toString(paths) + ": " + error.getMessage(), error);
        }
        // all splits of a file are new or none: decide per path, then keep its splits
        Map<String, Boolean> isNew = new HashMap<>();
        List<FileSourceSplit> fresh = new ArrayList<>();
        for (FileSourceSplit split : listed) {
            String path = split.path().toString();
            Boolean isNewFile = isNew.get(path);
            if (isNewFile == null) {
                isNewFile = seen.markIfNew(path, split.fileModificationTime());
                isNew.put(path, isNewFile);
            }
            if (isNewFile) {
                fresh.add(withStableId(split));
            }
        }
        seen.advance();
        assignment.add(fresh);
    }

    /**
     * The split with an id made from what it reads: file, offset and modification time. An
     * enumerator numbers its splits from zero, so after a restore its ids would repeat those still
     * held in the restored readers' state, which keys splits by id.
     */
    static FileSourceSplit withStableId(FileSourceSplit split) {
        String id = split.path() + "@" + split.offset() + "+" + split.length() + "#" + split.fileModificationTime();
        return new FileSourceSplit(
                id,
                split.path(),
                split.offset(),
                split.length(),
                split.fileModificationTime(),
                split.fileSize(),
                split.hostnames());
    }

    @Override
    public void handleSplitRequest(int subtaskId, @Nullable String requesterHostname) {
        assignment.request(subtaskId);
    }

    @Override
    public void addSplitsBack(List<FileSourceSplit> splits, int subtaskId) {
        assignment.add(splits);
    }

    @Override
    public void addReader(int subtaskId) {
        // readers ask for splits themselves
    }

    @Override
    public EnumeratorState snapshotState(long checkpointId) {
        SeenFiles copy = seen == null
                ? null
                : new SeenFiles(seen.lookbackMillis(), seen.watermark(), new HashMap<>(seen.recent()));
        return new EnumeratorState(assignment.pending(), copy);
    }

    @Override
    public void close() {}

    /** The paths of the files a continuous read has remembered (for tests of the state bound). */
    Set<String> rememberedPaths() {
        return seen == null ? new HashSet<>() : new HashSet<>(seen.recent().keySet());
    }
}

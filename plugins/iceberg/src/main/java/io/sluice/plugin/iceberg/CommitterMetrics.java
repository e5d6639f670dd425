package io.sluice.plugin.iceberg;

import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.util.ScanTaskUtil;

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The committer's metrics, with the names, group and tag of Iceberg's Flink sink: group {@code
 * IcebergFilesCommitter} with tag {@code table} (the table's full name).
 *
 * <p>{@code lastCheckpointDurationMs}: upstream's committer spends its checkpoint writing the
 * checkpoint's files into a manifest for its state. Here the writers write those manifests and the
 * framework keeps them in its state, so the committer's share of a checkpoint is reading them back
 * when the checkpoint's request arrives; that is what this gauge measures.
 */
final class CommitterMetrics {

    private final Counter dataFilesCount;
    private final Counter dataFilesRecordCount;
    private final Counter dataFilesByteCount;
    private final Counter deleteFilesCount;
    private final Counter deleteFilesRecordCount;
    private final Counter deleteFilesByteCount;
    private volatile long lastCheckpointDurationMs;
    private volatile long lastCommitDurationMs;
    /** Since the last successful commit, or since the committer started. */
    private volatile long lastSuccessNanos = System.nanoTime();

    CommitterMetrics(MetricGroup committerGroup, String tableName) {
        MetricGroup group = committerGroup.addGroup("IcebergFilesCommitter").addGroup("table", tableName);
        group.gauge("lastCheckpointDurationMs", () -> lastCheckpointDurationMs);
        group.gauge("lastCommitDurationMs", () -> lastCommitDurationMs);
        group.gauge(
                "elapsedSecondsSinceLastSuccessfulCommit",
                () -> TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - lastSuccessNanos));
        dataFilesCount = group.counter("committedDataFilesCount");
        dataFilesRecordCount = group.counter("committedDataFilesRecordCount");
        dataFilesByteCount = group.counter("committedDataFilesByteCount");
        deleteFilesCount = group.counter("committedDeleteFilesCount");
        deleteFilesRecordCount = group.counter("committedDeleteFilesRecordCount");
        deleteFilesByteCount = group.counter("committedDeleteFilesByteCount");
    }

    /** How long reading a checkpoint's pending files took. */
    void checkpointRead(long durationMs) {
        lastCheckpointDurationMs = durationMs;
    }

    /** Counts a successful commit of {@code data} and {@code deletes}, which took {@code durationMs}. */
    void committed(List<DataFile> data, List<DeleteFile> deletes, long durationMs) {
        lastCommitDurationMs = durationMs;
        lastSuccessNanos = System.nanoTime();
        dataFilesCount.inc(data.size());
        for (DataFile f : data) {
            dataFilesRecordCount.inc(f.recordCount());
            dataFilesByteCount.inc(f.fileSizeInBytes());
        }
        deleteFilesCount.inc(deletes.size());
        for (DeleteFile f : deletes) {
            deleteFilesRecordCount.inc(f.recordCount());
            deleteFilesByteCount.inc(ScanTaskUtil.contentSizeInBytes(f));
        }
    }
}

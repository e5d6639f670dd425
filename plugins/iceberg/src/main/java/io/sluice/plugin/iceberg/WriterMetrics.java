package io.sluice.plugin.iceberg;

import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Histogram;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.metrics.DescriptiveStatisticsHistogram;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.io.WriteResult;
import org.apache.iceberg.util.ScanTaskUtil;

/**
 * The metrics of one writer subtask, with the names, group and tags of Iceberg's Flink sink: group
 * {@code IcebergStreamWriter} with tag {@code table} (the table's full name), under the writer
 * operator's group, which carries {@code subtask_index}. The size histograms use Flink's own
 * {@link DescriptiveStatisticsHistogram}, so unlike upstream they need no dropwizard jar.
 */
final class WriterMetrics {

    /** Sizes kept per histogram: about 8 KB, enough for stable percentiles. */
    private static final int HISTOGRAM_WINDOW = 1024;

    private final Counter flushedDataFiles;
    private final Counter flushedDeleteFiles;
    private final Counter flushedReferencedDataFiles;
    private final Histogram dataFilesSize;
    private final Histogram deleteFilesSize;
    private volatile long lastFlushDurationMs;

    WriterMetrics(MetricGroup operatorGroup, String tableName) {
        MetricGroup group = operatorGroup.addGroup("IcebergStreamWriter").addGroup("table", tableName);
        flushedDataFiles = group.counter("flushedDataFiles");
        flushedDeleteFiles = group.counter("flushedDeleteFiles");
        flushedReferencedDataFiles = group.counter("flushedReferencedDataFiles");
        group.gauge("lastFlushDurationMs", () -> lastFlushDurationMs);
        dataFilesSize = group.histogram("dataFilesSizeHistogram", new DescriptiveStatisticsHistogram(HISTOGRAM_WINDOW));
        deleteFilesSize =
                group.histogram("deleteFilesSizeHistogram", new DescriptiveStatisticsHistogram(HISTOGRAM_WINDOW));
    }

    /** Counts the files of one flush (one checkpoint of this subtask) and how long it took. */
    void flushed(WriteResult result, long durationMs) {
        lastFlushDurationMs = durationMs;
        flushedDataFiles.inc(result.dataFiles().length);
        flushedDeleteFiles.inc(result.deleteFiles().length);
        flushedReferencedDataFiles.inc(result.referencedDataFiles().length);
        for (DataFile f : result.dataFiles()) {
            dataFilesSize.update(f.fileSizeInBytes());
        }
        for (DeleteFile f : result.deleteFiles()) {
            // a deletion vector's size is its blob's, not that of the Puffin file it shares
            deleteFilesSize.update(ScanTaskUtil.contentSizeInBytes(f));
        }
    }
}

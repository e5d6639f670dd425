package io.sluice.runtime.source.scan;

import io.sluice.spi.source.ScanSplitReader;

import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.core.io.InputStatus;
import org.apache.flink.table.data.RowData;

import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The reader of a scan source subtask: Flink's file source reader over {@link ScanReadingFormat},
 * which also closes the plugin's split reader when the subtask ends (a file reader has nothing of
 * its own to close, so Flink's reader does not close its format).
 */
final class ScanSourceReader implements SourceReader<RowData, ScanSourceSplit> {

    private final SourceReader<RowData, ScanSourceSplit> reader;
    private final ScanSplitReader splitReader;

    ScanSourceReader(SourceReader<RowData, ScanSourceSplit> reader, ScanSplitReader splitReader) {
        this.reader = reader;
        this.splitReader = splitReader;
    }

    @Override
    public void start() {
        reader.start();
    }

    @Override
    public InputStatus pollNext(ReaderOutput<RowData> output) throws Exception {
        return reader.pollNext(output);
    }

    @Override
    public List<ScanSourceSplit> snapshotState(long checkpointId) {
        return reader.snapshotState(checkpointId);
    }

    @Override
    public CompletableFuture<Void> isAvailable() {
        return reader.isAvailable();
    }

    @Override
    public void addSplits(List<ScanSourceSplit> splits) {
        reader.addSplits(splits);
    }

    @Override
    public void notifyNoMoreSplits() {
        reader.notifyNoMoreSplits();
    }

    @Override
    public void handleSourceEvents(SourceEvent sourceEvent) {
        reader.handleSourceEvents(sourceEvent);
    }

    @Override
    public void pauseOrResumeSplits(Collection<String> splitsToPause, Collection<String> splitsToResume) {
        reader.pauseOrResumeSplits(splitsToPause, splitsToResume);
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) throws Exception {
        reader.notifyCheckpointComplete(checkpointId);
    }

    @Override
    public void notifyCheckpointAborted(long checkpointId) throws Exception {
        reader.notifyCheckpointAborted(checkpointId);
    }

    @Override
    public void close() throws Exception {
        try {
            reader.close();
        } finally {
            splitReader.close();
        }
    }
}

package io.sluice.runtime.source;

import io.sluice.runtime.plugin.PluginLifecycle;

import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceSplit;
import org.apache.flink.core.io.InputStatus;

import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** A reader of either source, attached to the {@link PluginLifecycle} until it closes. */
public final class AttachedSourceReader<T, S extends SourceSplit> implements SourceReader<T, S> {

    private final SourceReader<T, S> delegate;
    private final PluginLifecycle.Attachment attachment;

    public AttachedSourceReader(SourceReader<T, S> delegate, PluginLifecycle.Attachment attachment) {
        this.delegate = delegate;
        this.attachment = attachment;
    }

    @Override
    public void start() {
        delegate.start();
    }

    @Override
    public InputStatus pollNext(ReaderOutput<T> output) throws Exception {
        return delegate.pollNext(output);
    }

    @Override
    public List<S> snapshotState(long checkpointId) {
        return delegate.snapshotState(checkpointId);
    }

    @Override
    public CompletableFuture<Void> isAvailable() {
        return delegate.isAvailable();
    }

    @Override
    public void addSplits(List<S> splits) {
        delegate.addSplits(splits);
    }

    @Override
    public void notifyNoMoreSplits() {
        delegate.notifyNoMoreSplits();
    }

    @Override
    public void handleSourceEvents(SourceEvent sourceEvent) {
        delegate.handleSourceEvents(sourceEvent);
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) throws Exception {
        delegate.notifyCheckpointComplete(checkpointId);
    }

    @Override
    public void notifyCheckpointAborted(long checkpointId) throws Exception {
        delegate.notifyCheckpointAborted(checkpointId);
    }

    @Override
    public void pauseOrResumeSplits(Collection<String> splitsToPause, Collection<String> splitsToResume) {
        delegate.pauseOrResumeSplits(splitsToPause, splitsToResume);
    }

    @Override
    public void close() throws Exception {
        try {
            delegate.close();
        } finally {
            attachment.close();
        }
    }
}

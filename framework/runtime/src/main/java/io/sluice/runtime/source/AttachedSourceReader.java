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

/**
 * A reader of either source, attached to the {@link PluginLifecycle} until it closes; closing it
 * also closes what the reader's format opened and Flink's reader does not close (a scan source's
 * plugin split reader), before the attachment is released.
 */
public final class AttachedSourceReader<T, S extends SourceSplit> implements SourceReader<T, S> {

    private final SourceReader<T, S> delegate;
    private final AutoCloseable formatResources;
    private final PluginLifecycle.Attachment attachment;

    public AttachedSourceReader(SourceReader<T, S> delegate, PluginLifecycle.Attachment attachment) {
        this(delegate, () -> {}, attachment);
    }

    public AttachedSourceReader(
            SourceReader<T, S> delegate, AutoCloseable formatResources, PluginLifecycle.Attachment attachment) {
        this.delegate = delegate;
        this.formatResources = formatResources;
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
        try (PluginLifecycle.Attachment a = attachment;
                AutoCloseable r = formatResources) {
            delegate.close();
        }
    }
}

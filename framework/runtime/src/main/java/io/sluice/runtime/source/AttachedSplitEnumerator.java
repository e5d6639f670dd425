package io.sluice.runtime.source;

import io.sluice.runtime.plugin.PluginLifecycle;

import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SourceSplit;
import org.apache.flink.api.connector.source.SplitEnumerator;

import java.io.IOException;
import java.util.List;

/** An enumerator of either source, attached to the {@link PluginLifecycle} until it closes. */
public final class AttachedSplitEnumerator<S extends SourceSplit, C> implements SplitEnumerator<S, C> {

    private final SplitEnumerator<S, C> delegate;
    private final PluginLifecycle.Attachment attachment;

    public AttachedSplitEnumerator(SplitEnumerator<S, C> delegate, PluginLifecycle.Attachment attachment) {
        this.delegate = delegate;
        this.attachment = attachment;
    }

    @Override
    public void start() {
        delegate.start();
    }

    @Override
    public void handleSplitRequest(int subtaskId, String requesterHostname) {
        delegate.handleSplitRequest(subtaskId, requesterHostname);
    }

    @Override
    public void addSplitsBack(List<S> splits, int subtaskId) {
        delegate.addSplitsBack(splits, subtaskId);
    }

    @Override
    public void addReader(int subtaskId) {
        delegate.addReader(subtaskId);
    }

    @Override
    public C snapshotState(long checkpointId) throws Exception {
        return delegate.snapshotState(checkpointId);
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
    public void handleSourceEvent(int subtaskId, SourceEvent sourceEvent) {
        delegate.handleSourceEvent(subtaskId, sourceEvent);
    }

    @Override
    public void close() throws IOException {
        try {
            delegate.close();
        } finally {
            attachment.close();
        }
    }
}

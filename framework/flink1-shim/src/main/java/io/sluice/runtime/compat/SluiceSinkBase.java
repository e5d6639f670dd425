package io.sluice.runtime.compat;

import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;

/**
 * The base of Sluice's Sink V2 sinks on Flink 1.x, where {@code createWriter(InitContext)} is
 * still abstract in {@link Sink}. Flink calls {@code createWriter(WriterInitContext)}, which the
 * sink implements; Flink 2 removed the old method and its type, so the shim of that line has
 * nothing here.
 */
public abstract class SluiceSinkBase<IN> implements Sink<IN> {

    private static final long serialVersionUID = 1L;

    @Override
    @Deprecated
    public final SinkWriter<IN> createWriter(Sink.InitContext context) {
        throw new UnsupportedOperationException("Flink calls createWriter(WriterInitContext)");
    }
}

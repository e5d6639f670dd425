package io.sluice.runtime.compat;

import org.apache.flink.api.connector.sink2.Sink;

/**
 * The base of Sluice's Sink V2 sinks on Flink 2.x: nothing to add, {@code
 * createWriter(WriterInitContext)} is the only writer factory method left in {@link Sink}. The
 * shim of Flink 1.x implements the older one.
 */
public abstract class SluiceSinkBase<IN> implements Sink<IN> {

    private static final long serialVersionUID = 1L;
}

package io.sluice.runtime.compat;

import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.StreamOperatorParameters;

/**
 * An operator an operator factory of Sluice's creates: its constructor takes the factory's
 * parameters. On Flink 1.x it sets itself up from them through {@code setup}, which Flink 2 made
 * protected in favour of a constructor that takes them.
 */
public abstract class StreamOperatorBase<OUT> extends AbstractStreamOperator<OUT> {

    private static final long serialVersionUID = 1L;

    /** One that Flink sets up itself (through a simple operator factory or a test harness). */
    protected StreamOperatorBase() {}

    /** One that a factory of Sluice's creates, set up with the factory's parameters. */
    protected StreamOperatorBase(StreamOperatorParameters<OUT> parameters) {
        setup(parameters.getContainingTask(), parameters.getStreamConfig(), parameters.getOutput());
    }
}

package io.sluice.runtime.compat;

import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.StreamOperatorParameters;

/**
 * An operator an operator factory of Sluice's creates: its constructor takes the factory's
 * parameters, which Flink 2's {@link AbstractStreamOperator} sets itself up from ({@code setup}
 * is protected there; the shim of Flink 1.x calls it).
 */
public abstract class StreamOperatorBase<OUT> extends AbstractStreamOperator<OUT> {

    private static final long serialVersionUID = 1L;

    /** One that Flink sets up itself (through a simple operator factory or a test harness). */
    protected StreamOperatorBase() {}

    /** One that a factory of Sluice's creates, set up with the factory's parameters. */
    protected StreamOperatorBase(StreamOperatorParameters<OUT> parameters) {
        super(parameters);
    }
}

package io.sluice.runtime.sink.distribution.range;

import io.sluice.runtime.sink.SinkDescriptor;
import io.sluice.runtime.sink.distribution.StatisticsType;

import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.runtime.jobgraph.OperatorID;
import org.apache.flink.runtime.operators.coordination.OperatorCoordinator;
import org.apache.flink.runtime.operators.coordination.OperatorEventGateway;
import org.apache.flink.streaming.api.operators.AbstractStreamOperatorFactory;
import org.apache.flink.streaming.api.operators.CoordinatedOperatorFactory;
import org.apache.flink.streaming.api.operators.OneInputStreamOperatorFactory;
import org.apache.flink.streaming.api.operators.StreamOperator;
import org.apache.flink.streaming.api.operators.StreamOperatorParameters;
import org.apache.flink.table.data.RowData;

/**
 * Creates the {@link RangeShuffleOperator}s and their {@link RangeStatisticsCoordinator}, and
 * connects the two through Flink's operator event gateway.
 */
final class RangeShuffleOperatorFactory extends AbstractStreamOperatorFactory<Tuple2<Integer, RowData>>
        implements CoordinatedOperatorFactory<Tuple2<Integer, RowData>>,
                OneInputStreamOperatorFactory<RowData, Tuple2<Integer, RowData>> {

    private static final long serialVersionUID = 1L;

    private final SinkDescriptor descriptor;
    private final StatisticsType type;
    private final double baseWeight;
    private final RangeShuffleHooks hooks;

    RangeShuffleOperatorFactory(
            SinkDescriptor descriptor, StatisticsType type, double baseWeight, RangeShuffleHooks hooks) {
        this.descriptor = descriptor;
        this.type = type;
        this.baseWeight = baseWeight;
        this.hooks = hooks;
    }

    @Override
    public OperatorCoordinator.Provider getCoordinatorProvider(String operatorName, OperatorID operatorId) {
        return new RangeStatisticsCoordinator.Provider(operatorId, operatorName, type, hooks);
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T extends StreamOperator<Tuple2<Integer, RowData>>> T createStreamOperator(
            StreamOperatorParameters<Tuple2<Integer, RowData>> parameters) {
        OperatorID operatorId = parameters.getStreamConfig().getOperatorID();
        OperatorEventGateway gateway = parameters.getOperatorEventDispatcher().getOperatorEventGateway(operatorId);
        RangeShuffleOperator operator =
                new RangeShuffleOperator(parameters, descriptor, type, baseWeight, gateway, hooks);
        parameters.getOperatorEventDispatcher().registerEventHandler(operatorId, operator);
        return (T) operator;
    }

    @Override
    @SuppressWarnings("rawtypes")
    public Class<? extends StreamOperator> getStreamOperatorClass(ClassLoader classLoader) {
        return RangeShuffleOperator.class;
    }
}

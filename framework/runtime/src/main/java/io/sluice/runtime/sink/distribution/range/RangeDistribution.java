package io.sluice.runtime.sink.distribution.range;

import io.sluice.runtime.config.SluiceOptions;
import io.sluice.runtime.sink.SinkDescriptor;
import io.sluice.runtime.sink.distribution.StatisticsType;
import io.sluice.spi.sink.SinkContext;

import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.functions.Partitioner;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;

/**
 * Distribution mode {@code range} as the sink's pre-write topology: the {@link
 * RangeShuffleOperator} (statistics, with its coordinator) tags each row with its writer, a custom
 * partitioner sends it there, and the tag comes off before the writer. Rows within a file are not
 * sorted: RANGE only shuffles.
 */
public final class RangeDistribution {

    private RangeDistribution() {}

    /** {@code range-distribution-statistics-type}. */
    public static StatisticsType statisticsType(SinkDescriptor descriptor) {
        return StatisticsType.parse(descriptor.configuration().get(SluiceOptions.RANGE_DISTRIBUTION_STATISTICS_TYPE));
    }

    /**
     * {@code range-distribution-sort-key-base-weight}.
     *
     * @throws IllegalArgumentException outside {@code [0, 1)}
     */
    public static double baseWeight(SinkDescriptor descriptor) {
        String key = SluiceOptions.RANGE_DISTRIBUTION_SORT_KEY_BASE_WEIGHT.key();
        double weight;
        try {
            weight = descriptor.configuration().get(SluiceOptions.RANGE_DISTRIBUTION_SORT_KEY_BASE_WEIGHT);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "Invalid '" + key + "' '"
                            + descriptor.configuration().toMap().get(key) + "': a number in [0, 1)",
                    e);
        }
        if (!(weight >= 0 && weight < 1)) {
            throw new IllegalArgumentException("Invalid '" + key + "' '" + weight + "': must be in [0, 1)");
        }
        return weight;
    }

    /**
     * The rows as the writers are to get them, by range, the shuffle's parts calling {@code hooks}.
     * Runs on the client.
     */
    public static DataStream<RowData> apply(
            DataStream<RowData> input, SinkDescriptor descriptor, SinkContext context, RangeShuffleHooks hooks) {
        InternalTypeInfo<RowData> rows = InternalTypeInfo.of(descriptor.rowType());
        return input.transform(
                        "Range statistics: " + descriptor.target(),
                        Types.TUPLE(Types.INT, rows),
                        new RangeShuffleOperatorFactory(
                                descriptor, statisticsType(descriptor), baseWeight(descriptor), hooks))
                .partitionCustom(new ToWriter(), new Writer())
                .map(new Row())
                .returns(rows)
                .name("Distributed by range: " + descriptor.target());
    }

    /** The writer a row was tagged with, as the channel. */
    private static final class ToWriter implements Partitioner<Integer> {
        private static final long serialVersionUID = 1L;

        @Override
        public int partition(Integer writer, int writers) {
            // the statistics operator runs with the writers' parallelism; modulo only guards
            return writer % writers;
        }
    }

    private static final class Writer implements KeySelector<Tuple2<Integer, RowData>, Integer> {
        private static final long serialVersionUID = 1L;

        @Override
        public Integer getKey(Tuple2<Integer, RowData> tagged) {
            return tagged.f0;
        }
    }

    private static final class Row implements MapFunction<Tuple2<Integer, RowData>, RowData> {
        private static final long serialVersionUID = 1L;

        @Override
        public RowData map(Tuple2<Integer, RowData> tagged) {
            return tagged.f1;
        }
    }
}

package io.sluice.runtime.sink.distribution;

import io.sluice.runtime.config.SluiceOptions;
import io.sluice.runtime.sink.JobMode;
import io.sluice.runtime.sink.SinkDescriptor;
import io.sluice.runtime.sink.distribution.range.RangeDistribution;
import io.sluice.runtime.sink.distribution.range.RangeShuffleHooks;
import io.sluice.spi.distribution.DistributionKey;
import io.sluice.spi.distribution.DistributionMode;
import io.sluice.spi.distribution.DistributionSupport;
import io.sluice.spi.sink.SinkContext;

import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * How the rows of a sink reach its writers, decided in this one place for every target and API
 * (SQL, {@code SluiceSinkBuilder}, {@code TableSinkBuilder}), on the client.
 *
 * <p>The mode is the sink's {@code distribution-mode} option, else the table's ({@link
 * DistributionSupport#tableMode}), else {@link DistributionMode#NONE}, and must be one the
 * target allows ({@link DistributionSupport#modes}).
 *
 * <ul>
 *   <li>{@code none}: each writer writes what its input subtask hands it.
 *   <li>{@code hash}: rows with equal {@link io.sluice.spi.distribution.DistributionKey}s (the
 *       partition key, else the primary key; or the columns of {@code distribution.columns}, which
 *       SQL's {@code DISTRIBUTED BY HASH(...)} sets) reach one writer. A sink with neither falls back to
 *       {@code none}, with a warning, as Iceberg's Flink sink does.
 *   <li>{@code range}: rows are spread by ranges of the target's sort key ({@link
 *       DistributionSupport#rangeKey}: Iceberg's sort order, else the partition key), chosen from traffic
 *       statistics so that every writer gets an even share ({@link
 *       io.sluice.runtime.sink.distribution.range.RangeDistribution}). A sink with no sort key is
 *       an error, as in Iceberg's Flink sink. A BATCH job, which takes no checkpoints to aggregate
 *       statistics at, sends each sort key to one writer, as {@code hash} by that key.
 * </ul>
 *
 * <p>A target that takes changes (upserts) gets every version of a key on one writer, in order,
 * whatever the mode: its rows are keyed by the change key (the keying of the SPI's {@code
 * changeKey}, done by the sink itself), or by distribution columns that are part of it.
 */
public final class WriterDistribution {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(WriterDistribution.class);

    private WriterDistribution() {}

    /**
     * The sink's mode.
     *
     * @throws IllegalArgumentException naming the option and value for an unknown mode, one the
     *     target does not allow (listing those it does) or one not built yet
     */
    public static DistributionMode mode(SinkDescriptor descriptor, SinkContext context) {
        DistributionSupport target = support(descriptor);
        Optional<String> option = descriptor.configuration().getOptional(SluiceOptions.DISTRIBUTION_MODE);
        DistributionMode mode;
        String source;
        if (option.isPresent()) {
            mode = parse(option.get());
            source = "'" + SluiceOptions.DISTRIBUTION_MODE.key() + "' '" + option.get() + "'";
        } else {
            Optional<DistributionMode> table = target.tableMode(context);
            if (!table.isPresent()) {
                return DistributionMode.NONE;
            }
            mode = table.get();
            source = "the table's distribution mode '" + name(mode) + "'";
        }
        Set<DistributionMode> allowed = target.modes(context);
        if (!allowed.contains(mode)) {
            throw new IllegalArgumentException("Invalid " + source + ": target '" + descriptor.target()
                    + "' writes with "
                    + allowed.stream().map(WriterDistribution::name).sorted().collect(Collectors.joining(", "))
                    + " here");
        }
        // bad values are errors whatever the mode, as for every other option
        RangeDistribution.statisticsType(descriptor);
        RangeDistribution.baseWeight(descriptor);
        Optional<List<String>> columns = columns(descriptor);
        if (columns.isPresent()) {
            if (mode != DistributionMode.HASH) {
                throw new IllegalArgumentException("Option '" + SluiceOptions.DISTRIBUTION_COLUMNS.key() + "' "
                        + columns.get() + " is for distribution mode 'hash', not " + source);
            }
            DistributionKey.ofColumns(descriptor.rowType(), columns.get()); // names a column that does not exist
        }
        return mode;
    }

    /** The columns the sink's rows are hashed by instead of the target's key ({@code distribution.columns}). */
    public static Optional<List<String>> columns(SinkDescriptor descriptor) {
        return descriptor.configuration().getOptional(SluiceOptions.DISTRIBUTION_COLUMNS);
    }

    /** The key hash distribution uses: the sink's columns, else the target's. */
    static DistributionKey key(SinkDescriptor descriptor, SinkContext context) {
        Optional<List<String>> columns = columns(descriptor);
        return columns.isPresent()
                ? DistributionKey.ofColumns(descriptor.rowType(), columns.get())
                : support(descriptor).key(context);
    }

    /**
     * The target's distribution; for a target that offers none, {@link DistributionMode#NONE}
     * only and the facet's default keys (a dynamic sink still routes by them).
     */
    public static DistributionSupport support(SinkDescriptor descriptor) {
        return descriptor.targetFactory().distribution().orElse(NONE_ONLY);
    }

    private static final DistributionSupport NONE_ONLY = context -> EnumSet.of(DistributionMode.NONE);

    private static DistributionMode parse(String value) {
        for (DistributionMode mode : DistributionMode.values()) {
            if (name(mode).equals(value.trim().toLowerCase(Locale.ROOT))) {
                return mode;
            }
        }
        throw new IllegalArgumentException("Invalid '" + SluiceOptions.DISTRIBUTION_MODE.key() + "' '" + value
                + "': one of "
                + Arrays.stream(DistributionMode.values())
                        .map(WriterDistribution::name)
                        .collect(Collectors.joining(", ")));
    }

    /** The option value of a mode: {@code none}, {@code hash}, {@code range}. */
    public static String name(DistributionMode mode) {
        return mode.name().toLowerCase(Locale.ROOT);
    }

    /**
     * The rows as the sink's writers are to get them: unchanged, or keyed by their distribution
     * key. Runs on the client, in {@code SluiceSink.addPreWriteTopology}: Flink gives the
     * operators it adds the sink's parallelism, so the keyed rows reach the writers without another
     * shuffle. A range shuffle's parts call {@code rangeShuffleHooks}.
     */
    public static DataStream<RowData> apply(
            DataStream<RowData> input,
            SinkDescriptor descriptor,
            SinkContext context,
            RangeShuffleHooks rangeShuffleHooks) {
        DistributionMode mode = mode(descriptor, context);
        if (mode == DistributionMode.NONE) {
            return input;
        }
        if (mode == DistributionMode.RANGE) {
            try {
                support(descriptor).rangeKey(context);
            } catch (IllegalArgumentException nothingToOrderBy) {
                throw new IllegalArgumentException(
                        "Invalid distribution mode 'range' for target '" + descriptor.target() + "': "
                                + nothingToOrderBy.getMessage()
                                + "; range needs a sort key (a sort order or partition columns), or use 'hash' or 'none'",
                        nothingToOrderBy);
            }
            if (JobMode.isBatch(input)) {
                // no checkpoints, so no statistics: round-robin would give every writer a file of
                // every key, so each sort key goes to one writer instead, as with hash
                LOG.info(
                        "Target '{}' writes a BATCH job with distribution mode 'range' by hash of its sort key:"
                                + " range statistics are aggregated at checkpoints, which a BATCH job has none of",
                        descriptor.target());
                return byHash(input, descriptor, true);
            }
            return RangeDistribution.apply(input, descriptor, context, rangeShuffleHooks);
        }
        try {
            key(descriptor, context);
        } catch (IllegalArgumentException nothingToDistributeBy) {
            LOG.warn(
                    "Target '{}' writes with distribution mode 'none' instead of '{}': {}",
                    descriptor.target(),
                    name(mode),
                    nothingToDistributeBy.getMessage());
            return input;
        }
        return byHash(input, descriptor, false);
    }

    private static DataStream<RowData> byHash(DataStream<RowData> input, SinkDescriptor descriptor, boolean rangeKey) {
        InternalTypeInfo<RowData> rows = InternalTypeInfo.of(descriptor.rowType());
        return input.map(new DistributionKeyFunction(descriptor, rangeKey))
                .returns(Types.TUPLE(Types.STRING, rows))
                .name("Distribution key: " + descriptor.target())
                .keyBy(new ByKey(), Types.STRING)
                .map(new Row())
                .returns(rows)
                .name("Distributed by hash: " + descriptor.target());
    }

    /** The key of a keyed row. */
    private static final class ByKey implements KeySelector<Tuple2<String, RowData>, String> {
        private static final long serialVersionUID = 1L;

        @Override
        public String getKey(Tuple2<String, RowData> keyed) {
            return keyed.f0;
        }
    }

    /** The row of a keyed row. */
    private static final class Row
            implements org.apache.flink.api.common.functions.MapFunction<Tuple2<String, RowData>, RowData> {
        private static final long serialVersionUID = 1L;

        @Override
        public RowData map(Tuple2<String, RowData> keyed) {
            return keyed.f1;
        }
    }
}

package io.sluice.plugin.iceberg;

import io.sluice.spi.distribution.DistributionKey;
import io.sluice.spi.distribution.DistributionMode;
import io.sluice.spi.distribution.DistributionSupport;
import io.sluice.spi.sink.SinkContext;

import org.apache.iceberg.TableProperties;
import org.apache.iceberg.flink.FlinkWriteConf;

import java.util.EnumSet;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** How the rows of an Iceberg sink are distributed among its writers, read from the table as upstream reads it. */
final class IcebergDistribution implements DistributionSupport {

    /**
     * NONE, HASH and RANGE. With HASH, the rows of one partition (of the spec's transforms) reach
     * one writer; an unpartitioned table by its primary key, else as NONE (upstream's behaviour).
     * RANGE orders rows by {@link #rangeKey}.
     */
    @Override
    public Set<DistributionMode> modes(SinkContext context) {
        return EnumSet.allOf(DistributionMode.class);
    }

    /**
     * The table's sort order, else its partition spec ({@link PartitionDistributionKey}, in the
     * order of the partition values), as upstream's RANGE: a table with neither is an error, in
     * upstream's words.
     */
    @Override
    public DistributionKey rangeKey(SinkContext context) {
        return CatalogTable.read(context.options(), table -> {
            if (table.sortOrder().isSorted()) {
                return new SortOrderDistributionKey(table.sortOrder(), table.schema(), context.rowType());
            }
            if (!table.spec().isUnpartitioned()) {
                return new PartitionDistributionKey(table.spec(), table.schema(), context.rowType());
            }
            throw new IllegalArgumentException("Iceberg table '" + table.name()
                    + "' is unpartitioned and unsorted: Need to define sort order or partition spec");
        });
    }

    /**
     * The table property {@code write.distribution-mode} (or the job's {@code distribution-mode}),
     * read as upstream reads it; empty for a table the sink is about to create.
     */
    @Override
    public Optional<DistributionMode> tableMode(SinkContext context) {
        return CatalogTable.readIfExists(context.options(), table -> {
            Map<String, String> noWriteOption = new HashMap<>(); // the sink's own option is the framework's
            org.apache.iceberg.DistributionMode mode;
            try {
                mode = new FlinkWriteConf(table, noWriteOption, context.jobConfiguration()).distributionMode();
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(
                        "Invalid table property '" + TableProperties.WRITE_DISTRIBUTION_MODE + "' of Iceberg table '"
                                + table.name() + "': " + e.getMessage(),
                        e);
            }
            return DistributionMode.valueOf(mode.name());
        });
    }

    @Override
    public DistributionKey key(SinkContext context) {
        return CatalogTable.read(context.options(), table -> {
            if (!table.spec().isUnpartitioned()) {
                // the rows as the sink gets them, before the writer widens them to the table's types
                return new PartitionDistributionKey(table.spec(), table.schema(), context.rowType());
            }
            if (!context.primaryKey().isEmpty()) {
                return DistributionKey.ofColumns(context.rowType(), context.primaryKey());
            }
            throw new IllegalArgumentException("Iceberg table '" + table.name()
                    + "' is unpartitioned and has no primary" + " key to distribute rows by");
        });
    }
}

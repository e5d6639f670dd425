package io.sluice.plugin.iceberg;

import io.sluice.spi.Payload;
import io.sluice.spi.source.ScanPlanner;
import io.sluice.spi.source.ScanSourceFactory;
import io.sluice.spi.source.ScanSplitReader;
import io.sluice.spi.source.SourceContext;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.expressions.ResolvedExpression;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.flink.FlinkSchemaUtil;
import org.pf4j.Extension;

import java.io.IOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The reading side of the {@code iceberg} target: a Sluice table on an Iceberg table is read by
 * planning scans of the table's snapshots, with Iceberg's own Flink source machinery. Bounded, it
 * reads one snapshot (the current one, or the one the options name) or the appends between two;
 * with {@code streaming} it reads the appends of every new snapshot, from where {@code
 * starting-strategy} says. Delete files are applied.
 *
 * <p>It takes the target's catalog options and upstream's read options (names and defaults of
 * Iceberg's {@code FlinkReadOptions}), which take precedence over the job's configuration
 * ({@code connector.iceberg.*}), which takes precedence over the table's properties. The source's
 * columns must be columns of the table, by name, with the table's types; they may be fewer and in
 * any order.
 */
@Extension
public final class IcebergScanSourceFactory implements ScanSourceFactory {

    @Override
    public String identifier() {
        return "iceberg";
    }

    @Override
    public Set<ConfigOption<?>> requiredOptions() {
        return Collections.singleton(IcebergOptions.CATALOG_TABLE);
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        Set<ConfigOption<?>> options = new HashSet<>(Arrays.asList(IcebergOptions.catalogOptions()));
        options.add(IcebergOptions.CATALOG_DATABASE);
        options.add(IcebergOptions.BASE_NAMESPACE);
        options.addAll(Arrays.asList(IcebergReadOptions.all()));
        return options;
    }

    @Override
    public Set<String> optionPrefixes() {
        return IcebergOptions.CATALOG_PROPERTY_PREFIXES;
    }

    /**
     * Also refuses a continuous read as a temporal join's table: a lookup reads the table whole
     * (the current snapshot, or the one the options name) at every reload, which is not what
     * {@code streaming} (the appends of new snapshots) asks.
     */
    @Override
    public void validate(SourceContext context) {
        CatalogTable.read(context.options(), table -> {
            ReadSettings settings = ReadSettings.of(table, context);
            settings.checkReferences(table);
            if (context.lookup() && settings.streaming()) {
                throw new IllegalArgumentException("'" + IcebergReadOptions.STREAMING.key() + "' = 'true' reads the"
                        + " appends of new snapshots; a temporal join reads Iceberg table '" + settings.tableName()
                        + "' whole instead, again every 'lookup.join.cache.ttl': join a bounded read (set '"
                        + IcebergReadOptions.STREAMING.key() + "' = 'false' in a hint)");
            }
            return null;
        });
    }

    @Override
    public Optional<RowType> tableRowType(ReadableConfig options) {
        return Optional.of(CatalogTable.read(options, table -> FlinkSchemaUtil.convert(table.schema())));
    }

    @Override
    public Optional<Payload> pushFilters(SourceContext context, List<ResolvedExpression> filters) {
        return PushedFilters.of(filters);
    }

    /** As upstream resolves {@code streaming} and {@code monitor-interval}: from the options, the job's configuration or the table. */
    @Override
    public Optional<Duration> monitorInterval(SourceContext context) {
        ReadSettings settings = CatalogTable.read(context.options(), table -> ReadSettings.of(table, context));
        return settings.streaming() ? Optional.of(settings.monitorInterval()) : Optional.empty();
    }

    @Override
    public ScanPlanner createPlanner(SourceContext context) throws IOException {
        CatalogTable table = load(context);
        ReadSettings settings;
        try {
            settings = ReadSettings.of(table.table(), context);
        } catch (RuntimeException e) {
            table.close();
            throw new IOException(e.getMessage(), e);
        }
        if (!settings.streaming()) {
            return new IcebergScanPlanner(table, settings);
        }
        // upstream's continuous planner loads its own table
        table.close();
        try {
            return IcebergContinuousScanPlanner.create(new PluginTableLoader(context.options()), settings);
        } catch (RuntimeException e) {
            throw new IOException("Cannot start planning Iceberg table '" + settings.tableName() + "': " + e, e);
        }
    }

    @Override
    public ScanSplitReader createReader(SourceContext context) {
        return new IcebergScanSplitReader(context);
    }

    private static CatalogTable load(SourceContext context) throws IOException {
        try {
            return CatalogTable.load(context.options());
        } catch (RuntimeException e) {
            throw new IOException(e.getMessage(), e);
        }
    }
}

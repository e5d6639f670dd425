package io.sluice.runtime.table;

import io.sluice.runtime.config.Secrets;
import io.sluice.runtime.config.SluiceOptions;
import io.sluice.runtime.sink.SinkPlanner;
import io.sluice.runtime.source.file.FileSourceDescriptor;
import io.sluice.runtime.source.file.FileSourcePlanner;
import io.sluice.runtime.source.scan.ScanSourcePlanner;

import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.api.TableConfig;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.ResolvedCatalogTable;
import org.apache.flink.table.catalog.UniqueConstraint;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.factories.DynamicTableSinkFactory;
import org.apache.flink.table.factories.DynamicTableSourceFactory;
import org.apache.flink.table.types.logical.RowType;

import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code 'connector' = 'sluice'}: the table factory of every Sluice target, for writing and
 * reading. The {@code target} option picks the plugin that writes; a target with a scan source
 * (Iceberg) also reads its tables, other tables' files are read by the framework's file source
 * with the chosen format and file enumerator. Every other option is
 * checked against what the framework, the target and the chosen format and extensions declare, so
 * an unknown option is an error that lists the valid ones.
 */
public final class SluiceDynamicTableFactory implements DynamicTableSinkFactory, DynamicTableSourceFactory {

    /** The connector identifier. */
    public static final String IDENTIFIER = "sluice";

    /** Secret options of a {@link SluiceCatalog}'s tables, which their catalog tables carry masked. */
    private final Map<String, String> hidden;

    /** The target of the catalog whose tables this factory plans, or null for {@code 'connector' = 'sluice'} tables. */
    @javax.annotation.Nullable
    private final String catalogTarget;

    /** The factory of {@code 'connector' = 'sluice'} tables. */
    public SluiceDynamicTableFactory() {
        this(Collections.emptyMap(), null);
    }

    /**
     * The factory of a catalog's tables: where a table's option has the masked value of one of
     * {@code hidden} (the catalog's secret options), the secret itself is used; a hint that sets
     * another value wins. The map is the catalog's own, read when a table is planned.
     */
    SluiceDynamicTableFactory(Map<String, String> hidden, @javax.annotation.Nullable String catalogTarget) {
        this.hidden = hidden;
        this.catalogTarget = catalogTarget;
    }

    @Override
    public String factoryIdentifier() {
        return IDENTIFIER;
    }

    @Override
    public Set<ConfigOption<?>> requiredOptions() {
        return Collections.singleton(SluiceOptions.TARGET);
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        // the rest depends on the target: checked by SinkValidation
        return new HashSet<>(SluiceOptions.all());
    }

    @Override
    public DynamicTableSink createDynamicTableSink(Context context) {
        ResolvedCatalogTable table = context.getCatalogTable();
        Map<String, String> options = options(table);
        RowType rowType = (RowType) context.getPhysicalRowDataType().getLogicalType();
        try {
            List<String> primaryKey = table.getResolvedSchema()
                    .getPrimaryKey()
                    .map(UniqueConstraint::getColumns)
                    .orElse(Collections.emptyList());
            table.getDistribution().ifPresent(d -> distributedBy(d, options));
            // OVERWRITE comes later, from the planner (SluiceDynamicTableSink.applyOverwrite), and
            // the target is asked only then: it may create its table
            boolean streaming =
                    context.getConfiguration().get(ExecutionOptions.RUNTIME_MODE) == RuntimeExecutionMode.STREAMING;
            return new SluiceDynamicTableSink(
                    SinkPlanner.planWithoutTheTarget(
                            options,
                            rowType,
                            table.getPartitionKeys(),
                            primaryKey,
                            sessionConfiguration(context.getConfiguration())),
                    streaming,
                    e -> invalid(context, options, e));
        } catch (RuntimeException e) {
            return InvalidTable.sink(invalid(context, options, e));
        }
    }

    /**
     * {@code DISTRIBUTED BY HASH(k) INTO n BUCKETS} as the sink's options: hash distribution by
     * {@code k} ({@code distribution.columns}; without keys, by the target's key), and {@code n}
     * writers ({@code sink.parallelism}), so that each writer holds the rows of its buckets. An
     * option that says otherwise is an error, as is an algorithm Sluice does not distribute by.
     */
    static void distributedBy(
            org.apache.flink.table.catalog.TableDistribution distribution, Map<String, String> options) {
        String clause = "DISTRIBUTED BY " + distribution;
        if (distribution.getKind() == org.apache.flink.table.catalog.TableDistribution.Kind.RANGE) {
            throw new IllegalArgumentException(clause + ": Sluice distributes by HASH only");
        }
        String mode = options.get(SluiceOptions.DISTRIBUTION_MODE.key());
        if (mode != null && !mode.trim().equalsIgnoreCase("hash")) {
            throw new IllegalArgumentException(
                    clause + " and '" + SluiceOptions.DISTRIBUTION_MODE.key() + "' '" + mode + "' disagree");
        }
        options.put(SluiceOptions.DISTRIBUTION_MODE.key(), "hash");
        if (!distribution.getBucketKeys().isEmpty()) {
            String columns = String.join(",", distribution.getBucketKeys());
            String given = options.get(SluiceOptions.DISTRIBUTION_COLUMNS.key());
            if (given != null && !given.replace(" ", "").equals(columns)) {
                throw new IllegalArgumentException(
                        clause + " and '" + SluiceOptions.DISTRIBUTION_COLUMNS.key() + "' '" + given + "' disagree");
            }
            options.put(SluiceOptions.DISTRIBUTION_COLUMNS.key(), columns);
        }
        distribution.getBucketCount().ifPresent(buckets -> {
            String parallelism = options.get(SluiceOptions.SINK_PARALLELISM.key());
            if (parallelism != null && !parallelism.trim().equals(String.valueOf(buckets))) {
                throw new IllegalArgumentException(clause + " and '" + SluiceOptions.SINK_PARALLELISM.key() + "' '"
                        + parallelism + "' disagree: the buckets are the writers");
            }
            options.put(SluiceOptions.SINK_PARALLELISM.key(), String.valueOf(buckets));
        });
    }

    /** The table's options for the sink or source, with the catalog's secrets in place of their masks. */
    private Map<String, String> options(ResolvedCatalogTable table) {
        Map<String, String> options = new java.util.LinkedHashMap<>(table.getOptions());
        options.remove(org.apache.flink.table.factories.FactoryUtil.CONNECTOR.key());
        hidden.forEach((key, secret) -> {
            if (Secrets.mask(key, secret).equals(options.get(key))) {
                options.put(key, secret);
            }
        });
        return options;
    }

    /**
     * The error of a table Sluice cannot write or read: its message and causes never show a secret.
     * Sluice's own checks throw IllegalArgumentException / IllegalStateException naming the option;
     * anything else (a catalog refusing the credentials ...) is the target's, quoted whole.
     */
    private static ValidationException invalid(Context context, Map<String, String> options, RuntimeException e) {
        String table = context.getObjectIdentifier().asSummaryString();
        String message = e instanceof IllegalArgumentException || e instanceof IllegalStateException
                ? "Invalid options of table " + table + " ('connector' = 'sluice'): " + e.getMessage()
                : "Cannot use table " + table + " ('connector' = 'sluice'): " + e;
        return new ValidationException(Secrets.scrub(message, options), Secrets.scrub(e, options));
    }

    /** The session's own settings ({@code SET} and the table environment's configuration). */
    private static Map<String, String> sessionConfiguration(ReadableConfig config) {
        if (config instanceof TableConfig) {
            return ((TableConfig) config).getConfiguration().toMap();
        }
        return config instanceof Configuration ? ((Configuration) config).toMap() : Collections.emptyMap();
    }

    @Override
    public DynamicTableSource createDynamicTableSource(Context context) {
        ResolvedCatalogTable table = context.getCatalogTable();
        Map<String, String> options = options(table);
        RowType rowType = (RowType) context.getPhysicalRowDataType().getLogicalType();
        try {
            String name = context.getObjectIdentifier().asSummaryString();
            if (ScanSourcePlanner.readsByScan(options)) {
                // a permanent table of the target's own catalog: the planner may ask that catalog for partitions
                boolean ofTargetsCatalog = catalogTarget != null
                        && !context.isTemporary()
                        && catalogTarget.equals(options.get(SluiceOptions.TARGET.key()));
                return SluiceScanTableSource.of(
                        name,
                        ScanSourcePlanner.plan(
                                options,
                                rowType,
                                table.getPartitionKeys(),
                                sessionConfiguration(context.getConfiguration())),
                        ofTargetsCatalog);
            }
            FileSourceDescriptor descriptor = FileSourcePlanner.plan(options, rowType, table.getPartitionKeys());
            return SluiceDynamicTableSource.of(name, descriptor);
        } catch (RuntimeException e) {
            return InvalidTable.source(invalid(context, options, e));
        }
    }
}

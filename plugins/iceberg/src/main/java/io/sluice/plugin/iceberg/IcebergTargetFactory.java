package io.sluice.plugin.iceberg;

import io.sluice.spi.Payload;
import io.sluice.spi.changes.ChangeSupport;
import io.sluice.spi.distribution.DistributionSupport;
import io.sluice.spi.dynamic.DynamicTableSupport;
import io.sluice.spi.dynamic.DynamicTables;
import io.sluice.spi.sink.OverwriteSupport;
import io.sluice.spi.sink.SinkContext;
import io.sluice.spi.sink.TargetCommitter;
import io.sluice.spi.sink.TargetFactory;
import io.sluice.spi.sink.TargetWriter;
import io.sluice.spi.sink.WriterLineage;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.Table;
import org.apache.iceberg.flink.sink.RowDataTaskWriterFactory;
import org.apache.iceberg.flink.sink.TaskWriterFactory;
import org.apache.iceberg.io.OutputFileFactory;
import org.pf4j.Extension;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.UnaryOperator;

/**
 * The {@code iceberg} target: rows into an Iceberg table of an Iceberg catalog, written by
 * Iceberg's own Flink task writers, one snapshot per checkpoint, exactly once.
 *
 * <p>On the client, {@link #validate} opens the catalog, creates the table if it is missing (as
 * Iceberg's connector table does; the primary key becomes its identifier fields) and checks that
 * the sink's rows fit the table's schema and that the write options are valid. In upsert mode
 * ({@code upsert-enabled} or table property {@code write.upsert.enabled}) the sink {@linkplain
 * #acceptsChanges accepts changes}: inserts, updates and deletes by the equality fields. {@code
 * INSERT OVERWRITE} (or {@code overwrite-enabled}) replaces the partitions the data is written to.
 */
@Extension
public final class IcebergTargetFactory implements TargetFactory {

    /** The most bytes of files' JSON a writer's payload carries, more go to temporary manifests. */
    private final int inlineLimit;

    public IcebergTargetFactory() {
        this(PendingFiles.INLINE_LIMIT);
    }

    /** With writers that list more than {@code inlineLimit} bytes of files in temporary manifests: for tests. */
    IcebergTargetFactory(int inlineLimit) {
        this.inlineLimit = inlineLimit;
    }

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
        options.addAll(Arrays.asList(IcebergOptions.writeOptions()));
        options.add(IcebergOptions.CATALOG_DATABASE);
        options.add(IcebergOptions.BASE_NAMESPACE);
        options.add(IcebergOptions.FORMAT_VERSION);
        return options;
    }

    @Override
    public Set<String> optionPrefixes() {
        return IcebergOptions.CATALOG_PROPERTY_PREFIXES;
    }

    @Override
    public void validate(SinkContext context) {
        settings(context);
    }

    /*
     * No compaction (Iceberg's data files are the table's: rewriting them is Iceberg's own
     * maintenance) and no partition commit (a snapshot commit makes a partition's data visible at
     * once: nothing is left to commit), so those facets are absent.
     */

    /** {@code INSERT OVERWRITE} and {@code overwrite-enabled}: the partitions written are replaced. */
    @Override
    public Optional<OverwriteSupport> overwrite() {
        return Optional.of(OVERWRITE);
    }

    private static final OverwriteSupport OVERWRITE = new OverwriteSupport() {};

    /** Upserts and deletes by the equality fields, with {@code upsert-enabled}. */
    @Override
    public Optional<ChangeSupport> changes() {
        return Optional.of(new IcebergChanges());
    }

    @Override
    public Optional<DistributionSupport> distribution() {
        return Optional.of(new IcebergDistribution());
    }

    /** A dynamic sink's tables: Iceberg tables of the sink's catalog ({@link IcebergDynamicTables}). */
    @Override
    public Optional<DynamicTableSupport> dynamicTables() {
        return Optional.of(DYNAMIC_TABLES);
    }

    private static final DynamicTableSupport DYNAMIC_TABLES = new DynamicTableSupport() {
        @Override
        public DynamicTables open(SinkContext context) {
            return new IcebergDynamicTables(context.options());
        }

        /** Writers of one lineage id write files of names of their own per opening ({@code createWriter}). */
        @Override
        public boolean supportsWriterOpenings() {
            return true;
        }
    };

    /** The write settings of the sink's table, created first if missing. */
    static WriteSettings settings(SinkContext context) {
        return CatalogTable.loadOrCreate(
                context.options(),
                context.rowType(),
                context.partitionKeys(),
                context.primaryKey(),
                table -> WriteSettings.of(table, context));
    }

    @Override
    public TargetWriter createWriter(SinkContext context, List<Payload> restoredState) throws IOException {
        // the writer's state is its identity; state of another kind was written by something else
        // (another target under the same uid), not to be ignored
        List<LeftoverDataFiles.Earlier> earlier = new ArrayList<>();
        for (Payload state : restoredState) {
            earlier.add(IcebergTargetWriter.earlier(state)
                    .orElseThrow(() -> new IOException("The iceberg writer was restored with state of version "
                            + state.version() + " (" + state.bytes().length + " bytes) that is not an iceberg"
                            + " writer's: was the sink's uid that of another target's sink?")));
        }
        // the framework's lineage names the writer after what its successors can compute; a writer
        // without one is known to its successor through its state only. The writers a dynamic sink
        // opens one after the other for a table share the lineage's id: the opening keeps their
        // files apart ("<id>-<opening>", the first as "<id>", as a single-table sink's writer)
        Optional<WriterLineage> lineage = context.writerLineage();
        String writerId = lineage.map(l -> l.opening() == 0 ? l.writerId() : l.writerId() + "-" + l.opening())
                .orElseGet(() -> UUID.randomUUID().toString());
        if (lineage.isPresent()
                && (!earlier.isEmpty()
                        || !lineage.get().predecessorIds().isEmpty()
                        || !lineage.get().laterOpenings().isEmpty())) {
            for (String id : lineage.get().predecessorIds()) {
                earlier.add(LeftoverDataFiles.Earlier.openings(id, 0));
            }
            for (Map.Entry<String, Integer> later :
                    lineage.get().laterOpenings().entrySet()) {
                earlier.add(LeftoverDataFiles.Earlier.openings(later.getKey(), later.getValue()));
            }
            if (!lineage.get().reopened()) {
                // a writer of an earlier JobManager session may have had this id (attempt numbers
                // begin at 0 again); a writer of this id opened before in this attempt did not leave
                // leftovers but files that may wait for their commit
                earlier.add(LeftoverDataFiles.Earlier.openings(lineage.get().writerId(), 0));
            }
        }
        CatalogTable table = CatalogTable.load(context.options());
        try {
            RowType rowType = context.rowType();
            UnaryOperator<RowData> pad = null;
            if (context.options().get(IcebergDynamicTables.DYNAMIC_TABLE)) {
                WriteSchemas.Padding padding = WriteSchemas.padding(table.table(), rowType);
                rowType = padding.rowType;
                pad = padding.pad;
            }
            WriteSchemas.checkWritable(table.table(), rowType);
            WriteSettings settings = WriteSettings.of(table.table(), context);
            Table t = table.table();
            LeftoverDataFiles.delete(t, context.jobId(), earlier);
            LeftoverDataFiles.abortUploads(t, earlier);
            RowType writeType = WriteSchemas.writeType(t, rowType);
            // appends write flat Parquet rows themselves (AppendTaskWriterFactory); upserts and
            // deletes by key need Iceberg's delta writers
            TaskWriterFactory<RowData> writers;
            if (settings.equalityFieldIds().isEmpty()) {
                AppendTaskWriterFactory append = new AppendTaskWriterFactory(
                        t, writeType, settings.targetFileSize(), settings.format(), settings.writerProperties());
                append.operationId(writerId);
                append.initialize(context.subtaskIndex(), 0);
                writers = append;
            } else {
                RowDataTaskWriterFactory delta = new RowDataTaskWriterFactory(
                        t,
                        writeType,
                        settings.targetFileSize(),
                        settings.format(),
                        settings.writerProperties(),
                        settings.equalityFieldIds(),
                        settings.upsert());
                delta.initialize(context.subtaskIndex(), 0);
                nameFilesAfter(
                        delta,
                        AppendTaskWriterFactory.outputFiles(t, context.subtaskIndex(), settings.format(), writerId));
                writers = delta;
            }
            return new IcebergTargetWriter(
                    table,
                    writers,
                    new TemporaryManifests(t, context.jobId(), context.subtaskIndex(), writerId),
                    settings.upsert(),
                    new WriterMetrics(context.metricGroup(), t.name()),
                    andThen(pad, WriteSchemas.widening(rowType, writeType)),
                    writerId,
                    inlineLimit);
        } catch (RuntimeException e) {
            table.close();
            throw e;
        }
    }

    /**
     * Gives Iceberg's delta writers the file names of this writer: their factory has no way to set
     * the operation id, so its field is replaced. Should a later Iceberg rename it, the files keep
     * Iceberg's random names, which only means its leftovers are never recognised (and stay).
     */
    private static void nameFilesAfter(RowDataTaskWriterFactory writers, OutputFileFactory files) {
        try {
            java.lang.reflect.Field field = RowDataTaskWriterFactory.class.getDeclaredField("outputFileFactory");
            field.setAccessible(true);
            field.set(writers, files);
        } catch (ReflectiveOperationException | RuntimeException e) {
            LoggerFactory.getLogger(IcebergTargetFactory.class)
                    .warn(
                            "Iceberg's delta writers keep their random file names, leftovers are not recognised: {}",
                            e.toString());
        }
    }

    /** {@code first}, then {@code second}; either may be null (nothing to do). */
    private static UnaryOperator<RowData> andThen(UnaryOperator<RowData> first, UnaryOperator<RowData> second) {
        if (first == null) {
            return second;
        }
        if (second == null) {
            return first;
        }
        return row -> second.apply(first.apply(row));
    }

    @Override
    public TargetCommitter createCommitter(SinkContext context) throws IOException {
        CatalogTable table = CatalogTable.load(context.options());
        try {
            // Flink runs a committer per sink subtask, but every request goes to subtask 0: only its
            // metrics mean anything (an idle one's elapsedSecondsSinceLastSuccessfulCommit would only grow)
            MetricGroup group = context.subtaskIndex() == 0 ? context.metricGroup() : new UnregisteredMetricsGroup();
            return new IcebergTargetCommitter(
                    table,
                    WriteSettings.of(table.table(), context),
                    new CommitterMetrics(group, table.table().name()));
        } catch (RuntimeException e) {
            table.close();
            throw e;
        }
    }
}

package io.sluice.runtime.source;

import io.sluice.runtime.source.file.FileSourceDescriptor;
import io.sluice.runtime.source.scan.ScanDescriptor;
import io.sluice.spi.ExtensionLookup;
import io.sluice.spi.Payload;
import io.sluice.spi.source.SourceContext;

import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.types.logical.RowType;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * The {@link SourceContext} the framework gives to plugin parts of a source: of a scan or of a
 * temporal join's lookup ({@link #forLookup}).
 */
public final class TaskSourceContext implements SourceContext {

    private final RowType rowType;
    private final List<String> partitionKeys;
    private final Map<String, String> rawOptions;
    private final ReadableConfig options;
    private final ReadableConfig jobConfiguration;
    private final ExtensionLookup extensions;
    private final Optional<Payload> pushedFilters;
    private final OptionalLong pushedLimit;
    private final Boundedness boundedness;
    private final boolean lookup;
    private final OptionalInt readers;

    public TaskSourceContext(FileSourceDescriptor descriptor, ExtensionLookup extensions) {
        this(descriptor, extensions, false);
    }

    public TaskSourceContext(ScanDescriptor descriptor, ExtensionLookup extensions) {
        this(descriptor, extensions, false);
    }

    private TaskSourceContext(FileSourceDescriptor descriptor, ExtensionLookup extensions, boolean lookup) {
        this(
                descriptor.rowType(),
                descriptor.partitionKeys(),
                descriptor.options(),
                Collections.emptyMap(),
                extensions,
                Optional.empty(),
                OptionalLong.empty(),
                boundedness(descriptor.isContinuous() && !lookup),
                lookup,
                lookup ? OptionalInt.of(1) : OptionalInt.empty()); // each join subtask reads every split
    }

    private TaskSourceContext(ScanDescriptor descriptor, ExtensionLookup extensions, boolean lookup) {
        this(
                descriptor.rowType(),
                descriptor.partitionKeys(),
                descriptor.options(),
                descriptor.jobConfiguration(),
                extensions,
                descriptor.pushedFilters(),
                lookup ? OptionalLong.empty() : descriptor.pushedLimit(), // a lookup reads the whole table
                boundedness(descriptor.isContinuous() && !lookup),
                lookup,
                lookup ? OptionalInt.of(1) : OptionalInt.empty()); // each join subtask reads every split
    }

    /**
     * The context of a temporal join's read of a file table: {@link SourceContext#lookup()} true,
     * bounded whatever {@code source.monitor-interval} says (each load lists the files once).
     */
    public static TaskSourceContext forLookup(FileSourceDescriptor descriptor, ExtensionLookup extensions) {
        return new TaskSourceContext(descriptor, extensions, true);
    }

    /**
     * The context of a temporal join's read of a scan target's table: {@link SourceContext#lookup()}
     * true and bounded; the pushed projection (row type) and filters are the query's, as for a scan,
     * and no limit.
     */
    public static TaskSourceContext forLookup(ScanDescriptor descriptor, ExtensionLookup extensions) {
        return new TaskSourceContext(descriptor, extensions, true);
    }

    private TaskSourceContext(
            RowType rowType,
            List<String> partitionKeys,
            Map<String, String> rawOptions,
            Map<String, String> jobConfiguration,
            ExtensionLookup extensions,
            Optional<Payload> pushedFilters,
            OptionalLong pushedLimit,
            Boundedness boundedness,
            boolean lookup,
            OptionalInt readers) {
        this.boundedness = boundedness;
        this.lookup = lookup;
        this.readers = readers;
        this.pushedFilters = pushedFilters;
        this.pushedLimit = pushedLimit;
        this.rowType = rowType;
        this.partitionKeys = partitionKeys;
        this.rawOptions = rawOptions;
        this.options = Configuration.fromMap(rawOptions);
        this.jobConfiguration = Configuration.fromMap(jobConfiguration);
        this.extensions = extensions;
    }

    private TaskSourceContext(TaskSourceContext context, OptionalInt readers) {
        this.rowType = context.rowType;
        this.partitionKeys = context.partitionKeys;
        this.rawOptions = context.rawOptions;
        this.options = context.options;
        this.jobConfiguration = context.jobConfiguration;
        this.extensions = context.extensions;
        this.pushedFilters = context.pushedFilters;
        this.pushedLimit = context.pushedLimit;
        this.boundedness = context.boundedness;
        this.lookup = context.lookup;
        this.readers = readers;
    }

    /**
     * This context for an enumerator that plans splits for {@code readers} readers (its {@code
     * SplitEnumeratorContext#currentParallelism}): {@link SourceContext#readers()} gives it.
     */
    public TaskSourceContext withReaders(int readers) {
        if (readers < 1) {
            throw new IllegalArgumentException("A source has at least one reader, not " + readers);
        }
        return new TaskSourceContext(this, OptionalInt.of(readers));
    }

    @Override
    public RowType rowType() {
        return rowType;
    }

    @Override
    public List<String> partitionKeys() {
        return partitionKeys;
    }

    @Override
    public ReadableConfig options() {
        return options;
    }

    @Override
    public Map<String, String> rawOptions() {
        return rawOptions;
    }

    @Override
    public ExtensionLookup extensions() {
        return extensions;
    }

    private static Boundedness boundedness(boolean continuous) {
        return continuous ? Boundedness.CONTINUOUS_UNBOUNDED : Boundedness.BOUNDED;
    }

    @Override
    public Boundedness boundedness() {
        return boundedness;
    }

    @Override
    public ReadableConfig jobConfiguration() {
        return jobConfiguration;
    }

    @Override
    public Optional<Payload> pushedFilters() {
        return pushedFilters;
    }

    @Override
    public OptionalLong pushedLimit() {
        return pushedLimit;
    }

    @Override
    public boolean lookup() {
        return lookup;
    }

    @Override
    public OptionalInt readers() {
        return readers;
    }
}

package io.sluice.runtime.source;

import io.sluice.spi.ExtensionLookup;
import io.sluice.spi.Payload;
import io.sluice.spi.source.SourceContext;

import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.types.logical.RowType;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * The {@link SourceContext} the framework gives to plugin parts of a source: of a scan or of a
 * temporal join's lookup ({@link SourceContext#lookup()}).
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
    private final Optional<List<Map<String, String>>> partitions;

    /**
     * A context of these parts; the descriptors of both sources make theirs ({@code
     * FileSourceDescriptor#context}, {@code ScanDescriptor#context} and their {@code lookupContext}).
     */
    public TaskSourceContext(
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
        this(
                rowType,
                partitionKeys,
                rawOptions,
                jobConfiguration,
                extensions,
                pushedFilters,
                pushedLimit,
                boundedness,
                lookup,
                readers,
                Optional.empty());
    }

    /** A context of these parts that reads only {@code partitions}, when present (partition push-down). */
    public TaskSourceContext(
            RowType rowType,
            List<String> partitionKeys,
            Map<String, String> rawOptions,
            Map<String, String> jobConfiguration,
            ExtensionLookup extensions,
            Optional<Payload> pushedFilters,
            OptionalLong pushedLimit,
            Boundedness boundedness,
            boolean lookup,
            OptionalInt readers,
            Optional<List<Map<String, String>>> partitions) {
        this.partitions = partitions;
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
        this.partitions = context.partitions;
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

    @Override
    public Optional<List<Map<String, String>>> partitions() {
        return partitions;
    }
}

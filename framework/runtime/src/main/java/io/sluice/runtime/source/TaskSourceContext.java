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
import java.util.OptionalLong;

/** The {@link SourceContext} the framework gives to plugin parts of a source. */
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

    public TaskSourceContext(FileSourceDescriptor descriptor, ExtensionLookup extensions) {
        this(
                descriptor.rowType(),
                descriptor.partitionKeys(),
                descriptor.options(),
                Collections.emptyMap(),
                extensions,
                Optional.empty(),
                OptionalLong.empty(),
                boundedness(descriptor.isContinuous()));
    }

    public TaskSourceContext(ScanDescriptor descriptor, ExtensionLookup extensions) {
        this(
                descriptor.rowType(),
                descriptor.partitionKeys(),
                descriptor.options(),
                descriptor.jobConfiguration(),
                extensions,
                descriptor.pushedFilters(),
                descriptor.pushedLimit(),
                boundedness(descriptor.isContinuous()));
    }

    private TaskSourceContext(
            RowType rowType,
            List<String> partitionKeys,
            Map<String, String> rawOptions,
            Map<String, String> jobConfiguration,
            ExtensionLookup extensions,
            Optional<Payload> pushedFilters,
            OptionalLong pushedLimit,
            Boundedness boundedness) {
        this.boundedness = boundedness;
        this.pushedFilters = pushedFilters;
        this.pushedLimit = pushedLimit;
        this.rowType = rowType;
        this.partitionKeys = partitionKeys;
        this.rawOptions = rawOptions;
        this.options = Configuration.fromMap(rawOptions);
        this.jobConfiguration = Configuration.fromMap(jobConfiguration);
        this.extensions = extensions;
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
}

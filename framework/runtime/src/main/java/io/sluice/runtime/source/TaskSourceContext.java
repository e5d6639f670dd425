package io.sluice.runtime.source;

import io.sluice.spi.ExtensionLookup;
import io.sluice.spi.source.SourceContext;

import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.types.logical.RowType;

import java.util.List;
import java.util.Map;

/** The {@link SourceContext} the framework gives to plugin parts of a source. */
final class TaskSourceContext implements SourceContext {

    private final SourceDescriptor descriptor;
    private final ReadableConfig options;
    private final ExtensionLookup extensions;

    TaskSourceContext(SourceDescriptor descriptor, ExtensionLookup extensions) {
        this.descriptor = descriptor;
        this.options = descriptor.configuration();
        this.extensions = extensions;
    }

    @Override
    public RowType rowType() {
        return descriptor.rowType();
    }

    @Override
    public List<String> partitionKeys() {
        return descriptor.partitionKeys();
    }

    @Override
    public ReadableConfig options() {
        return options;
    }

    @Override
    public Map<String, String> rawOptions() {
        return descriptor.options();
    }

    @Override
    public ExtensionLookup extensions() {
        return extensions;
    }
}

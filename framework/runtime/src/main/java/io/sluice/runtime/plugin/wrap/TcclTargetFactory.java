package io.sluice.runtime.plugin.wrap;

import io.sluice.spi.Payload;
import io.sluice.spi.distribution.DistributionKey;
import io.sluice.spi.distribution.DistributionMode;
import io.sluice.spi.sink.SinkContext;
import io.sluice.spi.sink.TargetCommitter;
import io.sluice.spi.sink.TargetFactory;
import io.sluice.spi.sink.TargetWriter;

import org.apache.flink.util.TemporaryClassLoaderContext;

import java.io.IOException;
import java.util.List;
import java.util.Set;

/** {@link TargetFactory} of a plugin, called under the plugin's context class loader. */
public final class TcclTargetFactory extends TcclFactory<TargetFactory> implements TargetFactory {

    public TcclTargetFactory(TargetFactory delegate, ClassLoader loader) {
        super(delegate, loader);
    }

    @Override
    public void validate(SinkContext context) {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            delegate.validate(context);
        }
    }

    @Override
    public java.util.Map<String, String> modeDefaults(SinkContext context, boolean bounded) {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            // copied: the framework keeps the options, not a map of the plugin's
            return new java.util.LinkedHashMap<>(delegate.modeDefaults(context, bounded));
        }
    }

    @Override
    public TargetWriter createWriter(SinkContext context, List<Payload> restoredState) throws IOException {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return new TcclTargetWriter(delegate.createWriter(context, restoredState), loader);
        }
    }

    @Override
    public TargetCommitter createCommitter(SinkContext context) throws IOException {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return new TcclTargetCommitter(delegate.createCommitter(context), loader);
        }
    }

    @Override
    public boolean supportsOverwrite() {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return delegate.supportsOverwrite();
        }
    }

    @Override
    public Set<DistributionMode> distributionModes(SinkContext context) {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return delegate.distributionModes(context);
        }
    }

    @Override
    public boolean requiresPartitionGrouping(SinkContext context) {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return delegate.requiresPartitionGrouping(context);
        }
    }

    @Override
    public java.util.Optional<DistributionMode> tableDistributionMode(SinkContext context) {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return delegate.tableDistributionMode(context);
        }
    }

    @Override
    public DistributionKey distributionKey(SinkContext context) {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return new TcclDistributionKey(delegate.distributionKey(context), loader);
        }
    }

    @Override
    public DistributionKey rangeKey(SinkContext context) {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return new TcclDistributionKey(delegate.rangeKey(context), loader);
        }
    }

    @Override
    public java.util.Optional<io.sluice.spi.dynamic.DynamicTables> dynamicTables(SinkContext context)
            throws IOException {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return delegate.dynamicTables(context).map(tables -> new TcclDynamicTables(tables, loader));
        }
    }

    @Override
    public boolean supportsWriterOpenings() {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return delegate.supportsWriterOpenings();
        }
    }

    @Override
    public boolean supportsPartitionCommit() {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return delegate.supportsPartitionCommit();
        }
    }

    @Override
    public java.util.Optional<String> fileFormat(SinkContext context) {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return delegate.fileFormat(context);
        }
    }

    @Override
    public boolean supportsCompaction() {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return delegate.supportsCompaction();
        }
    }

    @Override
    public boolean acceptsChanges(SinkContext context) {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return delegate.acceptsChanges(context);
        }
    }

    @Override
    public List<String> changeKey(SinkContext context) {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return delegate.changeKey(context);
        }
    }
}

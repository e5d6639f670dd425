package io.sluice.runtime.plugin.wrap;

import io.sluice.spi.Payload;
import io.sluice.spi.changes.ChangeSupport;
import io.sluice.spi.compact.CompactionSupport;
import io.sluice.spi.distribution.DistributionSupport;
import io.sluice.spi.dynamic.DynamicTableSupport;
import io.sluice.spi.partition.PartitionSupport;
import io.sluice.spi.sink.ModeDefaults;
import io.sluice.spi.sink.OverwriteSupport;
import io.sluice.spi.sink.SinkContext;
import io.sluice.spi.sink.TargetCommitter;
import io.sluice.spi.sink.TargetFactory;
import io.sluice.spi.sink.TargetWriter;

import org.apache.flink.util.TemporaryClassLoaderContext;

import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * {@link TargetFactory} of a plugin, called under the plugin's context class loader; each facet it
 * offers is handed out in a wrapper of its own.
 */
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
    public Optional<ChangeSupport> changes() {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return delegate.changes().map(f -> new TcclChangeSupport(f, loader));
        }
    }

    @Override
    public Optional<DistributionSupport> distribution() {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return delegate.distribution().map(f -> new TcclDistributionSupport(f, loader));
        }
    }

    @Override
    public Optional<PartitionSupport> partitions() {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return delegate.partitions().map(f -> new TcclPartitionSupport(f, loader));
        }
    }

    @Override
    public Optional<CompactionSupport> compaction() {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return delegate.compaction().map(f -> new TcclCompactionSupport(f, loader));
        }
    }

    @Override
    public Optional<DynamicTableSupport> dynamicTables() {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return delegate.dynamicTables().map(f -> new TcclDynamicTableSupport(f, loader));
        }
    }

    @Override
    public Optional<ModeDefaults> modeDefaults() {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return delegate.modeDefaults().map(f -> new TcclModeDefaults(f, loader));
        }
    }

    @Override
    public Optional<OverwriteSupport> overwrite() {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return delegate.overwrite().map(f -> new TcclOverwriteSupport(f, loader));
        }
    }
}

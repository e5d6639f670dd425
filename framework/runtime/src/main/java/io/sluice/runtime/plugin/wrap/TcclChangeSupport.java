package io.sluice.runtime.plugin.wrap;

import io.sluice.spi.changes.ChangeSupport;
import io.sluice.spi.sink.SinkContext;

import org.apache.flink.util.TemporaryClassLoaderContext;

import java.util.ArrayList;
import java.util.List;

/** A target's {@link ChangeSupport}, called under the plugin's context class loader. */
public final class TcclChangeSupport extends TcclFacet<ChangeSupport> implements ChangeSupport {

    TcclChangeSupport(ChangeSupport delegate, ClassLoader loader) {
        super(delegate, loader);
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
            return new ArrayList<>(delegate.changeKey(context));
        }
    }
}

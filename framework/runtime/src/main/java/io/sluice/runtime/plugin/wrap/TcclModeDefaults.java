package io.sluice.runtime.plugin.wrap;

import io.sluice.spi.sink.ModeDefaults;
import io.sluice.spi.sink.SinkContext;

import org.apache.flink.util.TemporaryClassLoaderContext;

import java.util.LinkedHashMap;
import java.util.Map;

/** A target's {@link ModeDefaults}, called under the plugin's context class loader. */
public final class TcclModeDefaults extends TcclFacet<ModeDefaults> implements ModeDefaults {

    TcclModeDefaults(ModeDefaults delegate, ClassLoader loader) {
        super(delegate, loader);
    }

    @Override
    public Map<String, String> defaults(SinkContext context, boolean bounded) {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            // copied: the framework keeps the options, not a map of the plugin's
            return new LinkedHashMap<>(delegate.defaults(context, bounded));
        }
    }
}

package io.sluice.runtime.plugin.wrap;

import io.sluice.runtime.plugin.PluginBound;
import io.sluice.spi.compact.CompactionInputs;
import io.sluice.spi.compact.CompactionOutput;
import io.sluice.spi.compact.CompactorContext;
import io.sluice.spi.compact.FileCompactor;
import io.sluice.spi.compact.FileCompactorFactory;

import org.apache.flink.util.TemporaryClassLoaderContext;

import java.io.IOException;

/** {@link FileCompactorFactory} of a plugin, called under the plugin's context class loader. */
public final class TcclFileCompactorFactory extends TcclFactory<FileCompactorFactory> implements FileCompactorFactory {

    public TcclFileCompactorFactory(FileCompactorFactory delegate, ClassLoader loader) {
        super(delegate, loader);
    }

    @Override
    public void validate(CompactorContext context) {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            delegate.validate(context);
        }
    }

    @Override
    public FileCompactor createCompactor(CompactorContext context) {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return new Compactor(delegate.createCompactor(context), loader);
        }
    }

    /** A plugin's {@link FileCompactor}, called under the plugin's context class loader. */
    public static final class Compactor implements FileCompactor, PluginBound {
        private final FileCompactor delegate;
        private final ClassLoader loader;

        Compactor(FileCompactor delegate, ClassLoader loader) {
            this.delegate = delegate;
            this.loader = loader;
        }

        @Override
        public void compact(CompactionInputs inputs, CompactionOutput output) throws IOException {
            try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
                delegate.compact(inputs, output);
            }
        }

        @Override
        public boolean mustSeeEveryUnit() {
            try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
                return delegate.mustSeeEveryUnit();
            }
        }

        @Override
        public ClassLoader pluginClassLoader() {
            return loader;
        }

        @Override
        public Object unwrap() {
            return delegate;
        }
    }
}

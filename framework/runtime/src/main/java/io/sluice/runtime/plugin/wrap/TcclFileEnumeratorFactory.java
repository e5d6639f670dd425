package io.sluice.runtime.plugin.wrap;

import io.sluice.runtime.plugin.PluginBound;
import io.sluice.spi.source.FileEnumeratorFactory;
import io.sluice.spi.source.SourceContext;

import org.apache.flink.connector.file.src.FileSourceSplit;
import org.apache.flink.connector.file.src.enumerate.FileEnumerator;
import org.apache.flink.core.fs.Path;
import org.apache.flink.util.TemporaryClassLoaderContext;

import java.io.IOException;
import java.util.Collection;

/** {@link FileEnumeratorFactory} of a plugin, called under the plugin's context class loader. */
public final class TcclFileEnumeratorFactory extends TcclFactory<FileEnumeratorFactory>
        implements FileEnumeratorFactory {

    public TcclFileEnumeratorFactory(FileEnumeratorFactory delegate, ClassLoader loader) {
        super(delegate, loader);
    }

    @Override
    public FileEnumerator create(SourceContext context) {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return new Enumerator(delegate.create(context), loader);
        }
    }

    /** A plugin's {@link FileEnumerator}, called under the plugin's context class loader. */
    public static final class Enumerator implements FileEnumerator, PluginBound {
        private final FileEnumerator delegate;
        private final ClassLoader loader;

        Enumerator(FileEnumerator delegate, ClassLoader loader) {
            this.delegate = delegate;
            this.loader = loader;
        }

        @Override
        public Collection<FileSourceSplit> enumerateSplits(Path[] paths, int minDesiredSplits) throws IOException {
            try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
                return delegate.enumerateSplits(paths, minDesiredSplits);
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

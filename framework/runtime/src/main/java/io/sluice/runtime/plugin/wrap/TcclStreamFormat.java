package io.sluice.runtime.plugin.wrap;

import io.sluice.runtime.plugin.PluginBound;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.file.src.reader.StreamFormat;
import org.apache.flink.connector.file.src.util.CheckpointedPosition;
import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.table.data.RowData;
import org.apache.flink.util.TemporaryClassLoaderContext;

import javax.annotation.Nullable;

import java.io.IOException;

/** A plugin's {@link StreamFormat}, called under the plugin's context class loader. */
public final class TcclStreamFormat implements StreamFormat<RowData>, PluginBound {

    private static final long serialVersionUID = 1L;

    private final StreamFormat<RowData> delegate;
    private final transient ClassLoader loader;

    TcclStreamFormat(StreamFormat<RowData> delegate, ClassLoader loader) {
        this.delegate = delegate;
        this.loader = loader;
    }

    @Override
    public StreamFormat.Reader<RowData> createReader(
            Configuration config, FSDataInputStream stream, long fileLen, long splitEnd) throws IOException {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return new Reader(delegate.createReader(config, stream, fileLen, splitEnd), loader);
        }
    }

    @Override
    public StreamFormat.Reader<RowData> restoreReader(
            Configuration config, FSDataInputStream stream, long restoredOffset, long fileLen, long splitEnd)
            throws IOException {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return new Reader(delegate.restoreReader(config, stream, restoredOffset, fileLen, splitEnd), loader);
        }
    }

    @Override
    public boolean isSplittable() {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return delegate.isSplittable();
        }
    }

    @Override
    public TypeInformation<RowData> getProducedType() {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return delegate.getProducedType();
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

    /** A plugin's {@link StreamFormat.Reader}, called under the plugin's context class loader. */
    public static final class Reader implements StreamFormat.Reader<RowData>, PluginBound {
        private final StreamFormat.Reader<RowData> delegate;
        private final ClassLoader loader;

        Reader(StreamFormat.Reader<RowData> delegate, ClassLoader loader) {
            this.delegate = delegate;
            this.loader = loader;
        }

        @Nullable
        @Override
        public RowData read() throws IOException {
            Thread t = Thread.currentThread();
            ClassLoader previous = t.getContextClassLoader();
            t.setContextClassLoader(loader);
            try {
                return delegate.read();
            } finally {
                t.setContextClassLoader(previous);
            }
        }

        @Override
        public void close() throws IOException {
            try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
                delegate.close();
            }
        }

        @Nullable
        @Override
        public CheckpointedPosition getCheckpointedPosition() {
            try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
                return delegate.getCheckpointedPosition();
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

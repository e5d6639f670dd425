package io.sluice.runtime.plugin.wrap;

import io.sluice.runtime.plugin.PluginBound;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.file.src.FileSourceSplit;
import org.apache.flink.connector.file.src.reader.BulkFormat;
import org.apache.flink.connector.file.src.util.RecordAndPosition;
import org.apache.flink.table.data.RowData;
import org.apache.flink.util.TemporaryClassLoaderContext;

import javax.annotation.Nullable;

import java.io.IOException;

/**
 * A plugin's {@link BulkFormat}, its readers and their batches, called under the plugin's context
 * class loader (a columnar reader decodes lazily, while the batch is iterated).
 */
public final class TcclBulkFormat implements BulkFormat<RowData, FileSourceSplit>, PluginBound {

    private static final long serialVersionUID = 1L;

    private final BulkFormat<RowData, FileSourceSplit> delegate;
    private final transient ClassLoader loader;

    TcclBulkFormat(BulkFormat<RowData, FileSourceSplit> delegate, ClassLoader loader) {
        this.delegate = delegate;
        this.loader = loader;
    }

    @Override
    public BulkFormat.Reader<RowData> createReader(Configuration config, FileSourceSplit split) throws IOException {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return new Reader(delegate.createReader(config, split), loader);
        }
    }

    @Override
    public BulkFormat.Reader<RowData> restoreReader(Configuration config, FileSourceSplit split) throws IOException {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return new Reader(delegate.restoreReader(config, split), loader);
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

    /** A plugin's {@link BulkFormat.Reader}, called under the plugin's context class loader. */
    public static final class Reader implements BulkFormat.Reader<RowData>, PluginBound {
        private final BulkFormat.Reader<RowData> delegate;
        private final ClassLoader loader;

        Reader(BulkFormat.Reader<RowData> delegate, ClassLoader loader) {
            this.delegate = delegate;
            this.loader = loader;
        }

        @Nullable
        @Override
        public BulkFormat.RecordIterator<RowData> readBatch() throws IOException {
            try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
                BulkFormat.RecordIterator<RowData> batch = delegate.readBatch();
                return batch == null ? null : new Batch(batch, loader);
            }
        }

        @Override
        public void close() throws IOException {
            try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
                delegate.close();
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

    /** A batch of a plugin's {@link BulkFormat.Reader}, iterated under the plugin's context class loader. */
    public static final class Batch implements BulkFormat.RecordIterator<RowData>, PluginBound {
        private final BulkFormat.RecordIterator<RowData> delegate;
        private final ClassLoader loader;

        Batch(BulkFormat.RecordIterator<RowData> delegate, ClassLoader loader) {
            this.delegate = delegate;
            this.loader = loader;
        }

        @Nullable
        @Override
        public RecordAndPosition<RowData> next() {
            Thread t = Thread.currentThread();
            ClassLoader previous = t.getContextClassLoader();
            t.setContextClassLoader(loader);
            try {
                return delegate.next();
            } finally {
                t.setContextClassLoader(previous);
            }
        }

        @Override
        public void releaseBatch() {
            try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
                delegate.releaseBatch();
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

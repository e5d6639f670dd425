package io.sluice.runtime.plugin.wrap;

import io.sluice.runtime.plugin.PluginBound;
import io.sluice.spi.Payload;
import io.sluice.spi.source.ScanPlan;
import io.sluice.spi.source.ScanPlanner;
import io.sluice.spi.source.ScanSourceFactory;
import io.sluice.spi.source.ScanSplitReader;
import io.sluice.spi.source.SourceContext;
import io.sluice.spi.source.SplitRows;

import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.connector.file.src.reader.BulkFormat;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.expressions.ResolvedExpression;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.util.TemporaryClassLoaderContext;

import javax.annotation.Nullable;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@link ScanSourceFactory} of a plugin, called under the plugin's context class loader, as are
 * the planners, readers and split rows it creates.
 */
public final class TcclScanSourceFactory extends TcclFactory<ScanSourceFactory> implements ScanSourceFactory {

    public TcclScanSourceFactory(ScanSourceFactory delegate, ClassLoader loader) {
        super(delegate, loader);
    }

    @Override
    public void validate(SourceContext context) {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            delegate.validate(context);
        }
    }

    @Override
    public Optional<RowType> tableRowType(ReadableConfig options) {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return delegate.tableRowType(options);
        }
    }

    @Override
    public Optional<Payload> pushFilters(SourceContext context, List<ResolvedExpression> filters) {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return delegate.pushFilters(context, filters);
        }
    }

    @Override
    public java.util.OptionalInt inferParallelism(SourceContext context, int upperBound, boolean atRuntime) {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return delegate.inferParallelism(context, upperBound, atRuntime);
        }
    }

    @Override
    public boolean prunesPartitions(SourceContext context) {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return delegate.prunesPartitions(context);
        }
    }

    @Override
    public boolean catalogListsPartitions(SourceContext context) {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return delegate.catalogListsPartitions(context);
        }
    }

    @Override
    public List<Map<String, String>> listPartitions(SourceContext context) throws IOException {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return delegate.listPartitions(context);
        }
    }

    @Override
    public Optional<Duration> monitorInterval(SourceContext context) {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return delegate.monitorInterval(context);
        }
    }

    @Override
    public Optional<Duration> lookupReloadInterval(SourceContext context) {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return delegate.lookupReloadInterval(context);
        }
    }

    @Override
    public ScanPlanner createPlanner(SourceContext context) throws IOException {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return new Planner(delegate.createPlanner(context), loader);
        }
    }

    @Override
    public ScanSplitReader createReader(SourceContext context) throws IOException {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return new Reader(delegate.createReader(context), loader);
        }
    }

    /** A plugin's {@link ScanPlanner}, called under the plugin's context class loader. */
    public static final class Planner implements ScanPlanner, PluginBound {
        private final ScanPlanner delegate;
        private final ClassLoader loader;

        Planner(ScanPlanner delegate, ClassLoader loader) {
            this.delegate = delegate;
            this.loader = loader;
        }

        @Override
        public ScanPlan plan(@Nullable Payload position) throws IOException {
            try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
                return delegate.plan(position);
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

    /** A plugin's {@link ScanSplitReader}, called under the plugin's context class loader. */
    public static final class Reader implements ScanSplitReader, PluginBound {
        private final ScanSplitReader delegate;
        private final ClassLoader loader;

        Reader(ScanSplitReader delegate, ClassLoader loader) {
            this.delegate = delegate;
            this.loader = loader;
        }

        @Override
        public SplitRows open(Payload split, long offset, long recordsToSkip) throws IOException {
            try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
                return new Rows(delegate.open(split, offset, recordsToSkip), loader);
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

    /**
     * A plugin's {@link SplitRows}, called under the plugin's context class loader. The per-row
     * calls ({@code next}, {@code offset}, {@code recordsToSkip}) switch it only when the caller
     * has not: the framework's read loop sets it once for a whole batch of rows.
     */
    public static final class Rows implements SplitRows, PluginBound {
        private final SplitRows delegate;
        private final ClassLoader loader;

        Rows(SplitRows delegate, ClassLoader loader) {
            this.delegate = delegate;
            this.loader = loader;
        }

        @Nullable
        @Override
        public RowData next() throws IOException {
            ClassLoader caller = enter();
            try {
                return delegate.next();
            } finally {
                exit(caller);
            }
        }

        @Override
        public long offset() {
            ClassLoader caller = enter();
            try {
                return delegate.offset();
            } finally {
                exit(caller);
            }
        }

        @Override
        public long recordsToSkip() {
            ClassLoader caller = enter();
            try {
                return delegate.recordsToSkip();
            } finally {
                exit(caller);
            }
        }

        /**
         * Sets the plugin's loader unless it is set already (the framework's read loop sets it once
         * for a batch of rows) and returns what {@link #exit} restores.
         */
        private ClassLoader enter() {
            Thread thread = Thread.currentThread();
            ClassLoader caller = thread.getContextClassLoader();
            if (caller != loader) {
                thread.setContextClassLoader(loader);
            }
            return caller;
        }

        private static void exit(ClassLoader caller) {
            Thread thread = Thread.currentThread();
            if (thread.getContextClassLoader() != caller) {
                thread.setContextClassLoader(caller);
            }
        }

        @Override
        public boolean batched() {
            try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
                return delegate.batched();
            }
        }

        @Nullable
        @Override
        public BulkFormat.RecordIterator<RowData> nextBatch() throws IOException {
            try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
                BulkFormat.RecordIterator<RowData> batch = delegate.nextBatch();
                // each row and the release under the plugin's loader too, as any plugin batch
                return batch == null ? null : new TcclBulkFormat.Batch(batch, loader);
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
}

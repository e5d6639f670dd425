package io.sluice.runtime.plugin.wrap;

import io.sluice.spi.format.BulkWritingFormat;
import io.sluice.spi.format.FormatContext;

import org.apache.flink.api.common.serialization.BulkWriter;
import org.apache.flink.table.data.RowData;
import org.apache.flink.util.TemporaryClassLoaderContext;

/** {@link BulkWritingFormat} of a plugin, called under the plugin's context class loader. */
public final class TcclBulkWritingFormat extends TcclFactory<BulkWritingFormat> implements BulkWritingFormat {

    public TcclBulkWritingFormat(BulkWritingFormat delegate, ClassLoader loader) {
        super(delegate, loader);
    }

    @Override
    public BulkWriter.Factory<RowData> createBulkWriterFactory(FormatContext context) {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return new TcclBulkWriterFactory(delegate.createBulkWriterFactory(context), loader);
        }
    }
}

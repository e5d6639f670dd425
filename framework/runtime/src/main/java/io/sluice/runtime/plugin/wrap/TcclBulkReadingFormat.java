package io.sluice.runtime.plugin.wrap;

import io.sluice.spi.format.BulkReadingFormat;
import io.sluice.spi.format.FormatContext;

import org.apache.flink.connector.file.src.FileSourceSplit;
import org.apache.flink.connector.file.src.reader.BulkFormat;
import org.apache.flink.table.data.RowData;
import org.apache.flink.util.TemporaryClassLoaderContext;

/** {@link BulkReadingFormat} of a plugin, called under the plugin's context class loader. */
public final class TcclBulkReadingFormat extends TcclFactory<BulkReadingFormat> implements BulkReadingFormat {

    public TcclBulkReadingFormat(BulkReadingFormat delegate, ClassLoader loader) {
        super(delegate, loader);
    }

    @Override
    public BulkFormat<RowData, FileSourceSplit> createBulkFormat(FormatContext context) {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return new TcclBulkFormat(delegate.createBulkFormat(context), loader);
        }
    }
}

package io.sluice.runtime.plugin.wrap;

import io.sluice.spi.format.FormatContext;
import io.sluice.spi.format.StreamReadingFormat;

import org.apache.flink.connector.file.src.reader.StreamFormat;
import org.apache.flink.table.data.RowData;
import org.apache.flink.util.TemporaryClassLoaderContext;

/** {@link StreamReadingFormat} of a plugin, called under the plugin's context class loader. */
public final class TcclStreamReadingFormat extends TcclFactory<StreamReadingFormat> implements StreamReadingFormat {

    public TcclStreamReadingFormat(StreamReadingFormat delegate, ClassLoader loader) {
        super(delegate, loader);
    }

    @Override
    public StreamFormat<RowData> createStreamFormat(FormatContext context) {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return new TcclStreamFormat(delegate.createStreamFormat(context), loader);
        }
    }
}

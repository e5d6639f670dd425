package io.sluice.runtime.plugin.wrap;

import io.sluice.spi.format.FormatContext;
import io.sluice.spi.format.RowEncodingFormat;

import org.apache.flink.api.common.serialization.Encoder;
import org.apache.flink.table.data.RowData;
import org.apache.flink.util.TemporaryClassLoaderContext;

/** {@link RowEncodingFormat} of a plugin, called under the plugin's context class loader. */
public final class TcclRowEncodingFormat extends TcclFactory<RowEncodingFormat> implements RowEncodingFormat {

    public TcclRowEncodingFormat(RowEncodingFormat delegate, ClassLoader loader) {
        super(delegate, loader);
    }

    @Override
    public Encoder<RowData> createEncoder(FormatContext context) {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(loader)) {
            return new TcclEncoder(delegate.createEncoder(context), loader);
        }
    }
}

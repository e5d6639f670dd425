package io.sluice.runtime.plugin.wrap;

import io.sluice.spi.format.FormatContext;
import io.sluice.spi.format.FormatFactory;

import org.apache.flink.api.common.serialization.BulkWriter;
import org.apache.flink.api.common.serialization.Encoder;
import org.apache.flink.connector.file.src.FileSourceSplit;
import org.apache.flink.connector.file.src.reader.BulkFormat;
import org.apache.flink.connector.file.src.reader.StreamFormat;
import org.apache.flink.table.data.RowData;

/** {@link FormatFactory} of a plugin, called under the plugin's context class loader. */
public final class TcclFormatFactory extends TcclFactory<FormatFactory> implements FormatFactory {

    public TcclFormatFactory(FormatFactory delegate, ClassLoader loader) {
        super(delegate, loader);
    }

    @Override
    public boolean isBulk() {
        try (ContextClassLoader ignored = ContextClassLoader.enter(loader)) {
            return delegate.isBulk();
        }
    }

    @Override
    public Encoder<RowData> createEncoder(FormatContext context) {
        try (ContextClassLoader ignored = ContextClassLoader.enter(loader)) {
            return new TcclEncoder(delegate.createEncoder(context), loader);
        }
    }

    @Override
    public BulkWriter.Factory<RowData> createBulkWriterFactory(FormatContext context) {
        try (ContextClassLoader ignored = ContextClassLoader.enter(loader)) {
            return new TcclBulkWriterFactory(delegate.createBulkWriterFactory(context), loader);
        }
    }

    @Override
    public ReaderKind readerKind() {
        try (ContextClassLoader ignored = ContextClassLoader.enter(loader)) {
            return delegate.readerKind();
        }
    }

    @Override
    public StreamFormat<RowData> createStreamFormat(FormatContext context) {
        try (ContextClassLoader ignored = ContextClassLoader.enter(loader)) {
            return new TcclStreamFormat(delegate.createStreamFormat(context), loader);
        }
    }

    @Override
    public BulkFormat<RowData, FileSourceSplit> createBulkFormat(FormatContext context) {
        try (ContextClassLoader ignored = ContextClassLoader.enter(loader)) {
            return new TcclBulkFormat(delegate.createBulkFormat(context), loader);
        }
    }
}

package io.sluice.runtime.plugin.wrap;

import io.sluice.spi.SluiceFactory;
import io.sluice.spi.catalog.TargetCatalogFactory;
import io.sluice.spi.compact.FileCompactorFactory;
import io.sluice.spi.format.BulkReadingFormat;
import io.sluice.spi.format.BulkWritingFormat;
import io.sluice.spi.format.FormatFactory;
import io.sluice.spi.format.RowEncodingFormat;
import io.sluice.spi.format.StreamReadingFormat;
import io.sluice.spi.partition.CommitPolicyFactory;
import io.sluice.spi.partition.PartitionTimeExtractorFactory;
import io.sluice.spi.sink.BucketAssignerFactory;
import io.sluice.spi.sink.RollingPolicyFactory;
import io.sluice.spi.sink.TargetFactory;
import io.sluice.spi.source.FileEnumeratorFactory;
import io.sluice.spi.source.ScanSourceFactory;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/** The SPI factory types plugins can offer, and the wrapper of each. */
public final class SpiWrappers {

    /** Every SPI factory type, in the order extensions are listed. */
    public static final List<Class<? extends SluiceFactory>> SPI_TYPES = Collections.unmodifiableList(Arrays.asList(
            TargetFactory.class,
            FormatFactory.class,
            RowEncodingFormat.class,
            BulkWritingFormat.class,
            StreamReadingFormat.class,
            BulkReadingFormat.class,
            BucketAssignerFactory.class,
            RollingPolicyFactory.class,
            CommitPolicyFactory.class,
            PartitionTimeExtractorFactory.class,
            FileEnumeratorFactory.class,
            FileCompactorFactory.class,
            TargetCatalogFactory.class,
            ScanSourceFactory.class));

    private SpiWrappers() {}

    /** Wraps a plugin's factory so every call runs under the plugin's context class loader. */
    @SuppressWarnings("unchecked")
    public static <T extends SluiceFactory> T wrap(Class<T> type, T factory, ClassLoader loader) {
        if (type == TargetFactory.class) {
            return (T) new TcclTargetFactory((TargetFactory) factory, loader);
        } else if (type == FormatFactory.class) {
            return (T) new TcclFormatFactory((FormatFactory) factory, loader);
        } else if (type == RowEncodingFormat.class) {
            return (T) new TcclRowEncodingFormat((RowEncodingFormat) factory, loader);
        } else if (type == BulkWritingFormat.class) {
            return (T) new TcclBulkWritingFormat((BulkWritingFormat) factory, loader);
        } else if (type == StreamReadingFormat.class) {
            return (T) new TcclStreamReadingFormat((StreamReadingFormat) factory, loader);
        } else if (type == BulkReadingFormat.class) {
            return (T) new TcclBulkReadingFormat((BulkReadingFormat) factory, loader);
        } else if (type == BucketAssignerFactory.class) {
            return (T) new TcclBucketAssignerFactory((BucketAssignerFactory) factory, loader);
        } else if (type == RollingPolicyFactory.class) {
            return (T) new TcclRollingPolicyFactory((RollingPolicyFactory) factory, loader);
        } else if (type == CommitPolicyFactory.class) {
            return (T) new TcclCommitPolicyFactory((CommitPolicyFactory) factory, loader);
        } else if (type == FileEnumeratorFactory.class) {
            return (T) new TcclFileEnumeratorFactory((FileEnumeratorFactory) factory, loader);
        } else if (type == TargetCatalogFactory.class) {
            return (T) new TcclTargetCatalogFactory((TargetCatalogFactory) factory, loader);
        } else if (type == FileCompactorFactory.class) {
            return (T) new TcclFileCompactorFactory((FileCompactorFactory) factory, loader);
        } else if (type == ScanSourceFactory.class) {
            return (T) new TcclScanSourceFactory((ScanSourceFactory) factory, loader);
        } else if (type == PartitionTimeExtractorFactory.class) {
            return (T) new TcclPartitionTimeExtractorFactory((PartitionTimeExtractorFactory) factory, loader);
        }
        throw new IllegalArgumentException("Not an SPI factory type: " + type.getName());
    }
}

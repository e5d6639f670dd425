package io.sluice.runtime.source.file;

import io.sluice.runtime.config.FileSourceOptions;
import io.sluice.runtime.plugin.PluginLifecycle;
import io.sluice.runtime.plugin.PluginRegistry;
import io.sluice.runtime.source.AttachedSourceReader;
import io.sluice.runtime.source.AttachedSplitEnumerator;
import io.sluice.spi.format.BulkReadingFormat;
import io.sluice.spi.format.FormatContext;
import io.sluice.spi.format.FormatFactory;
import io.sluice.spi.format.Formats;
import io.sluice.spi.format.StreamReadingFormat;
import io.sluice.spi.source.FileEnumeratorFactory;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.java.typeutils.ResultTypeQueryable;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.connector.file.src.FileSourceSplit;
import org.apache.flink.connector.file.src.FileSourceSplitSerializer;
import org.apache.flink.connector.file.src.enumerate.FileEnumerator;
import org.apache.flink.connector.file.src.impl.FileSourceReader;
import org.apache.flink.connector.file.src.impl.StreamFormatAdapter;
import org.apache.flink.connector.file.src.reader.BulkFormat;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.SimpleCounter;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.util.FlinkRuntimeException;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * The one file source of Sluice (FLIP-27): a split enumerator that asks the chosen {@code
 * FileEnumerator} extension for splits, once for a bounded read or every monitor interval for a
 * continuous one, and readers that decode splits with the format's reader, adding partition
 * columns from the directories. A continuous read remembers what it has read in bounded state.
 *
 * <p>The source holds only a {@link FileSourceDescriptor}; the JobManager and each TaskManager resolve
 * the enumerator and format from their own plugin registry. Build one with {@link
 * #forRowData(RowType)}.
 */
public final class SluiceFileSource
        implements Source<RowData, FileSourceSplit, EnumeratorState>, ResultTypeQueryable<RowData> {

    private static final long serialVersionUID = 1L;

    private final FileSourceDescriptor descriptor;

    SluiceFileSource(FileSourceDescriptor descriptor) {
        this.descriptor = descriptor;
    }

    /** Starts a builder for a source of rows of the given type. */
    public static SluiceFileSourceBuilder forRowData(RowType rowType) {
        return new SluiceFileSourceBuilder(rowType);
    }

    /** Creates the source of a descriptor (used by the table factory). */
    public static SluiceFileSource of(FileSourceDescriptor descriptor) {
        return new SluiceFileSource(descriptor);
    }

    public FileSourceDescriptor descriptor() {
        return descriptor;
    }

    @Override
    public Boundedness getBoundedness() {
        return descriptor.isContinuous() ? Boundedness.CONTINUOUS_UNBOUNDED : Boundedness.BOUNDED;
    }

    @Override
    public SourceReader<RowData, FileSourceSplit> createReader(SourceReaderContext readerContext) {
        PluginLifecycle.Attachment attachment = PluginLifecycle.attach(readerContext.getUserCodeClassLoader());
        try {
            BulkFormat<RowData, FileSourceSplit> format = readingFormat(
                    descriptor,
                    descriptor.registry(),
                    readerContext.metricGroup().getNumRecordsInErrorsCounter());
            return new AttachedSourceReader<>(
                    new FileSourceReader<>(readerContext, format, descriptor.configuration()), attachment);
        } catch (RuntimeException e) {
            attachment.close();
            throw e;
        }
    }

    @Override
    public SplitEnumerator<FileSourceSplit, EnumeratorState> createEnumerator(
            SplitEnumeratorContext<FileSourceSplit> context) {
        return attached(() -> enumerator(context));
    }

    @Override
    public SplitEnumerator<FileSourceSplit, EnumeratorState> restoreEnumerator(
            SplitEnumeratorContext<FileSourceSplit> context, EnumeratorState checkpoint) {
        return attached(() -> enumerator(context, checkpoint));
    }

    /** The enumerator attached to the {@link PluginLifecycle} until it closes, also if it cannot be made. */
    private static SplitEnumerator<FileSourceSplit, EnumeratorState> attached(
            java.util.function.Supplier<SplitEnumerator<FileSourceSplit, EnumeratorState>> enumerator) {
        PluginLifecycle.Attachment attachment = PluginLifecycle.attach(null);
        try {
            return new AttachedSplitEnumerator<>(enumerator.get(), attachment);
        } catch (RuntimeException e) {
            attachment.close();
            throw e;
        }
    }

    private SplitEnumerator<FileSourceSplit, EnumeratorState> enumerator(
            SplitEnumeratorContext<FileSourceSplit> context) {
        FileEnumerator files = fileEnumerator(context);
        if (descriptor.isContinuous()) {
            return FileSplitEnumerator.continuous(
                    context, files, descriptor.flinkPaths(), descriptor.configuration(), null);
        }
        // a bounded read lists once, here, so a restored enumerator never lists again
        Collection<FileSourceSplit> splits;
        try {
            splits = files.enumerateSplits(descriptor.flinkPaths(), context.currentParallelism());
        } catch (IOException e) {
            throw new FlinkRuntimeException("Cannot list files under " + descriptor.paths() + ": " + e.getMessage(), e);
        }
        List<FileSourceSplit> identified = new ArrayList<>(splits.size());
        splits.forEach(split -> identified.add(FileSplitEnumerator.withStableId(split)));
        return new FileSplitEnumerator(context, files, descriptor.flinkPaths(), 0, null, identified);
    }

    private SplitEnumerator<FileSourceSplit, EnumeratorState> enumerator(
            SplitEnumeratorContext<FileSourceSplit> context, EnumeratorState checkpoint) {
        if (descriptor.isContinuous()) {
            return FileSplitEnumerator.continuous(
                    context, fileEnumerator(context), descriptor.flinkPaths(), descriptor.configuration(), checkpoint);
        }
        return new FileSplitEnumerator(
                context,
                fileEnumerator(context),
                descriptor.flinkPaths(),
                0,
                checkpoint.seen(),
                checkpoint.pendingSplits());
    }

    /** The plugin's file enumerator, told the readers its splits are for (the enumerator's parallelism). */
    private FileEnumerator fileEnumerator(SplitEnumeratorContext<FileSourceSplit> context) {
        PluginRegistry registry = descriptor.registry();
        return registry.find(FileEnumeratorFactory.class, descriptor.enumerator())
                .create(descriptor.context(registry).withReaders(context.currentParallelism()));
    }

    @Override
    public SimpleVersionedSerializer<FileSourceSplit> getSplitSerializer() {
        return FileSourceSplitSerializer.INSTANCE;
    }

    @Override
    public SimpleVersionedSerializer<EnumeratorState> getEnumeratorCheckpointSerializer() {
        return new EnumeratorStateSerializer();
    }

    @Override
    public TypeInformation<RowData> getProducedType() {
        return InternalTypeInfo.of(descriptor.rowType());
    }

    /**
     * The format's reader for the file columns, with the partition columns added and read errors
     * naming the file.
     *
     * @throws IllegalArgumentException if the format cannot be read or its options are invalid
     */
    static BulkFormat<RowData, FileSourceSplit> readingFormat(
            FileSourceDescriptor descriptor, PluginRegistry registry) {
        return readingFormat(descriptor, registry, new SimpleCounter());
    }

    /** As {@link #readingFormat(FileSourceDescriptor, PluginRegistry)}, counting skipped records in {@code skipped}. */
    static BulkFormat<RowData, FileSourceSplit> readingFormat(
            FileSourceDescriptor descriptor, PluginRegistry registry, Counter skipped) {
        FormatFactory format = Formats.reader(registry, descriptor.format())
                .orElseThrow(() -> Formats.lacking(registry, descriptor.format(), "be read"));
        RowType rowType = descriptor.rowType();
        List<String> keys = descriptor.partitionKeys();
        List<RowType.RowField> fileFields = new ArrayList<>();
        List<LogicalType> keyTypes = new ArrayList<>();
        for (RowType.RowField f : rowType.getFields()) {
            if (!keys.contains(f.getName())) {
                fileFields.add(f);
            }
        }
        for (String key : keys) {
            int index = rowType.getFieldIndex(key);
            if (index < 0) {
                throw new IllegalArgumentException("Partition key '" + key + "' is not a column of " + rowType);
            }
            keyTypes.add(rowType.getTypeAt(index));
        }
        RowType fileType = new RowType(rowType.isNullable(), fileFields);
        FormatContext formatContext = formatContext(fileType, descriptor, skipped);
        BulkFormat<RowData, FileSourceSplit> fileFormat;
        if (format instanceof StreamReadingFormat) {
            fileFormat = new StreamFormatAdapter<>(((StreamReadingFormat) format).createStreamFormat(formatContext));
        } else {
            fileFormat = ((BulkReadingFormat) format).createBulkFormat(formatContext);
        }
        if (keys.isEmpty()) {
            return new FileReadingFormat(fileFormat, rowType, null, null);
        }
        // table position of each field: file fields first, then partition fields, in the joined row
        int[] mapping = new int[rowType.getFieldCount()];
        int fileIndex = 0;
        for (int i = 0; i < rowType.getFieldCount(); i++) {
            String name = rowType.getFieldNames().get(i);
            int key = keys.indexOf(name);
            mapping[i] = key >= 0 ? fileFields.size() + key : fileIndex++;
        }
        String defaultName = descriptor.configuration().get(FileSourceOptions.PARTITION_DEFAULT_NAME);
        return new FileReadingFormat(fileFormat, rowType, new PartitionValues(keys, keyTypes, defaultName), mapping);
    }

    private static FormatContext formatContext(RowType fileType, FileSourceDescriptor descriptor, Counter skipped) {
        String prefix = descriptor.format() + ".";
        java.util.Map<String, String> own = new java.util.HashMap<>();
        descriptor.options().forEach((k, v) -> {
            if (k.startsWith(prefix)) {
                own.put(k.substring(prefix.length()), v);
            }
        });
        ReadableConfig options = Configuration.fromMap(own);
        return new FormatContext() {
            @Override
            public RowType rowType() {
                return fileType;
            }

            @Override
            public Counter skippedRecords() {
                return skipped;
            }

            @Override
            public ReadableConfig options() {
                return options;
            }
        };
    }
}

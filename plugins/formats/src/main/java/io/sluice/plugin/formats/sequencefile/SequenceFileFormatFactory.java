package io.sluice.plugin.formats.sequencefile;

import io.sluice.plugin.formats.FileFormats;
import io.sluice.plugin.formats.OptionValues;
import io.sluice.spi.format.FormatContext;

import org.apache.flink.api.common.serialization.BulkWriter;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.connector.file.src.reader.StreamFormat;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.hadoop.io.SequenceFile.CompressionType;
import org.pf4j.Extension;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Locale;
import java.util.Set;

/**
 * The {@code sequence-file} bulk format: Hadoop SequenceFiles of one column, as Hive's {@code
 * STORED AS SEQUENCEFILE} tables hold them. Each row is one record whose key is an empty {@code
 * BytesWritable} (what Hive writes and ignores) and whose value holds the row's only column: {@code
 * Text} for a string column, {@code BytesWritable} for a binary one ({@link SequenceFileValue}).
 *
 * <p>Options: {@code compression.codec}, {@code none} (the default) or a codec name Hadoop knows
 * ({@code default}, {@code deflate}, {@code gzip}, {@code bzip2}, {@code lz4}, {@code snappy} ...;
 * one that needs Hadoop's native library, such as {@code zstd}, is rejected when it does not load);
 * and {@code compression.type}: {@code BLOCK} (the default, as Flink's SequenceFile writer) or
 * {@code RECORD}. A bulk format because a SequenceFile has a header and, block-compressed, buffers
 * records until a block is full.
 *
 * <p>Read record by record from a stream, whatever the key class; not splittable (see {@link
 * SequenceFileStreamFormat}).
 */
@Extension
public final class SequenceFileFormatFactory implements FileFormats.BulkWrittenStreamRead {

    /** The name users select this format by. */
    public static final String IDENTIFIER = "sequence-file";

    /** The Hadoop compression codec, or {@code none}. */
    public static final ConfigOption<String> COMPRESSION_CODEC = ConfigOptions.key("compression.codec")
            .stringType()
            .defaultValue(SequenceFileWriterFactory.NO_CODEC)
            .withDescription("Hadoop compression codec (none, default, deflate, gzip, bzip2, lz4,"
                    + " snappy, or a codec class name).");

    /** What a codec compresses: each record, or blocks of records. */
    public static final ConfigOption<String> COMPRESSION_TYPE = ConfigOptions.key("compression.type")
            .stringType()
            .defaultValue(CompressionType.BLOCK.name())
            .withDescription("RECORD or BLOCK: what the codec compresses; ignored without a codec.");

    @Override
    public String identifier() {
        return IDENTIFIER;
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        return Set.of(COMPRESSION_CODEC, COMPRESSION_TYPE);
    }

    @Override
    public BulkWriter.Factory<RowData> createBulkWriterFactory(FormatContext context) {
        RowType rowType = context.rowType();
        SequenceFileValue value = SequenceFileValue.of(IDENTIFIER, rowType);
        ReadableConfig options = context.options();
        String codec = options.get(COMPRESSION_CODEC).trim().toLowerCase(Locale.ROOT);
        CompressionType type = compressionType(options);
        SequenceFileWriterFactory factory = new SequenceFileWriterFactory(value, codec, type);
        requireWorkingCodec(factory, value, codec);
        return factory;
    }

    @Override
    public StreamFormat<RowData> createStreamFormat(FormatContext context) {
        RowType rowType = context.rowType();
        return new SequenceFileStreamFormat(rowType, SequenceFileValue.of(IDENTIFIER, rowType));
    }

    private static CompressionType compressionType(ReadableConfig options) {
        CompressionType type = OptionValues.enumValue(IDENTIFIER, options, COMPRESSION_TYPE, CompressionType.class);
        if (type == CompressionType.NONE) {
            // no compression is said by the codec alone, so that the two cannot disagree
            throw OptionValues.invalid(
                    IDENTIFIER,
                    COMPRESSION_TYPE,
                    options.get(COMPRESSION_TYPE),
                    "expected RECORD or BLOCK (set 'compression.codec' to 'none' for none)");
        }
        return type;
    }

    /**
     * Writes one record into memory, so that an unknown codec, or one whose library does not load
     * here, fails where the option can be named rather than when the first part file opens.
     */
    private static void requireWorkingCodec(SequenceFileWriterFactory factory, SequenceFileValue value, String codec) {
        RowData probe = value == SequenceFileValue.TEXT
                ? GenericRowData.of(StringData.fromString("probe"))
                : GenericRowData.of((Object) new byte[] {1});
        try {
            BulkWriter<RowData> writer = factory.create(new ByteArrayOutputStream());
            writer.addElement(probe);
            writer.finish();
        } catch (VirtualMachineError e) {
            throw e;
        } catch (IOException | RuntimeException | Error e) {
            // a native library that does not load shows as an Error
            throw OptionValues.invalid(
                    IDENTIFIER, COMPRESSION_CODEC, codec, "not a codec that works here: " + e.getMessage());
        }
    }
}

package io.sluice.plugin.formats.avro;

import io.sluice.plugin.formats.FileFormats;
import io.sluice.plugin.formats.OptionValues;
import io.sluice.plugin.formats.bulk.FileNamingBulkFormat;
import io.sluice.spi.format.FormatContext;

import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;
import org.apache.avro.file.CodecFactory;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.flink.api.common.serialization.BulkWriter;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.connector.file.src.FileSourceSplit;
import org.apache.flink.connector.file.src.reader.BulkFormat;
import org.apache.flink.formats.avro.AvroFormatOptions;
import org.apache.flink.formats.avro.typeutils.AvroSchemaConverter;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.pf4j.Extension;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Set;

/**
 * The {@code avro} bulk format: Avro object container files whose schema is derived from the row
 * type by Flink's {@link AvroSchemaConverter}, as Flink's own avro format derives it, so files are
 * interchangeable with Flink's filesystem connector.
 *
 * <p>Options, as Flink names them ({@link AvroFormatOptions}): {@code codec} (table option {@code
 * avro.codec}): {@code null}, {@code deflate}, {@code snappy} (the default), {@code bzip2}, {@code
 * xz} or {@code zstandard}; and {@code timestamp_mapping.legacy} (default true, as upstream):
 * whether {@code TIMESTAMP} maps to Avro's {@code timestamp-*} rather than {@code
 * local-timestamp-*} logical types.
 *
 * <p>Read with Flink's Avro bulk reader, which splits files at Avro's sync markers, after a check
 * that the file is not cut short ({@link CompleteAvroFileFormat}). The reader
 * schema is the one derived from the columns to read, so Avro's schema resolution projects the
 * file's records onto them by field name; a field the file lacks must be nullable and reads as
 * null.
 */
@Extension
public final class AvroFormatFactory implements FileFormats.BulkFile {

    /** The name users select this format by. */
    public static final String IDENTIFIER = "avro";

    /** Compression codec of the file's blocks, in Avro's own names. */
    public static final ConfigOption<String> CODEC = AvroFormatOptions.AVRO_OUTPUT_CODEC;

    /** Whether TIMESTAMP maps to Avro's timestamp types (legacy) or local-timestamp types. */
    public static final ConfigOption<Boolean> TIMESTAMP_LEGACY_MAPPING =
            AvroFormatOptions.AVRO_TIMESTAMP_LEGACY_MAPPING;

    @Override
    public String identifier() {
        return IDENTIFIER;
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        return Set.of(CODEC, TIMESTAMP_LEGACY_MAPPING);
    }

    @Override
    public BulkWriter.Factory<RowData> createBulkWriterFactory(FormatContext context) {
        String codec = context.options().get(CODEC);
        requireWorkingCodec(codec);
        boolean legacy = context.options().get(TIMESTAMP_LEGACY_MAPPING);
        RowType rowType = context.rowType();
        schema(rowType, legacy);
        return new AvroRowDataWriterFactory(rowType, codec, legacy);
    }

    @Override
    public BulkFormat<RowData, FileSourceSplit> createBulkFormat(FormatContext context) {
        RowType rowType = context.rowType();
        boolean legacy = context.options().get(TIMESTAMP_LEGACY_MAPPING);
        return new FileNamingBulkFormat(
                IDENTIFIER,
                new CompleteAvroFileFormat(new AvroRowDataBulkFormat(rowType, schema(rowType, legacy), legacy)),
                AvroDeclaredTypes.check(rowType, legacy));
    }

    /**
     * The Avro record schema of the row type, or a clear error naming the type Avro cannot hold.
     * The row itself is never null: a nullable row type would make the file's schema a union of
     * null and the record, which Avro readers do not expect of a container file.
     */
    static Schema schema(RowType rowType, boolean legacyTimestampMapping) {
        try {
            return AvroSchemaConverter.convertToSchema(rowType.copy(false), legacyTimestampMapping);
        } catch (UnsupportedOperationException | IllegalArgumentException e) {
            // the column Avro cannot hold, as the Parquet and ORC errors name theirs
            for (RowType.RowField field : rowType.getFields()) {
                try {
                    AvroSchemaConverter.convertToSchema(field.getType(), legacyTimestampMapping);
                } catch (UnsupportedOperationException | IllegalArgumentException columnError) {
                    throw new IllegalArgumentException(
                            String.format(
                                    "Format '%s' cannot write column '%s': its type %s has no Avro type (%s)",
                                    IDENTIFIER,
                                    field.getName(),
                                    field.getType().asSummaryString(),
                                    columnError.getMessage()),
                            e);
                }
            }
            throw new IllegalArgumentException(
                    String.format(
                            "Format '%s' cannot hold the row type %s: %s",
                            IDENTIFIER, rowType.asSummaryString(), e.getMessage()),
                    e);
        }
    }

    /**
     * Fails here, where the option can be named, for a codec Avro does not know or whose library
     * (snappy-java, zstd-jni, xz, commons-compress) does not load; Avro itself would only notice
     * when the first block is written.
     */
    private static void requireWorkingCodec(String name) {
        CodecFactory codec;
        try {
            codec = CodecFactory.fromString(name);
        } catch (AvroRuntimeException e) {
            throw OptionValues.invalid(
                    IDENTIFIER, CODEC, name, "expected one of null, deflate, snappy, bzip2, xz, zstandard");
        }
        // a one-record file in memory makes the codec compress a block, loading its library
        Schema probe = Schema.create(Schema.Type.INT);
        try (DataFileWriter<Integer> writer = new DataFileWriter<>(new GenericDatumWriter<>(probe))) {
            writer.setCodec(codec);
            writer.create(probe, new ByteArrayOutputStream());
            writer.append(0);
        } catch (VirtualMachineError e) {
            throw e;
        } catch (IOException | RuntimeException | Error e) {
            // a native library that does not load shows as an Error (snappy-java's SnappyError)
            throw OptionValues.invalid(IDENTIFIER, CODEC, name, "the codec does not work here: " + e);
        }
    }
}

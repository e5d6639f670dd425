package io.sluice.partfiles;

import io.sluice.spi.ExtensionLookup;
import io.sluice.spi.format.BulkWritingFormat;
import io.sluice.spi.format.FormatContext;
import io.sluice.spi.format.Formats;
import io.sluice.spi.format.RowEncodingFormat;

import org.apache.flink.api.common.serialization.BulkWriter;
import org.apache.flink.api.common.serialization.Encoder;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.core.fs.Path;
import org.apache.flink.core.fs.RecoverableFsDataOutputStream;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.utils.ProjectedRowData;
import org.apache.flink.table.types.logical.RowType;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The format side of part files: the encoder or bulk writer factory of the chosen format, and the
 * projection that drops partition columns (their values live in the directory names, as in
 * Flink's filesystem connector).
 *
 * <p>Public so that a target names its format and the columns its paths hold ({@link #create});
 * the engine does the rest ({@link PartFiles.Builder#writers}).
 */
public final class PartWriters {

    private final ExtensionLookup extensions; // finds the format's reader, for compaction
    private final String format;
    private final FormatContext fileContext; // the file's columns and the format's options
    private final Encoder<RowData> encoder; // row formats
    private final BulkWriter.Factory<RowData> bulkFactory; // bulk formats
    private final int[] projection; // null: whole row
    private final RowType rowType; // the rows' columns, path columns included

    private PartWriters(
            ExtensionLookup extensions,
            String format,
            RowType rowType,
            FormatContext fileContext,
            Encoder<RowData> encoder,
            BulkWriter.Factory<RowData> bulkFactory,
            int[] projection) {
        this.extensions = extensions;
        this.format = format;
        this.rowType = rowType;
        this.fileContext = fileContext;
        this.encoder = encoder;
        this.bulkFactory = bulkFactory;
        this.projection = projection;
    }

    /**
     * The writers of {@code format} for rows of {@code rowType}, the format's options being the
     * {@code <format>.}-prefixed ones of {@code rawOptions} (without the prefix).
     *
     * @param pathColumns the columns whose values are in the directory names, not in the files
     *     (partition columns); empty for none
     * @throws IllegalArgumentException for an unknown format or invalid format options
     */
    public static PartWriters create(
            ExtensionLookup extensions,
            String format,
            RowType rowType,
            Map<String, String> rawOptions,
            List<String> pathColumns) {
        int[] projection = projection(rowType, pathColumns);
        RowType fileType = projection == null ? rowType : project(rowType, projection);
        FormatContext formatContext = new PrefixedFormatContext(fileType, formatOptions(rawOptions, format));
        if (Formats.offers(extensions, BulkWritingFormat.class, format)) {
            BulkWriter.Factory<RowData> bulk =
                    extensions.find(BulkWritingFormat.class, format).createBulkWriterFactory(formatContext);
            return new PartWriters(extensions, format, rowType, formatContext, null, bulk, projection);
        }
        Encoder<RowData> encoder = Formats.require(extensions, RowEncodingFormat.class, format, "be written")
                .createEncoder(formatContext);
        return new PartWriters(extensions, format, rowType, formatContext, encoder, null, projection);
    }

    /**
     * The same format and columns, but bulk files written by {@code factory} (rows of the file's
     * columns, partition columns left out): for a target with its own writer of the format, such
     * as Hive's record writers. The format still reads the files back, for compaction.
     */
    public PartWriters withBulkWriter(BulkWriter.Factory<RowData> factory) {
        return new PartWriters(extensions, format, rowType, fileContext, null, factory, projection);
    }

    /** The rows' columns, the path columns included. */
    RowType rowType() {
        return rowType;
    }

    /** The file's columns: the row type without the path columns. */
    public RowType fileType() {
        return fileContext.rowType();
    }

    /** Reads a finished part file back, as rows of the file's columns (what compaction merges). */
    PartFileReader read(Path file) throws IOException {
        return PartFileReader.open(extensions, format, fileContext, file);
    }

    boolean isBulk() {
        return bulkFactory != null;
    }

    /** Starts writing a part file into the given stream. */
    PartFile open(String bucketId, Path path, RecoverableFsDataOutputStream stream, long now) throws IOException {
        PositionCountingStream counted = new PositionCountingStream(stream);
        BulkWriter<RowData> bulk = bulkFactory == null ? null : bulkFactory.create(counted);
        ProjectedRowData projected = projection == null ? null : ProjectedRowData.from(projection);
        return new PartFile(bucketId, path, stream, counted, encoder, bulk, projected, now);
    }

    /**
     * Starts writing a file of rows that already have the file's columns (rows read back from part
     * files, by compaction): no projection.
     */
    PartFile openForFileRows(String bucketId, RecoverableFsDataOutputStream stream, long now) throws IOException {
        PositionCountingStream counted = new PositionCountingStream(stream);
        BulkWriter<RowData> bulk = bulkFactory == null ? null : bulkFactory.create(counted);
        return new PartFile(bucketId, null, stream, counted, encoder, bulk, null, now);
    }

    /** Resumes a row-format part file after a restore. */
    PartFile resume(
            String bucketId, Path path, RecoverableFsDataOutputStream stream, long creationTime, long lastUpdate)
            throws IOException {
        ProjectedRowData projected = projection == null ? null : ProjectedRowData.from(projection);
        PartFile file = new PartFile(
                bucketId, path, stream, new PositionCountingStream(stream), encoder, null, projected, creationTime);
        file.touch(lastUpdate);
        return file;
    }

    private static int[] projection(RowType rowType, List<String> pathColumns) {
        if (pathColumns.isEmpty()) {
            return null;
        }
        List<String> names = rowType.getFieldNames();
        List<Integer> kept = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            if (!pathColumns.contains(names.get(i))) {
                kept.add(i);
            }
        }
        return kept.stream().mapToInt(Integer::intValue).toArray();
    }

    private static RowType project(RowType type, int[] projection) {
        List<RowType.RowField> fields = new ArrayList<>();
        for (int i : projection) {
            fields.add(type.getFields().get(i));
        }
        return new RowType(type.isNullable(), fields);
    }

    private static Configuration formatOptions(Map<String, String> all, String format) {
        String prefix = format + ".";
        Map<String, String> own = new HashMap<>();
        for (Map.Entry<String, String> e : all.entrySet()) {
            if (e.getKey().startsWith(prefix)) {
                own.put(e.getKey().substring(prefix.length()), e.getValue());
            }
        }
        return Configuration.fromMap(own);
    }

    private static final class PrefixedFormatContext implements FormatContext {
        private final RowType rowType;
        private final ReadableConfig options;

        PrefixedFormatContext(RowType rowType, ReadableConfig options) {
            this.rowType = rowType;
            this.options = options;
        }

        @Override
        public RowType rowType() {
            return rowType;
        }

        @Override
        public ReadableConfig options() {
            return options;
        }
    }
}

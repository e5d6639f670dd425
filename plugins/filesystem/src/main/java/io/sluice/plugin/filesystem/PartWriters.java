package io.sluice.plugin.filesystem;

import io.sluice.spi.FileOptions;

import io.sluice.spi.ExtensionLookup;
import io.sluice.spi.format.FormatContext;
import io.sluice.spi.format.BulkWritingFormat;
import io.sluice.spi.format.Formats;
import io.sluice.spi.format.RowEncodingFormat;
import io.sluice.spi.sink.SinkContext;

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
 */
final class PartWriters {

    private final ExtensionLookup extensions; // finds the format's reader, for compaction
    private final String format;
    private final FormatContext fileContext; // the file's columns and the format's options
    private final Encoder<RowData> encoder; // row formats
    private final BulkWriter.Factory<RowData> bulkFactory; // bulk formats
    private final int[] projection; // null: whole row

    private PartWriters(ExtensionLookup extensions, String format, FormatContext fileContext, Encoder<RowData> encoder,
            BulkWriter.Factory<RowData> bulkFactory, int[] projection) {
        this.extensions = extensions;
        this.format = format;
        this.fileContext = fileContext;
        this.encoder = encoder;
        this.bulkFactory = bulkFactory;
        this.projection = projection;
    }

    /** @throws IllegalArgumentException for an unknown format or invalid format options */
    static PartWriters create(SinkContext context) {
        String format = context.options().get(FileOptions.FORMAT);
        ExtensionLookup extensions = context.extensions();
        int[] projection = projection(context);
        RowType fileType = projection == null ? context.rowType() : project(context.rowType(), projection);
        FormatContext formatContext = new PrefixedFormatContext(fileType, formatOptions(context.rawOptions(), format));
        if (Formats.offers(extensions, BulkWritingFormat.class, format)) {
            BulkWriter.Factory<RowData> bulk = extensions.find(BulkWritingFormat.class, format)
                    .createBulkWriterFactory(formatContext);
            return new PartWriters(extensions, format, formatContext, null, bulk, projection);
        }
        Encoder<RowData> encoder = Formats.require(extensions, RowEncodingFormat.class, format, "be written")
                .createEncoder(formatContext);
        return new PartWriters(extensions, format, formatContext, encoder, null, projection);
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
    PartFile resume(String bucketId, Path path, RecoverableFsDataOutputStream stream, long creationTime, long lastUpdate)
            throws IOException {
        ProjectedRowData projected = projection == null ? null : ProjectedRowData.from(projection);
        PartFile file = new PartFile(bucketId, path, stream, new PositionCountingStream(stream), encoder, null, projected,
                creationTime);
        file.touch(lastUpdate);
        return file;
    }

    private static int[] projection(SinkContext context) {
        List<String> keys = context.partitionKeys();
        String assigner = context.options().getOptional(FileOptions.BUCKET_ASSIGNER)
                .orElse(keys.isEmpty() ? "base-path" : "partition");
        if (keys.isEmpty() || !assigner.equals("partition")) {
            return null;
        }
        List<String> names = context.rowType().getFieldNames();
        List<Integer> kept = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            if (!keys.contains(names.get(i))) {
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

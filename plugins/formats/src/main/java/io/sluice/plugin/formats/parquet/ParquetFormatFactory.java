package io.sluice.plugin.formats.parquet;

import io.sluice.plugin.formats.FileFormats;
import io.sluice.plugin.formats.bulk.FileNamingBulkFormat;
import io.sluice.spi.format.FormatContext;

import org.apache.flink.api.common.serialization.BulkWriter;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.connector.file.src.FileSourceSplit;
import org.apache.flink.connector.file.src.reader.BulkFormat;
import org.apache.flink.formats.parquet.ParquetColumnarRowInputFormat;
import org.apache.flink.formats.parquet.row.ParquetRowDataBuilder;
import org.apache.flink.formats.parquet.utils.ParquetSchemaConverter;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.columnar.vector.VectorizedColumnBatch;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;
import org.apache.hadoop.conf.Configuration;
import org.pf4j.Extension;

import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The {@code parquet} bulk format, written by Flink's Parquet writer for {@link RowData} and read
 * by Flink's vectorized Parquet reader. The options are listed in {@link ParquetOptions}; of them
 * only {@code utc-timezone} matters for reading.
 *
 * <p>Known limits of Flink's (1.20) reader, which the plugin passes on rather than patch:
 * timestamps before 1970 with a fraction of a second read wrong or fail unless {@code
 * utc-timezone} is true (Flink writes such INT96 values with a negative time of day, which its
 * local-time conversion mishandles; INT64 timestamps fail the same way), and an empty array or
 * map reads back as one holding a single null.
 */
@Extension
public final class ParquetFormatFactory implements FileFormats.BulkFile {

    /** The name users select this format by. */
    public static final String IDENTIFIER = "parquet";

    // as Flink's parquet format reads: a column named "ID" is not the column "id"
    private static final boolean CASE_SENSITIVE = true;

    // the name Flink's writer gives the message type, which the direct writer gives it too
    static final String SCHEMA_NAME = "flink_schema";

    @Override
    public String identifier() {
        return IDENTIFIER;
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        return new LinkedHashSet<>(ParquetOptions.ALL);
    }

    @Override
    public BulkWriter.Factory<RowData> createBulkWriterFactory(FormatContext context) {
        RowType rowType = context.rowType();
        Configuration conf = ParquetWriterConfiguration.create(context.options());
        requireConvertible(rowType, conf);
        boolean utc = context.options().get(ParquetOptions.UTC_TIMEZONE);
        boolean int64 = context.options().get(ParquetOptions.WRITE_INT64_TIMESTAMP);
        if (!int64 && DirectParquetWriterFactory.writes(rowType)) {
            // flat rows, INT96 timestamps: the same files without Flink's per-value record consumer
            return new DirectParquetWriterFactory(rowType, conf, utc);
        }
        BulkWriter.Factory<RowData> writer = ParquetRowDataBuilder.createWriterFactory(rowType, conf, utc);
        boolean int64Nanos =
                int64 && "nanos".equalsIgnoreCase(context.options().get(ParquetOptions.TIMESTAMP_TIME_UNIT));
        return int64Nanos ? NanosTimestampRange.of(writer, rowType, utc) : writer;
    }

    /**
     * Flink's vectorized Parquet reader, for the columns of the context's row type: columns are
     * matched by name (case-sensitive, as upstream), so the file may hold more columns than are
     * read, and a column the file lacks reads as null.
     */
    @Override
    public BulkFormat<RowData, FileSourceSplit> createBulkFormat(FormatContext context) {
        RowType rowType = context.rowType();
        Configuration conf = ParquetWriterConfiguration.forReading();
        return new FileNamingBulkFormat(
                IDENTIFIER,
                new ParquetColumnarRowInputFormat<>(
                        conf,
                        rowType,
                        InternalTypeInfo.of(rowType),
                        VectorizedColumnBatch.DEFAULT_SIZE,
                        context.options().get(ParquetOptions.UTC_TIMEZONE),
                        CASE_SENSITIVE),
                ParquetDeclaredTypes.check(rowType));
    }

    private static void requireConvertible(RowType rowType, Configuration conf) {
        // the writer would only find an unsupported column type when it opens the first file
        try {
            ParquetSchemaConverter.convertToParquetMessageType(SCHEMA_NAME, rowType, conf);
        } catch (UnsupportedOperationException | IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    String.format(
                            "Format '%s' cannot write the row type %s: %s",
                            IDENTIFIER, rowType.asSummaryString(), e.getMessage()),
                    e);
        }
    }
}

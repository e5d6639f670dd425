package io.sluice.plugin.formats;

import io.sluice.spi.format.FormatContext;
import io.sluice.spi.format.FormatFactory;

import org.apache.flink.api.common.serialization.BulkWriter;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.formats.parquet.row.ParquetRowDataBuilder;
import org.apache.flink.formats.parquet.utils.ParquetSchemaConverter;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.hadoop.conf.Configuration;
import org.pf4j.Extension;

import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The {@code parquet} bulk format, written by Flink's Parquet writer for {@link RowData}. The
 * options are listed in {@link ParquetOptions}.
 */
@Extension
public final class ParquetFormatFactory implements FormatFactory {

    /** The name users select this format by. */
    public static final String IDENTIFIER = "parquet";

    // the name Flink's writer gives the message type; only used to check the row type early
    private static final String SCHEMA_NAME = "flink_schema";

    @Override
    public String identifier() {
        return IDENTIFIER;
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        return new LinkedHashSet<>(ParquetOptions.ALL);
    }

    @Override
    public boolean isBulk() {
        return true;
    }

    @Override
    public BulkWriter.Factory<RowData> createBulkWriterFactory(FormatContext context) {
        RowType rowType = context.rowType();
        Configuration conf = ParquetWriterConfiguration.create(context.options());
        requireConvertible(rowType, conf);
        return ParquetRowDataBuilder.createWriterFactory(
                rowType, conf, context.options().get(ParquetOptions.UTC_TIMEZONE));
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

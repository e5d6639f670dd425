package io.sluice.plugin.formats.parquet;

import org.apache.flink.api.common.serialization.BulkWriter;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.formats.parquet.utils.ParquetSchemaConverter;
import org.apache.flink.formats.parquet.utils.SerializableConfiguration;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.schema.MessageType;

import java.io.IOException;

/**
 * {@link DirectParquetWriter}s of one row type. Only for row types {@link #writes} accepts: flat
 * rows of primitive fields with INT96 timestamps, the common case; rows with decimals, nested rows,
 * arrays, maps or INT64 timestamps go to Flink's writer.
 */
final class DirectParquetWriterFactory implements BulkWriter.Factory<RowData> {

    private static final long serialVersionUID = 1L;

    private final RowType rowType;
    private final SerializableConfiguration conf;
    private final boolean utcTimestamp;

    DirectParquetWriterFactory(RowType rowType, Configuration conf, boolean utcTimestamp) {
        if (!writes(rowType)) {
            throw new IllegalArgumentException("Not a row of primitive fields: " + rowType.asSummaryString());
        }
        this.rowType = rowType;
        this.conf = new SerializableConfiguration(conf);
        this.utcTimestamp = utcTimestamp;
    }

    /** Whether every field of the row type has a {@link ParquetFieldWriter}. */
    static boolean writes(RowType rowType) {
        for (LogicalType field : rowType.getChildren()) {
            if (ParquetFieldWriter.forType(field, false) == null) {
                return false;
            }
        }
        return rowType.getFieldCount() > 0;
    }

    @Override
    public BulkWriter<RowData> create(FSDataOutputStream out) throws IOException {
        Configuration configuration = conf.conf();
        MessageType schema = ParquetSchemaConverter.convertToParquetMessageType(
                ParquetFormatFactory.SCHEMA_NAME, rowType, configuration);
        ParquetFieldWriter[] fields = new ParquetFieldWriter[rowType.getFieldCount()];
        for (int i = 0; i < fields.length; i++) {
            fields[i] = ParquetFieldWriter.forType(rowType.getTypeAt(i), utcTimestamp);
        }
        return DirectParquetWriter.open(out, schema, fields, configuration);
    }
}

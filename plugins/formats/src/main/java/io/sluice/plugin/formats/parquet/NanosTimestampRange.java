package io.sluice.plugin.formats.parquet;

import org.apache.flink.api.common.serialization.BulkWriter;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * INT64 nanosecond timestamps hold 1677-09-21 to 2262-04-11 only; Flink's Parquet writer
 * multiplies without a check, so a timestamp outside that range is stored as another year. This
 * writer checks each timestamp column's value first and fails naming the column and the value.
 * Only in front of a writer of INT64 nanos: every other unit holds every timestamp Flink has.
 */
final class NanosTimestampRange implements BulkWriter.Factory<RowData> {

    private static final long serialVersionUID = 1L;

    private final BulkWriter.Factory<RowData> delegate;
    private final int[] columns;
    private final int[] precisions;
    private final String[] names;
    private final boolean utc;

    private NanosTimestampRange(
            BulkWriter.Factory<RowData> delegate, int[] columns, int[] precisions, String[] names, boolean utc) {
        this.delegate = delegate;
        this.columns = columns;
        this.precisions = precisions;
        this.names = names;
        this.utc = utc;
    }

    /** {@code writer}, checked where the row type has top-level timestamp columns. */
    static BulkWriter.Factory<RowData> of(BulkWriter.Factory<RowData> writer, RowType rowType, boolean utc) {
        List<Integer> columns = new ArrayList<>();
        for (int i = 0; i < rowType.getFieldCount(); i++) {
            LogicalTypeRoot root = rowType.getTypeAt(i).getTypeRoot();
            if (root == LogicalTypeRoot.TIMESTAMP_WITHOUT_TIME_ZONE
                    || root == LogicalTypeRoot.TIMESTAMP_WITH_LOCAL_TIME_ZONE) {
                columns.add(i);
            }
        }
        if (columns.isEmpty()) {
            return writer;
        }
        int[] indexes = columns.stream().mapToInt(Integer::intValue).toArray();
        int[] precisions = new int[indexes.length];
        String[] names = new String[indexes.length];
        for (int i = 0; i < indexes.length; i++) {
            LogicalType type = rowType.getTypeAt(indexes[i]);
            precisions[i] = type instanceof TimestampType
                    ? ((TimestampType) type).getPrecision()
                    : ((LocalZonedTimestampType) type).getPrecision();
            names[i] = rowType.getFieldNames().get(indexes[i]);
        }
        return new NanosTimestampRange(writer, indexes, precisions, names, utc);
    }

    @Override
    public BulkWriter<RowData> create(FSDataOutputStream out) throws IOException {
        BulkWriter<RowData> writer = delegate.create(out);
        return new BulkWriter<>() {
            @Override
            public void addElement(RowData row) throws IOException {
                check(row);
                writer.addElement(row);
            }

            @Override
            public void flush() throws IOException {
                writer.flush();
            }

            @Override
            public void finish() throws IOException {
                writer.finish();
            }
        };
    }

    private void check(RowData row) throws IOException {
        for (int i = 0; i < columns.length; i++) {
            if (row.isNullAt(columns[i])) {
                continue;
            }
            TimestampData ts = row.getTimestamp(columns[i], precisions[i]);
            // the epoch millis Flink's writer starts from: the instant in UTC, or the local time's
            long millis = utc ? ts.getMillisecond() : ts.toTimestamp().getTime();
            try {
                Math.addExact(Math.multiplyExact(millis, 1_000_000L), ts.getNanoOfMillisecond());
            } catch (ArithmeticException outOfRange) {
                throw new io.sluice.spi.NonRecoverableException("Column '" + names[i] + "' holds " + ts
                        + ", which INT64 nanosecond timestamps cannot hold (1677-09-21 to 2262-04-11): write it with"
                        + " 'parquet.timestamp.time.unit' = 'micros' or 'millis', or as INT96 ('parquet.write.int64.timestamp'"
                        + " = 'false')");
            }
        }
    }
}

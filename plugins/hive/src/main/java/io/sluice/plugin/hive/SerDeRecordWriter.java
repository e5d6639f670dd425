package io.sluice.plugin.hive;

import io.sluice.spi.Payload;
import io.sluice.spi.sink.PendingCommit;
import io.sluice.spi.sink.RecordContext;
import io.sluice.spi.sink.TargetWriter;

import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.utils.JoinedRowData;
import org.apache.flink.table.data.utils.ProjectedRowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The writer of a text or SequenceFile table: each row becomes the record the table's SerDe
 * serializes ({@link SerDeRecords}), which the part files hold as a line ({@code text}) or as a
 * SequenceFile's {@code Text} value ({@code sequence-file}), both the {@code formats} plugin's. The
 * part-file writer sees rows of {@link #recordType}: the record, then the partition keys (for the
 * bucket, not in the file).
 */
final class SerDeRecordWriter implements TargetWriter {

    /** The column of the serialized record in the rows the part files get. */
    static final String RECORD_COLUMN = "_sluice_serde_record";

    private final TargetWriter files;
    private final SerDeRecords records;
    private final ProjectedRowData fileColumns;
    private final ProjectedRowData keys;
    private final GenericRowData record = new GenericRowData(1);
    private final JoinedRowData joined = new JoinedRowData();

    SerDeRecordWriter(TargetWriter files, SerDeRecords records, RowType rowType, List<String> partitionKeys) {
        this.files = files;
        this.records = records;
        List<Integer> data = new ArrayList<>();
        for (int i = 0; i < rowType.getFieldCount(); i++) {
            if (!partitionKeys.contains(rowType.getFieldNames().get(i))) {
                data.add(i);
            }
        }
        this.fileColumns =
                ProjectedRowData.from(data.stream().mapToInt(Integer::intValue).toArray());
        this.keys = ProjectedRowData.from(
                partitionKeys.stream().mapToInt(rowType::getFieldIndex).toArray());
    }

    /** The record column, then the partition keys of {@code rowType}. */
    static RowType recordType(RowType rowType, List<String> partitionKeys) {
        List<RowType.RowField> fields = new ArrayList<>();
        fields.add(new RowType.RowField(RECORD_COLUMN, new VarCharType(false, VarCharType.MAX_LENGTH)));
        for (String key : partitionKeys) {
            fields.add(rowType.getFields().get(rowType.getFieldIndex(key)));
        }
        return new RowType(false, fields);
    }

    /** The table's columns without the partition keys: what the SerDe serializes. */
    static RowType fileType(RowType rowType, List<String> partitionKeys) {
        List<RowType.RowField> fields = new ArrayList<>();
        for (RowType.RowField field : rowType.getFields()) {
            if (!partitionKeys.contains(field.getName())) {
                fields.add(field);
            }
        }
        return new RowType(rowType.isNullable(), fields);
    }

    @Override
    public void write(RowData row, RecordContext context) throws IOException {
        fileColumns.replaceRow(row);
        record.setField(0, StringData.fromBytes(records.serialize(fileColumns)));
        keys.replaceRow(row);
        joined.replace(record, keys);
        files.write(joined, context);
    }

    @Override
    public List<PendingCommit> prepareCommit(boolean endOfInput) throws IOException {
        return files.prepareCommit(endOfInput);
    }

    @Override
    public List<Payload> snapshotState(long checkpointId) throws IOException {
        return files.snapshotState(checkpointId);
    }

    @Override
    public long processingTimeInterval() {
        return files.processingTimeInterval();
    }

    @Override
    public void onProcessingTime(long currentTime) throws IOException {
        files.onProcessingTime(currentTime);
    }

    @Override
    public boolean isIdle() {
        return files.isIdle();
    }

    @Override
    public void close() throws Exception {
        files.close();
    }
}

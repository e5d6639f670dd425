package io.sluice.plugin.iceberg;

import io.sluice.spi.Payload;
import io.sluice.spi.sink.CommitRequest;
import io.sluice.spi.sink.PendingCommit;
import io.sluice.spi.sink.RecordContext;
import io.sluice.spi.sink.TargetWriter;

import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/** Rows, writes and commit requests for the unit tests. */
final class Writes {

    /** {@code id BIGINT, name STRING}. */
    static final RowType ROW = RowType.of(
            new LogicalType[] {new BigIntType(), new VarCharType(VarCharType.MAX_LENGTH)}, new String[] {"id", "name"});

    static final RecordContext NO_TIME = new RecordContext() {
        @Override
        public long currentProcessingTime() {
            return 0;
        }

        @Override
        public long currentWatermark() {
            return Long.MIN_VALUE;
        }

        @Override
        public Long timestamp() {
            return null;
        }
    };

    private Writes() {}

    static RowData row(long id, String name) {
        return GenericRowData.of(id, name == null ? null : StringData.fromString(name));
    }

    /** Writes rows {@code from..to} (name {@code "n<id>"}) and returns the payloads of the checkpoint. */
    static List<Payload> write(TargetWriter writer, long from, long to) throws IOException {
        for (long id = from; id <= to; id++) {
            writer.write(row(id, "n" + id), NO_TIME);
        }
        return writer.prepareCommit(false).stream().map(PendingCommit::payload).collect(Collectors.toList());
    }

    static CommitRequest request(String jobId, String operatorId, long checkpointId, List<Payload> pending) {
        return CommitRequest.of(jobId, operatorId, "", checkpointId, pending);
    }

    /** The ids in the table, through Iceberg's generic reader, sorted. */
    static List<Long> ids(Table table) throws IOException {
        table.refresh();
        List<Long> ids = new ArrayList<>();
        try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
            for (Record r : records) {
                ids.add((Long) r.getField("id"));
            }
        }
        ids.sort(null);
        return ids;
    }

    static int snapshots(Table table) {
        table.refresh();
        int n = 0;
        for (Object ignored : table.snapshots()) {
            n++;
        }
        return n;
    }
}

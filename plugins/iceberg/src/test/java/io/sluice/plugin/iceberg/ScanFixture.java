package io.sluice.plugin.iceberg;

import io.sluice.spi.Payload;
import io.sluice.spi.sink.PendingCommit;
import io.sluice.spi.sink.TargetCommitter;
import io.sluice.spi.sink.TargetWriter;
import io.sluice.spi.source.PlannedSplit;
import io.sluice.spi.source.ScanPlan;
import io.sluice.spi.source.ScanPlanner;
import io.sluice.spi.source.ScanSplitReader;
import io.sluice.spi.source.SplitRows;
import io.sluice.testkit.TestSinkContext;

import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;
import org.apache.iceberg.Table;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;
import java.util.stream.Collectors;

/**
 * Table {@code db.t} written by the iceberg target (one snapshot with one data file per {@link
 * #commit}), planned and read by the scan source, rows as strings for assertions.
 */
final class ScanFixture {

    private static final String OPERATOR = "000000000000000000000000000000bb";

    final IcebergScanSourceFactory source = new IcebergScanSourceFactory();
    private final IcebergTargetFactory target = new IcebergTargetFactory();
    private final TestSinkContext sink;
    private long checkpoint;

    /** Creates the table of {@code sink} (the target creates it from the sink's row type). */
    ScanFixture(TestSinkContext sink) {
        this.sink = sink;
        target.validate(sink);
    }

    /** Commits rows {@code from..to} (name {@code "n<id>"}) as one snapshot; returns its id. */
    long append(long from, long to) throws Exception {
        List<RowData> rows = new ArrayList<>();
        for (long id = from; id <= to; id++) {
            rows.add(Writes.row(id, "n" + id));
        }
        return commit(rows);
    }

    /** Commits the rows (their row kinds count in upsert mode) as one snapshot; returns its id. */
    long commit(List<RowData> rows) throws Exception {
        List<Payload> pending = new ArrayList<>();
        try (TargetWriter writer = target.createWriter(sink, new ArrayList<>())) {
            for (RowData row : rows) {
                writer.write(row, Writes.NO_TIME);
            }
            pending.addAll(writer.prepareCommit(false).stream()
                    .map(PendingCommit::payload)
                    .collect(Collectors.toList()));
        }
        try (TargetCommitter committer = target.createCommitter(sink)) {
            committer.commit(Writes.request(IcebergSinks.JOB, OPERATOR, ++checkpoint, pending));
        }
        try (CatalogTable table = CatalogTable.load(sink.options())) {
            return table.table().currentSnapshot().snapshotId();
        }
    }

    /** Runs {@code action} on the table, freshly loaded. */
    <T> T onTable(java.util.function.Function<Table, T> action) throws IOException {
        try (CatalogTable table = CatalogTable.load(sink.options())) {
            return action.apply(table.table());
        }
    }

    /** The splits of one plan of a new planner. */
    ScanPlan planOnce(TestSourceContext context) throws IOException {
        try (ScanPlanner planner = source.createPlanner(context)) {
            return planner.plan(null);
        }
    }

    /** All rows of the splits, split after split. */
    List<String> read(TestSourceContext context, List<PlannedSplit> splits) throws IOException {
        List<String> rows = new ArrayList<>();
        try (ScanSplitReader reader = source.createReader(context)) {
            for (PlannedSplit split : splits) {
                try (SplitRows splitRows = reader.open(split.payload(), 0, 0)) {
                    rows.addAll(drain(splitRows, context.rowType(), Integer.MAX_VALUE));
                }
            }
        }
        return rows;
    }

    /** Up to {@code max} rows. */
    static List<String> drain(SplitRows rows, RowType type, int max) throws IOException {
        List<String> read = new ArrayList<>();
        RowData row;
        while (read.size() < max && (row = rows.next()) != null) {
            read.add(format(row, type));
        }
        return read;
    }

    /** The row's fields, comma-separated, in the row type's order. */
    static String format(RowData row, RowType type) {
        StringJoiner fields = new StringJoiner(",");
        for (int i = 0; i < type.getFieldCount(); i++) {
            fields.add(String.valueOf(
                    RowData.createFieldGetter(type.getTypeAt(i), i).getFieldOrNull(row)));
        }
        return fields.toString();
    }

    static RowData row(RowKind kind, long id, String name) {
        GenericRowData row = GenericRowData.of(id, name == null ? null : StringData.fromString(name));
        row.setRowKind(kind);
        return row;
    }
}

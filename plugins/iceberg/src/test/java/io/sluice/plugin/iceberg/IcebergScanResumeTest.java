package io.sluice.plugin.iceberg;

import io.sluice.spi.Payload;
import io.sluice.spi.source.PlannedSplit;
import io.sluice.spi.source.ScanSplitReader;
import io.sluice.spi.source.SplitRows;

import org.apache.flink.types.RowKind;
import org.apache.iceberg.BaseCombinedScanTask;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.flink.source.split.IcebergSourceSplit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static io.sluice.plugin.iceberg.ScanFixture.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A split opened at the position reached after any row yields exactly the rows after it, also
 * across files of the split and when a file's rows are all deleted.
 */
class IcebergScanResumeTest {

    @TempDir
    Path warehouse;

    @Test
    void resumingAfterEveryRowYieldsExactlyTheRest() throws Exception {
        ScanFixture table =
                new ScanFixture(IcebergSinks.hadoop(warehouse, Writes.ROW).build());
        table.append(1, 3);
        table.append(4, 5);
        table.append(6, 9);
        TestSourceContext context = TestSourceContext.hadoop(warehouse, Writes.ROW);
        List<PlannedSplit> splits = table.planOnce(context).splits();
        assertThat(splits).as("all files in one split").hasSize(1);
        assertResumesEverywhere(table, context, splits.get(0).payload(), 9);
    }

    /**
     * Upstream's reader seeks even a fresh split to (0, 0), and that seek reports the first file
     * as current even when it had no rows and the iterator moved on: the positions after it would
     * name the wrong file. So the split here starts with a file whose rows are all deleted.
     */
    @Test
    void resumingWorksWhenTheFirstFilesRowsAreAllDeleted() throws Exception {
        ScanFixture table = new ScanFixture(IcebergSinks.hadoop(warehouse, IcebergUpsertTest.KEYED)
                .primaryKey("id")
                .option("upsert-enabled", "true")
                .build());
        for (long id = 1; id <= 6; id += 2) {
            table.commit(List.of(row(RowKind.INSERT, id, "a"), row(RowKind.INSERT, id + 1, "a")));
        }
        table.commit(List.of(row(RowKind.DELETE, 1, "a"), row(RowKind.DELETE, 2, "a")));
        TestSourceContext context = TestSourceContext.hadoop(warehouse, IcebergUpsertTest.KEYED);
        List<PlannedSplit> splits = table.planOnce(context).splits();
        assertThat(splits).as("all files in one split").hasSize(1);
        assertResumesEverywhere(
                table, context, emptyFileFirst(table, context, splits.get(0).payload()), 4);
    }

    /** The split with its files reordered: those without live rows first. */
    private static Payload emptyFileFirst(ScanFixture table, TestSourceContext context, Payload payload)
            throws IOException {
        ScanSplits splits = new ScanSplits(false);
        List<FileScanTask> files =
                new ArrayList<>(splits.fromPayload(payload).task().files());
        Map<FileScanTask, Integer> rows = new HashMap<>();
        try (ScanSplitReader reader = table.source.createReader(context)) {
            for (FileScanTask file : files) {
                try (SplitRows read = reader.open(payloadOf(splits, List.of(file)), 0, 0)) {
                    rows.put(
                            file,
                            ScanFixture.drain(read, context.rowType(), Integer.MAX_VALUE)
                                    .size());
                }
            }
        }
        files.sort((a, b) -> Integer.compare(rows.get(a), rows.get(b)));
        assertThat(files.stream().map(rows::get)).containsExactly(0, 2, 2);
        return payloadOf(splits, files);
    }

    private static Payload payloadOf(ScanSplits splits, List<FileScanTask> files) throws IOException {
        return splits.toPlanned(List.of(IcebergSourceSplit.fromCombinedScanTask(new BaseCombinedScanTask(files))))
                .get(0)
                .payload();
    }

    private static void assertResumesEverywhere(ScanFixture table, TestSourceContext context, Payload split, int rows)
            throws IOException {
        try (ScanSplitReader reader = table.source.createReader(context)) {
            List<String> all = new ArrayList<>();
            List<long[]> positions = new ArrayList<>();
            try (SplitRows read = reader.open(split, 0, 0)) {
                assertThat(new long[] {read.offset(), read.recordsToSkip()}).containsExactly(0, 0);
                List<String> one;
                while (!(one = ScanFixture.drain(read, context.rowType(), 1)).isEmpty()) {
                    all.addAll(one);
                    positions.add(new long[] {read.offset(), read.recordsToSkip()});
                }
            }
            assertThat(all).hasSize(rows).doesNotHaveDuplicates();
            for (int k = 0; k < all.size(); k++) {
                long[] position = positions.get(k);
                try (SplitRows rest = reader.open(split, position[0], position[1])) {
                    // before a row is read, the position is the one opened at
                    assertThat(new long[] {rest.offset(), rest.recordsToSkip()}).containsExactly(position);
                    assertThat(ScanFixture.drain(rest, context.rowType(), Integer.MAX_VALUE))
                            .as("after row %s at %s/%s", k, position[0], position[1])
                            .containsExactlyElementsOf(all.subList(k + 1, all.size()));
                }
            }
        }
    }

    @Test
    void aPositionBeyondTheSplitIsAnIOException() throws Exception {
        ScanFixture table =
                new ScanFixture(IcebergSinks.hadoop(warehouse, Writes.ROW).build());
        table.append(1, 2);
        TestSourceContext context = TestSourceContext.hadoop(warehouse, Writes.ROW);
        PlannedSplit split = table.planOnce(context).splits().get(0);
        try (ScanSplitReader reader = table.source.createReader(context)) {
            assertThatThrownBy(() -> reader.open(split.payload(), 0, 5))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("db.t")
                    .hasMessageContaining("file 0, row 5");
        }
    }
}

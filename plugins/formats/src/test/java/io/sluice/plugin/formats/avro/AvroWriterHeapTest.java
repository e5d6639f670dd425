package io.sluice.plugin.formats.avro;

import org.apache.flink.api.common.serialization.BulkWriter;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import static io.sluice.plugin.formats.testing.OpenFileHeap.heapPerOpenFile;
import static io.sluice.plugin.formats.testing.OpenFileHeap.wideRow;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The heap an open Avro file holds, which the writer memory budget adds up over a writer's open
 * files: mostly Avro's block buffer, allocated at a quarter over the sync interval (80 KB) when the
 * file is created and kept at what it grew to when a block is written, so it barely depends on
 * the rows. The estimate ({@link AvroRowDataWriterFactory.RowWriter#heapBytes}) against the heap
 * measured after full collections over a few hundred open files (as {@code
 * DirectParquetWriterHeapTest} does for Parquet), for narrow and wide rows, from a file's first row
 * to several blocks, with and without a codec.
 */
class AvroWriterHeapTest {

    @ParameterizedTest(name = "{0} columns, {1} rows, {2}")
    @CsvSource({
        "4, 1, snappy",
        "4, 1000, snappy",
        "4, 10000, snappy",
        "20, 1, snappy",
        "20, 10000, snappy",
        "4, 10000, deflate",
        "20, 1000, null"
    })
    void theHeapEstimateIsWithinAFactorOfTheHeapHeld(int columns, int rows, String codec) throws IOException {
        RowType type = wideRow(columns);
        int files = 300;
        List<BulkWriter<RowData>> open = new ArrayList<>(files);
        long measured = heapPerOpenFile(new AvroRowDataWriterFactory(type, codec, false), files, rows, columns, open);
        long estimated = open.stream()
                        .mapToLong(w -> ((AvroRowDataWriterFactory.RowWriter) w).heapBytes())
                        .sum()
                / files;
        System.out.println(columns + " columns, " + rows + " rows, " + codec + ": estimated " + estimated
                + " B, measured " + measured + " B");

        // the block buffer is most of it and is counted exactly; the rest is the objects made per
        // file, a constant per file and column (measured 0.94 to 1.06)
        assertThat((double) estimated / measured).isBetween(0.8, 1.25);
    }
}

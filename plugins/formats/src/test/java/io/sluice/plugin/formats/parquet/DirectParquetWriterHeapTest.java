package io.sluice.plugin.formats.parquet;

import io.sluice.plugin.formats.testing.OpenFileHeap;

import org.apache.flink.api.common.serialization.BulkWriter;
import org.apache.flink.formats.parquet.row.ParquetRowDataBuilder;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The heap an open Parquet file holds, which a writer with many open partitions pays once per
 * partition: Parquet's heap compressor starts with an output buffer of the page size (1 MB), so
 * each file Flink's writer opens costs about 1.1 MB before its first page; the direct writer's
 * buffer starts small and grows with the pages. Measured on 500 files of four columns with ten
 * rows each, after full collections, against Flink's writer in the same JVM (measured 95 KB and
 * 1.13 MB a file on a 2-core machine, Java 17, G1); and the direct writer's estimate of it, which
 * the writer memory budget adds up.
 */
class DirectParquetWriterHeapTest {

    private static final RowType ROW = RowType.of(
            new LogicalType[] {
                new BigIntType(), new VarCharType(VarCharType.MAX_LENGTH), new IntType(), new DoubleType()
            },
            new String[] {"id", "s", "i", "d"});
    private static final int FILES = 500;

    @Test
    void anOpenFileHoldsAFractionOfTheHeapOfFlinksWriter() throws IOException {
        long flink = heapPerOpenFile(ParquetRowDataBuilder.createWriterFactory(ROW, new Configuration(), true));
        long direct = heapPerOpenFile(new DirectParquetWriterFactory(ROW, new Configuration(), true));
        System.out.println("heap per open file: direct " + direct + " B, Flink's " + flink + " B");

        assertThat(flink)
                .as("Flink's writer, with a 1 MB compressor buffer per file")
                .isGreaterThan(1_000_000);
        assertThat(direct).isLessThan(flink / 4).isLessThan(300_000);
    }

    /**
     * The estimate the writer memory budget adds up ({@link DirectParquetWriter#heapBytes}) against
     * the heap measured, for narrow and wide rows, from a file's first row to thousands.
     */
    @ParameterizedTest(name = "{0} columns, {1} rows")
    @CsvSource({"4, 1", "4, 1000", "4, 10000", "20, 1", "20, 1000", "20, 10000"})
    void theHeapEstimateIsWithinAFactorOfTheHeapHeld(int columns, int rows) throws IOException {
        RowType type = OpenFileHeap.wideRow(columns);
        int files = Math.max(20, Math.min(300, 2_000_000 / rows / columns));
        List<BulkWriter<RowData>> open = new ArrayList<>(files);
        long measured = OpenFileHeap.heapPerOpenFile(
                new DirectParquetWriterFactory(type, new Configuration(), true), files, rows, columns, open);
        long estimated = open.stream()
                        .mapToLong(w -> ((DirectParquetWriter) w).heapBytes())
                        .sum()
                / files;
        System.out.println(
                columns + " columns, " + rows + " rows: estimated " + estimated + " B, measured " + measured + " B");

        assertThat((double) estimated / measured).isBetween(0.6, 1.6);
    }

    private static long heapPerOpenFile(BulkWriter.Factory<RowData> factory) throws IOException {
        return OpenFileHeap.heapPerOpenFile(factory, FILES, 10, 4, new ArrayList<>());
    }
}

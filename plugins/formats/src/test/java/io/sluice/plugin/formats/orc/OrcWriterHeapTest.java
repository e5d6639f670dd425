package io.sluice.plugin.formats.orc;

import io.sluice.plugin.formats.testing.OpenFileHeap;

import org.apache.flink.api.common.serialization.BulkWriter;
import org.apache.flink.orc.OrcSplitReaderUtil;
import org.apache.flink.orc.vector.RowDataVectorizer;
import org.apache.flink.orc.writer.OrcBulkWriterFactory;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

import static io.sluice.plugin.formats.testing.OpenFileHeap.heapPerOpenFile;
import static io.sluice.plugin.formats.testing.OpenFileHeap.wideRow;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The heap an open ORC file holds, which the writer memory budget adds up over a writer's open
 * files: the row batch of 1,024 rows that Flink's vectorizer fills, and once rows reached ORC the
 * column writers' stream buffers and the compressed buffers of the stripe. The estimate ({@link
 * OrcRowDataWriterFactory.OrcRowDataWriter#heapBytes}) against the heap measured after full
 * collections over a few hundred open files (as {@code DirectParquetWriterHeapTest} does for
 * Parquet), for narrow and wide rows, before and after the first batch, with and without a codec.
 */
class OrcWriterHeapTest {

    @ParameterizedTest(name = "{0} columns, {1} rows, {2}")
    @CsvSource({
        "4, 1, ZLIB",
        "4, 1000, ZLIB",
        "4, 10000, ZLIB",
        "20, 1, ZLIB",
        "20, 10000, ZLIB",
        "4, 10000, SNAPPY",
        "4, 10000, NONE"
    })
    void theHeapEstimateIsWithinAFactorOfTheHeapHeld(int columns, int rows, String codec) throws IOException {
        RowType type = wideRow(columns);
        int files = 300;
        List<BulkWriter<RowData>> open = new ArrayList<>(files);
        long measured = heapPerOpenFile(orcWriters(type, codec), files, rows, columns, open);
        long estimated = open.stream()
                        .mapToLong(w -> ((OrcRowDataWriterFactory.OrcRowDataWriter) w).heapBytes())
                        .sum()
                / files;
        System.out.println(columns + " columns, " + rows + " rows, " + codec + ": estimated " + estimated
                + " B, measured " + measured + " B");

        // stream buffers and the row batch are most of it and counted from ORC's sizes; the column
        // writers' part is a constant per column (measured 14 to 18 KB), and a string column's
        // dictionary ids count as a stream, which they are not quite: 1.16 measured at most
        for (BulkWriter<RowData> writer : open) {
            // leaves ORC's memory manager, which is shared by the JVM's writers
            writer.finish();
        }
        assertThat((double) estimated / measured).isBetween(0.8, 1.25);
    }

    /** The writer is Flink's with a count beside it: the same rows make the same bytes. */
    @Test
    void theFileIsTheOneFlinksWriterWrites() throws IOException {
        RowType type = wideRow(8);
        Properties properties = new Properties();
        properties.setProperty("orc.compress", "ZLIB");
        LogicalType[] types = type.getChildren().toArray(new LogicalType[0]);
        String schema = OrcSplitReaderUtil.logicalTypeToOrcType(type).toString();
        byte[] flinks = write(new OrcBulkWriterFactory<>(
                new RowDataVectorizer(schema, types), properties, new org.apache.hadoop.conf.Configuration()));
        byte[] ours = write(orcWriters(type, "ZLIB"));

        assertThat(ours.length).isGreaterThan(1_000);
        assertThat(ours).isEqualTo(flinks);
    }

    private static byte[] write(BulkWriter.Factory<RowData> factory) throws IOException {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        BulkWriter<RowData> writer = factory.create(new org.apache.flink.core.fs.FSDataOutputStream() {
            @Override
            public long getPos() {
                return bytes.size();
            }

            @Override
            public void write(int b) {
                bytes.write(b);
            }

            @Override
            public void flush() {}

            @Override
            public void sync() {}

            @Override
            public void close() {}
        });
        for (int r = 0; r < 5_000; r++) {
            writer.addElement(OpenFileHeap.row(r, 8));
        }
        writer.finish();
        return bytes.toByteArray();
    }

    private static BulkWriter.Factory<RowData> orcWriters(RowType type, String compression) {
        Properties properties = new Properties();
        properties.setProperty("orc.compress", compression);
        LogicalType[] types = type.getChildren().toArray(new LogicalType[0]);
        String schema = OrcSplitReaderUtil.logicalTypeToOrcType(type).toString();
        return new OrcRowDataWriterFactory(
                new RowDataVectorizer(schema, types), properties, new org.apache.hadoop.conf.Configuration());
    }
}

package io.sluice.plugin.formats.testing;

import org.apache.flink.api.common.serialization.BulkWriter;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;

import java.io.IOException;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The heap a bulk writer's open file holds, measured after full collections over many open files
 * of generated rows: what the Parquet, ORC and Avro writer heap tests compare with their writers'
 * estimates.
 */
public final class OpenFileHeap {

    private static final LogicalType[] KINDS = {
        new BigIntType(), new VarCharType(VarCharType.MAX_LENGTH), new IntType(), new DoubleType()
    };

    private OpenFileHeap() {}

    public static long heapPerOpenFile(
            BulkWriter.Factory<RowData> factory, int files, int rows, int columns, List<BulkWriter<RowData>> open)
            throws IOException {
        long before = usedHeap();
        for (int f = 0; f < files; f++) {
            BulkWriter<RowData> writer = factory.create(new DiscardingStream());
            for (int r = 0; r < rows; r++) {
                writer.addElement(row(r, columns));
            }
            open.add(writer);
        }
        long held = usedHeap() - before;
        assertThat(open).hasSize(files); // reachable up to here
        return held / files;
    }

    /** Columns of BIGINT, STRING (50 distinct values), INT and DOUBLE, in turn. */
    public static RowType wideRow(int columns) {
        LogicalType[] types = new LogicalType[columns];
        String[] names = new String[columns];
        for (int c = 0; c < columns; c++) {
            types[c] = KINDS[c % 4];
            names[c] = "c" + c;
        }
        return RowType.of(types, names);
    }

    public static RowData row(int r, int columns) {
        Object[] values = new Object[columns];
        for (int c = 0; c < columns; c++) {
            switch (c % 4) {
                case 0:
                    values[c] = (long) r;
                    break;
                case 1:
                    values[c] = StringData.fromString("value-" + r % 50);
                    break;
                case 2:
                    values[c] = r * 7;
                    break;
                default:
                    values[c] = r * 0.5;
            }
        }
        return GenericRowData.of(values);
    }

    private static long usedHeap() {
        Runtime runtime = Runtime.getRuntime();
        for (int i = 0; i < 4; i++) {
            System.gc();
        }
        return runtime.totalMemory() - runtime.freeMemory();
    }
}

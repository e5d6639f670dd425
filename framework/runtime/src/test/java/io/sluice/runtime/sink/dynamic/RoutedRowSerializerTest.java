package io.sluice.runtime.sink.dynamic;

import io.sluice.spi.distribution.DistributionMode;

import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Rows on the wire between router and writers: a row read back has a target equal to the one it
 * was written with (so that it finds the writer the same target opened), one type instance per
 * distinct type among everything one serializer read, and the row's values.
 */
class RoutedRowSerializerTest {

    private static final RowType ROW = RowType.of(
            new LogicalType[] {new BigIntType(false), new VarCharType(true, 20)}, new String[] {"id", "name"});
    /** The same fields, nullable id: another type, whose target must not match ROW's. */
    private static final RowType NULLABLE_ID = RowType.of(
            new LogicalType[] {new BigIntType(true), new VarCharType(true, 20)}, new String[] {"id", "name"});

    private static RoutedRow readBack(RoutedRowSerializer serializer, RoutedRow row) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(128);
        serializer.serialize(row, out);
        return serializer.deserialize(new DataInputDeserializer(out.getCopyOfBuffer()));
    }

    @Test
    void aRowReadBackFindsTheWriterOfItsTarget() throws IOException {
        RoutedRowSerializer serializer = new RoutedRowSerializer();
        WriteTarget written =
                new WriteTarget("db.orders", "audit", 3, 1, ROW, List.of("bucket(16, id)"), true, List.of("id"));
        Map<WriteTarget, String> writers = new HashMap<>();
        writers.put(written, "writer of db.orders");

        RoutedRow first = readBack(serializer, new RoutedRow(written, GenericRowData.of(1L, null), 2));
        RoutedRow second =
                readBack(serializer, new RoutedRow(written, GenericRowData.of(2L, StringData.fromString("b")), 2));

        assertThat(first.target()).isEqualTo(written).hasSameHashCodeAs(written);
        assertThat(writers.get(second.target())).isEqualTo("writer of db.orders");
        assertThat(second.target().rowType())
                .isEqualTo(ROW)
                .isSameAs(first.target().rowType());
        assertThat(second.writer()).isEqualTo(2);
        assertThat(second.row().getLong(0)).isEqualTo(2L);
        assertThat(second.row().getString(1).toString()).isEqualTo("b");
        assertThat(first.row().isNullAt(1)).isTrue();
    }

    @Test
    void targetsThatDifferOnlyInTheirTypeStayApart() throws IOException {
        RoutedRowSerializer serializer = new RoutedRowSerializer();
        WriteTarget strict = new WriteTarget("db.t", null, 1, 0, ROW, List.of(), null, List.of());
        WriteTarget nullable = new WriteTarget("db.t", null, 1, 0, NULLABLE_ID, List.of(), null, List.of());
        RowType other =
                RowType.of(new LogicalType[] {new IntType(false), new VarCharType(true, 20)}, new String[] {"id", "n"});
        WriteTarget renamed = new WriteTarget("db.t", null, 1, 0, other, List.of(), null, List.of());

        RoutedRow a = readBack(serializer, new RoutedRow(strict, GenericRowData.of(1L, null), 0));
        RoutedRow b = readBack(serializer, new RoutedRow(nullable, GenericRowData.of(null, null), 1));
        RoutedRow c = readBack(serializer, new RoutedRow(renamed, GenericRowData.of(3, null), 0));

        assertThat(a.target()).isEqualTo(strict).isNotEqualTo(nullable);
        assertThat(b.target()).isEqualTo(nullable).isNotEqualTo(strict);
        assertThat(c.target()).isEqualTo(renamed).isNotEqualTo(strict);
        assertThat(b.row().isNullAt(0)).isTrue();
        assertThat(c.row().getInt(0)).isEqualTo(3);
        // equal whether the type is the same instance or an equal one from elsewhere
        WriteTarget rebuilt = new WriteTarget("db.t", null, 1, 0, (RowType) ROW.copy(), List.of(), null, List.of());
        assertThat(a.target()).isEqualTo(rebuilt).hasSameHashCodeAs(rebuilt);
    }

    @Test
    void aPendingRowKeepsItsModeAndWriteParallelism() throws IOException {
        WriteTarget requested = new WriteTarget(
                "db.new", null, RoutedRow.PENDING, RoutedRow.PENDING, ROW, List.of("identity(name)"), null, List.of());
        RoutedRow read = readBack(
                new RoutedRowSerializer(),
                RoutedRow.pending(
                        requested, GenericRowData.of(7L, StringData.fromString("x")), DistributionMode.HASH, 4));
        assertThat(read.isPending()).isTrue();
        assertThat(read.mode()).isEqualTo(DistributionMode.HASH);
        assertThat(read.writeParallelism()).isEqualTo(4);
        assertThat(read.target()).isEqualTo(requested);
        RoutedRow copy = new RoutedRowSerializer()
                .copy(RoutedRow.pending(
                        requested, GenericRowData.of(7L, StringData.fromString("x")), DistributionMode.HASH, 4));
        assertThat(copy.isPending()).isTrue();
        assertThat(copy.mode()).as("a copy, as a chained operator gets it").isEqualTo(DistributionMode.HASH);
        assertThat(copy.writeParallelism()).isEqualTo(4);
    }

    @Test
    void aCopyOfAForwardedRowIsItsOwn() {
        WriteTarget target = new WriteTarget("db.t", null, 1, 0, ROW, List.of(), null, List.of());
        GenericRowData row = GenericRowData.of(5L, StringData.fromString("five"));
        RoutedRow copy = new RoutedRowSerializer().copy(new RoutedRow(target, row, RoutedRow.FORWARD));
        row.setField(0, 6L);
        assertThat(copy.target()).isSameAs(target);
        assertThat(copy.row().getLong(0)).isEqualTo(5L);
    }
}

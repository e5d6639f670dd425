package io.sluice.runtime.sink.dynamic;

import io.sluice.runtime.sink.SinkDescriptor;
import io.sluice.spi.distribution.DistributionMode;

import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.api.operators.ProcessOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static io.sluice.runtime.sink.dynamic.DynamicRouterTest.V2;
import static io.sluice.runtime.sink.dynamic.DynamicWriterOperatorTest.ROW;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The table updater on Flink's keyed harness over a real target with dynamic tables ({@link
 * DirTables}): the pending rows of a table create it once and evolve it once per new schema or
 * spec, and leave routed to a writer with the write target that takes them (rows of one partition
 * to one writer); a restored updater finds the tables in the catalog and changes nothing again.
 * The same for the BATCH updater, which gets the rows by a plain partitioner.
 */
class TableUpdaterTest {

    private static final int WRITERS = 4;
    private static final List<String> BY_NAME = List.of("identity(name)");

    @TempDir
    Path pluginsDir;

    @TempDir
    Path warehouse;

    private SinkDescriptor base;

    @BeforeEach
    void plugin() throws Exception {
        DirTables.build(pluginsDir);
        base = DirTables.base(pluginsDir, warehouse, Map.of());
    }

    /** The STREAMING updater (keyed by table) or the BATCH one ({@link TableUpdater.Unkeyed}). */
    private OneInputStreamOperatorTestHarness<RoutedRow, RoutedRow> updater(
            boolean keyed, OperatorSubtaskState restored) throws Exception {
        OneInputStreamOperatorTestHarness<RoutedRow, RoutedRow> h = keyed
                ? new KeyedOneInputStreamOperatorTestHarness<>(
                        new KeyedProcessOperator<>(new TableUpdater(base, DynamicRouterTest.settings(false), WRITERS)),
                        (KeySelector<RoutedRow, String>) r -> r.target().table(),
                        Types.STRING)
                : new OneInputStreamOperatorTestHarness<>(new ProcessOperator<>(
                        new TableUpdater.Unkeyed(base, DynamicRouterTest.settings(false), WRITERS)));
        // rows are copied between operators with their own serializer, as in a job (else Kryo)
        h.setup(new RoutedRowSerializer());
        if (restored == null) {
            h.initializeEmptyState();
        } else {
            h.initializeState(restored);
        }
        h.open();
        return h;
    }

    /** A pending row as the router hands it over. */
    private static StreamRecord<RoutedRow> pending(
            String table, RowType schema, List<String> spec, long id, String name) {
        RowData row = schema == V2
                ? GenericRowData.of(id, StringData.fromString(name), StringData.fromString("x"))
                : GenericRowData.of(id, StringData.fromString(name));
        WriteTarget requested =
                new WriteTarget(table, null, RoutedRow.PENDING, RoutedRow.PENDING, schema, spec, null, List.of());
        return new StreamRecord<>(RoutedRow.pending(requested, row, DistributionMode.HASH, 0));
    }

    @ParameterizedTest(name = "keyed {0}")
    @ValueSource(booleans = {true, false})
    void createsAndEvolvesATableOnceAndRoutesItsRows(boolean keyed) throws Exception {
        OperatorSubtaskState snapshot;
        try (OneInputStreamOperatorTestHarness<RoutedRow, RoutedRow> h = updater(keyed, null)) {
            for (long id = 0; id < 3; id++) {
                h.processElement(pending("t", ROW, List.of(), id, "a"));
            }
            assertThat(DirTables.log(warehouse, "t")).containsExactly("create");
            for (long id = 3; id < 6; id++) {
                h.processElement(pending("t", V2, List.of(), id, "a"));
            }
            assertThat(DirTables.log(warehouse, "t")).containsExactly("create", "update");
            // a new spec: partitioned by name, rows of one name to one writer
            for (long id = 6; id < 12; id++) {
                h.processElement(pending("t", V2, BY_NAME, id, id % 2 == 0 ? "even" : "odd"));
            }
            h.processElement(pending("u", ROW, List.of(), 100, "a"));
            assertThat(DirTables.log(warehouse, "t")).containsExactly("create", "update", "update");
            assertThat(DirTables.log(warehouse, "u")).containsExactly("create");
            // loaded by the two updates only: the other rows find the table in the cache
            assertThat(DirTables.loads(warehouse, "t")).isEqualTo(2);

            List<RoutedRow> out = h.extractOutputValues();
            assertThat(out)
                    .extracting(r -> r.row().getLong(0))
                    .containsExactly(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L, 11L, 100L);
            assertThat(out).allSatisfy(r -> {
                assertThat(r.isPending()).isFalse();
                assertThat(r.writer()).isBetween(0, WRITERS - 1);
            });
            assertThat(out.subList(0, 3))
                    .allSatisfy(r -> assertThat(r.target().schemaId()).isEqualTo(0));
            assertThat(out.subList(3, 12)).allSatisfy(r -> {
                assertThat(r.target().schemaId()).isEqualTo(1);
                assertThat(r.target().rowType()).isEqualTo(V2);
            });
            assertThat(out.subList(6, 12)).allSatisfy(r -> {
                assertThat(r.target().specId()).isEqualTo(1);
                assertThat(r.target().spec()).isEqualTo(BY_NAME);
            });
            assertThat(out.subList(6, 12).stream()
                            .filter(r -> r.row().getString(1).toString().equals("even"))
                            .map(RoutedRow::writer)
                            .distinct())
                    .as("one partition, one writer")
                    .hasSize(1);
            snapshot = h.snapshot(1, 1);
        }
        try (OneInputStreamOperatorTestHarness<RoutedRow, RoutedRow> h = updater(keyed, snapshot)) {
            h.processElement(pending("t", V2, BY_NAME, 12, "even"));
            h.processElement(pending("t", ROW, List.of(), 13, "a"));
            assertThat(h.extractOutputValues())
                    .extracting(r -> r.target().schemaId() + "/" + r.target().specId())
                    .containsExactly("1/1", "0/0");
            assertThat(DirTables.loads(warehouse, "t")).isEqualTo(3);
        }
        assertThat(DirTables.log(warehouse, "t"))
                .as("found, not changed again")
                .containsExactly("create", "update", "update");
        assertThat(DirTables.log(warehouse, "u")).containsExactly("create");
    }
}

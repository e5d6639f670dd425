package io.sluice.runtime.sink.dynamic;

import io.sluice.runtime.sink.SinkDescriptor;
import io.sluice.spi.distribution.DistributionMode;

import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.operators.ProcessOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.Serializable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static io.sluice.runtime.sink.dynamic.DynamicWriterOperatorTest.ROW;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The dynamic router on Flink's harness over a real target with dynamic tables ({@link
 * DirTables}): each record goes to the output of its mode (shuffled to a writer, forwarded, or to
 * the table updater while its table must be created or evolved and updates are not immediate),
 * with the write target of the table's schema that takes it; tables it knows are served from its
 * cache, and a restored router finds them in the catalog, without creating or evolving them again.
 */
class DynamicRouterTest {

    static final RowType V2 = RowType.of(
            new LogicalType[] {new BigIntType(false), new VarCharType(true, 20), new VarCharType(true, 20)},
            new String[] {"id", "name", "extra"});

    private static final int WRITERS = 4;

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

    /** An input record of the test job: one dynamic record of its table, schema and mode (null: forward). */
    static final class In implements Serializable {
        private static final long serialVersionUID = 1L;
        final String table;
        final boolean v2;
        final long id;
        final DistributionMode mode;

        In(String table, boolean v2, long id, DistributionMode mode) {
            this.table = table;
            this.v2 = v2;
            this.id = id;
            this.mode = mode;
        }
    }

    private static final DynamicRecordGenerator<In> GENERATOR = (in, out) -> {
        RowData row = in.v2
                ? GenericRowData.of(in.id, StringData.fromString("n" + in.id), StringData.fromString("x"))
                : GenericRowData.of(in.id, StringData.fromString("n" + in.id));
        out.collect(new DynamicRecord(in.table, null, in.v2 ? V2 : ROW, row, List.of(), in.mode, 0));
    };

    static DynamicSinkSettings settings(boolean immediate) {
        return new DynamicSinkSettings(
                100, 3_600_000, 10, immediate, false, null, DynamicTableCreator.DEFAULT, DynamicSinkHooks.NONE);
    }

    private OneInputStreamOperatorTestHarness<In, RoutedRow> router(boolean immediate, OperatorSubtaskState restored)
            throws Exception {
        OneInputStreamOperatorTestHarness<In, RoutedRow> h = new OneInputStreamOperatorTestHarness<>(
                new ProcessOperator<>(new DynamicRouter<>(GENERATOR, base, settings(immediate), WRITERS)));
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

    private static List<RoutedRow> drain(java.util.Collection<StreamRecord<RoutedRow>> records) {
        List<RoutedRow> rows = new ArrayList<>();
        if (records == null) {
            return rows; // nothing was emitted to that output
        }
        records.forEach(r -> rows.add(r.getValue()));
        records.clear();
        return rows;
    }

    @Test
    void eachRecordGoesToTheOutputOfItsModeAndNewTablesToTheUpdater() throws Exception {
        try (OneInputStreamOperatorTestHarness<In, RoutedRow> h = router(false, null)) {
            h.processElement(new StreamRecord<>(new In("t", false, 1, DistributionMode.HASH)));
            // a new table, updates not immediate: the updater creates it, not the router
            List<RoutedRow> pending = drain(h.getSideOutput(DynamicRouter.PENDING));
            assertThat(pending).singleElement().satisfies(r -> {
                assertThat(r.isPending()).isTrue();
                assertThat(r.target().table()).isEqualTo("t");
                assertThat(r.mode()).isEqualTo(DistributionMode.HASH);
                assertThat(r.row().getLong(0)).isEqualTo(1L);
            });
            assertThat(DirTables.log(warehouse, "t")).isEmpty();

            // a forward record never leaves the subtask: its table is created here, at once
            h.processElement(new StreamRecord<>(new In("t", false, 2, null)));
            assertThat(DirTables.log(warehouse, "t")).containsExactly("create");
            assertThat(drain(h.getSideOutput(DynamicRouter.FORWARD)))
                    .singleElement()
                    .satisfies(r -> {
                        assertThat(r.writer()).isEqualTo(RoutedRow.FORWARD);
                        assertThat(r.target().schemaId()).isEqualTo(0);
                        assertThat(r.row().getLong(0)).isEqualTo(2L);
                    });

            // the table exists now: shuffled to a writer, with the table's schema
            h.processElement(new StreamRecord<>(new In("t", false, 3, DistributionMode.HASH)));
            assertThat(h.extractOutputValues()).singleElement().satisfies(r -> {
                assertThat(r.writer()).isBetween(0, WRITERS - 1);
                assertThat(r.target().table()).isEqualTo("t");
                assertThat(r.target().rowType()).isEqualTo(ROW);
                assertThat(r.row().getLong(0)).isEqualTo(3L);
            });

            // a schema the table must evolve for: to the updater again, the table untouched
            h.processElement(new StreamRecord<>(new In("t", true, 4, DistributionMode.HASH)));
            assertThat(drain(h.getSideOutput(DynamicRouter.PENDING)))
                    .singleElement()
                    .satisfies(r -> assertThat(r.target().rowType()).isEqualTo(V2));
            assertThat(DirTables.log(warehouse, "t")).containsExactly("create");
        }
    }

    @Test
    void knownTablesComeFromTheCacheAndARestoredRouterFromTheCatalog() throws Exception {
        OperatorSubtaskState snapshot;
        try (OneInputStreamOperatorTestHarness<In, RoutedRow> h = router(true, null)) {
            h.processElement(new StreamRecord<>(new In("t", false, 1, DistributionMode.NONE)));
            h.processElement(new StreamRecord<>(new In("t", true, 2, DistributionMode.NONE)));
            assertThat(DirTables.log(warehouse, "t")).containsExactly("create", "update");
            // the first schema is still one of the table's: no update, written with it as it is
            for (long id = 3; id < 10; id++) {
                h.processElement(new StreamRecord<>(new In("t", id % 2 == 0, id, DistributionMode.NONE)));
            }
            assertThat(DirTables.log(warehouse, "t")).containsExactly("create", "update");
            // loaded once, by the update (against the table as it is now); the rest from the cache
            assertThat(DirTables.loads(warehouse, "t")).isEqualTo(1);
            List<RoutedRow> out = h.extractOutputValues();
            assertThat(out).extracting(r -> r.row().getLong(0)).containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L);
            assertThat(out).extracting(r -> r.target().schemaId()).containsExactly(0, 1, 0, 1, 0, 1, 0, 1, 0);
            assertThat(out.get(1).target().rowType()).isEqualTo(V2);
            assertThat(out.get(1).row().getString(2).toString()).isEqualTo("x");
            snapshot = h.snapshot(1, 1);
        }
        try (OneInputStreamOperatorTestHarness<In, RoutedRow> h = router(true, snapshot)) {
            h.processElement(new StreamRecord<>(new In("t", true, 10, DistributionMode.NONE)));
            h.processElement(new StreamRecord<>(new In("t", false, 11, DistributionMode.NONE)));
            assertThat(h.extractOutputValues())
                    .extracting(r -> r.target().schemaId())
                    .containsExactly(1, 0);
            assertThat(DirTables.loads(warehouse, "t"))
                    .as("loaded once more, then cached")
                    .isEqualTo(2);
        }
        assertThat(DirTables.log(warehouse, "t")).as("found, not made again").containsExactly("create", "update");
    }
}

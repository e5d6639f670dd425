package io.sluice.runtime.sink.dynamic;

import io.sluice.runtime.state.Committable;

import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.connector.sink2.CommittableWithLineage;
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

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The dynamic writer operator on Flink's harness ({@link DynamicSinkHarness}): what its table
 * writers make visible goes out as one committable of framed entries before the barrier and at the
 * end of input, and a restored operator recreates every table writer that had state, so rows
 * written before the checkpoint and not yet handed over are committed once, with those after it.
 */
class DynamicWriterOperatorTest {

    static final RowType ROW = RowType.of(
            new LogicalType[] {new BigIntType(false), new VarCharType(true, 20)}, new String[] {"id", "name"});
    static final WriteTarget A = new WriteTarget("a", null, 0, 0, ROW, List.of(), null, List.of());
    static final WriteTarget B = new WriteTarget("b", null, 0, 0, ROW, List.of(), null, List.of());

    @TempDir
    Path pluginsDir;

    @TempDir
    Path warehouse;

    @BeforeEach
    void plugin() throws Exception {
        DirTables.build(pluginsDir);
    }

    static RowData row(long id, String name) {
        return GenericRowData.of(id, StringData.fromString(name));
    }

    /** The tables (commit keys) of a committable's entries, and that each is a framed entry. */
    private static Set<String> tables(CommittableWithLineage<Committable> handed) throws Exception {
        Set<String> tables = new TreeSet<>();
        for (Committable.Entry e : handed.getCommittable().entries()) {
            assertThat(TableFrames.isFrame(e.envelope())).isTrue();
            tables.add(TableFrames.unframe(e.envelope(), new WriteTarget.TypeCache())
                    .target()
                    .commitKey());
        }
        return tables;
    }

    @Test
    void handsOverBeforeTheBarrierAndAtTheEndAndResumesItsWritersFromState() throws Exception {
        try (DynamicSinkHarness h =
                new DynamicSinkHarness(DirTables.base(pluginsDir, warehouse, Map.of("roll-rows", "2")))) {
            h.write(A, row(1, "a1"));
            h.write(A, row(2, "a2"));
            h.write(B, row(10, "b1"));
            h.checkpoint(1);
            // a's file is full and handed over; b's stays open in the writer's state
            assertThat(h.handed).hasSize(1);
            assertThat(h.handed.get(0).getCheckpointIdOrEOI()).isEqualTo(1L);
            assertThat(tables(h.handed.get(0))).containsExactly("a");
            // written after the checkpoint: lost with the failover, replayed by the source
            h.write(B, row(11, "lost"));

            h.restore(1);
            assertThat(DirTables.committedRows(warehouse, "a")).containsExactlyInAnyOrder("1,a1", "2,a2");
            assertThat(DirTables.committedRows(warehouse, "b")).isEmpty();
            h.write(B, row(11, "b2"));
            h.write(A, row(3, "a3"));
            h.endOfInput();
            CommittableWithLineage<Committable> last = h.handed.get(h.handed.size() - 1);
            assertThat(last.getCheckpointIdOrEOI()).isEqualTo(CommittableMessage.EOI);
            assertThat(tables(last)).containsExactly("a", "b");
            h.checkpoint(2);
            h.complete(2);
        }
        assertThat(DirTables.committedRows(warehouse, "a")).containsExactlyInAnyOrder("1,a1", "2,a2", "3,a3");
        // b1 came through the restored writer state, b2 once, the lost version of it not at all
        assertThat(DirTables.committedRows(warehouse, "b")).containsExactlyInAnyOrder("10,b1", "11,b2");
    }

    @Test
    void aWriterIdleForSomeCheckpointsIsClosedAndARestoreDoesNotNeedIt() throws Exception {
        List<String> closed = new ArrayList<>();
        DynamicSinkFaults observed = new DynamicSinkFaults().onIdleWriterClosed(closed::add);
        try (DynamicSinkHarness h =
                new DynamicSinkHarness(DirTables.base(pluginsDir, warehouse, Map.of("roll-rows", "1")), observed)) {
            h.write(A, row(1, "a1"));
            long id = 0;
            for (int i = 0; i < DynamicWriterOperator.IDLE_CHECKPOINTS; i++) {
                h.write(B, row(10 + i, "b"));
                h.checkpoint(++id);
                h.complete(id);
                assertThat(closed).as("after checkpoint " + id).isEmpty();
            }
            h.write(B, row(20, "b"));
            h.checkpoint(++id);
            h.complete(id);
            assertThat(closed).containsExactly(A.toString());
            h.restore(id);
            h.write(A, row(2, "a2"));
            h.endOfInput();
            h.checkpoint(++id);
            h.complete(id);
        } finally {
            DynamicSinkFaults.clear();
        }
        assertThat(DirTables.committedRows(warehouse, "a")).containsExactlyInAnyOrder("1,a1", "2,a2");
        assertThat(DirTables.committedRows(warehouse, "b")).hasSize(DynamicWriterOperator.IDLE_CHECKPOINTS + 1);
    }
}

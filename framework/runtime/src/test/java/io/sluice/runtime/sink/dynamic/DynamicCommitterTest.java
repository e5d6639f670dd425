package io.sluice.runtime.sink.dynamic;

import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static io.sluice.runtime.sink.dynamic.DynamicWriterOperatorTest.A;
import static io.sluice.runtime.sink.dynamic.DynamicWriterOperatorTest.B;
import static io.sluice.runtime.sink.dynamic.DynamicWriterOperatorTest.ROW;
import static io.sluice.runtime.sink.dynamic.DynamicWriterOperatorTest.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * The dynamic committer behind the commit aggregator ({@link DynamicSinkHarness}), fed by a real
 * writer operator: each table gets one commit per checkpoint, whatever write targets (schemas) of
 * it the checkpoint holds; committables restored uncommitted are committed again, which the tables
 * committed already find done; a table whose commit failed is committed after the restore, the
 * others are not committed twice.
 */
class DynamicCommitterTest {

    @TempDir
    Path pluginsDir;

    @TempDir
    Path warehouse;

    @BeforeEach
    void plugin() throws Exception {
        DirTables.build(pluginsDir);
    }

    private DynamicSinkHarness harness() throws Exception {
        return new DynamicSinkHarness(DirTables.base(pluginsDir, warehouse, Map.of("roll-rows", "1")));
    }

    @Test
    void oneCommitPerTableAndCheckpointOverItsSchemas() throws Exception {
        // a second schema of table a: its own write target and writer, the same table
        WriteTarget a2 = new WriteTarget(
                "a",
                null,
                1,
                0,
                org.apache.flink.table.types.logical.RowType.of(
                        ROW.getChildren().toArray(new org.apache.flink.table.types.logical.LogicalType[0]),
                        new String[] {"id", "label"}),
                List.of(),
                null,
                List.of());
        try (DynamicSinkHarness h = harness()) {
            h.write(A, row(1, "a1"));
            h.write(a2, row(2, "a2"));
            h.write(B, row(10, "b1"));
            h.checkpoint(1);
            assertThat(DirTables.committedRows(warehouse, "a")).isEmpty();
            h.complete(1);
            assertThat(DirTables.commits(warehouse, "a")).containsExactly("1 2");
            assertThat(DirTables.commits(warehouse, "b")).containsExactly("1 1");
            h.write(B, row(11, "b2"));
            h.endOfInput();
            h.checkpoint(2);
            h.complete(2);
            assertThat(DirTables.commits(warehouse, "a"))
                    .as("nothing new for a")
                    .containsExactly("1 2");
            // what came at the end of input is committed under its id, EOI, when checkpoint 2 completes
            assertThat(DirTables.commits(warehouse, "b")).containsExactly("1 1", CommittableMessage.EOI + " 1");
        }
        assertThat(DirTables.committedRows(warehouse, "a")).containsExactlyInAnyOrder("1,a1", "2,a2");
        assertThat(DirTables.committedRows(warehouse, "b")).containsExactlyInAnyOrder("10,b1", "11,b2");
    }

    @Test
    void aRestoredCheckpointsCommitIsRepeatedAndFoundDone() throws Exception {
        try (DynamicSinkHarness h = harness()) {
            h.write(A, row(1, "a1"));
            h.write(B, row(10, "b1"));
            h.checkpoint(1);
            h.complete(1);
            // the job fails after checkpoint 1 completed and restores from it: the aggregator's
            // snapshot 1 holds checkpoint 1's committable, which it commits again at once
            h.restore(1);
            assertThat(DirTables.commits(warehouse, "a")).containsExactly("1 1", "1 1");
            h.write(A, row(2, "a2"));
            h.endOfInput();
            h.checkpoint(2);
            h.complete(2);
        }
        assertThat(DirTables.committedRows(warehouse, "a")).containsExactlyInAnyOrder("1,a1", "2,a2");
        assertThat(DirTables.committedRows(warehouse, "b")).containsExactly("10,b1");
    }

    @Test
    void aTableWhoseCommitFailedIsCommittedAfterTheRestoreAndTheOthersOnce() throws Exception {
        for (String when : List.of("before", "after")) {
            Path tables = warehouse.resolve(when);
            try (DynamicSinkHarness h =
                    new DynamicSinkHarness(DirTables.base(pluginsDir, tables, Map.of("roll-rows", "1")))) {
                h.write(A, row(1, "a1"));
                h.write(B, row(10, "b1"));
                h.checkpoint(1);
                DirTables.failNextCommit(tables, "b", when);
                assertThat(ExceptionUtils.stringifyException(catchThrowable(() -> h.complete(1))))
                        .contains("injected failure " + when);
                // a's commit ran beside b's and ended
                assertThat(DirTables.committedRows(tables, "a")).as(when).containsExactly("1,a1");
                assertThat(DirTables.committedRows(tables, "b")).as(when).hasSize(when.equals("before") ? 0 : 1);
                h.restore(1);
                assertThat(DirTables.committedRows(tables, "b")).as(when).containsExactly("10,b1");
                h.write(B, row(11, "b2"));
                h.endOfInput();
                h.checkpoint(2);
                h.complete(2);
            }
            assertThat(DirTables.committedRows(tables, "a")).as(when).containsExactly("1,a1");
            assertThat(DirTables.committedRows(tables, "b")).as(when).containsExactlyInAnyOrder("10,b1", "11,b2");
        }
    }
}

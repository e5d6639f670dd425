package io.sluice.plugin.iceberg;

import io.sluice.spi.Payload;
import io.sluice.spi.source.PlannedSplit;
import io.sluice.spi.source.ScanPlan;
import io.sluice.spi.source.ScanPlanner;

import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.expressions.CallExpression;
import org.apache.flink.table.expressions.FieldReferenceExpression;
import org.apache.flink.table.expressions.ResolvedExpression;
import org.apache.flink.table.expressions.ValueLiteralExpression;
import org.apache.flink.table.functions.BuiltInFunctionDefinitions;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.types.RowKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static io.sluice.plugin.iceberg.ScanFixture.row;
import static org.assertj.core.api.Assertions.assertThat;

/** Bounded reads: which rows, in which column order, with deletes applied, cut into how many splits. */
class IcebergScanBoundedTest {

    /** The table's columns the other way round: {@code name STRING, id BIGINT}. */
    static final RowType NAME_ID = RowType.of(
            new LogicalType[] {new VarCharType(VarCharType.MAX_LENGTH), new BigIntType()}, new String[] {"name", "id"});

    @TempDir
    Path warehouse;

    @Test
    void aBoundedReadPlansTheCurrentSnapshotOnceAndReadsAllItsRows() throws Exception {
        ScanFixture table =
                new ScanFixture(IcebergSinks.hadoop(warehouse, Writes.ROW).build());
        table.append(1, 3);
        table.append(4, 5);
        TestSourceContext context = TestSourceContext.hadoop(warehouse, Writes.ROW);
        table.source.validate(context);
        assertThat(table.source.monitorInterval(context)).isEmpty();

        try (ScanPlanner planner = table.source.createPlanner(context)) {
            ScanPlan plan = planner.plan(null);
            assertThat(plan.position()).isNotNull();
            assertThat(plan.splits())
                    .isNotEmpty()
                    .allSatisfy(split -> assertThat(split.description()).contains(".parquet"));
            assertThat(table.read(context, plan.splits()))
                    .containsExactlyInAnyOrder("1,n1", "2,n2", "3,n3", "4,n4", "5,n5");

            // the framework does not ask again, but an answer is harmless: nothing new
            ScanPlan again = planner.plan(plan.position());
            assertThat(again.splits()).isEmpty();
            assertThat(again.position()).isEqualTo(plan.position());
        }
    }

    @Test
    void rowsComeInTheSourcesColumnOrderNotTheTables() throws Exception {
        ScanFixture table =
                new ScanFixture(IcebergSinks.hadoop(warehouse, Writes.ROW).build());
        table.append(1, 2);
        TestSourceContext context = TestSourceContext.hadoop(warehouse, NAME_ID);
        table.source.validate(context);
        assertThat(table.read(context, table.planOnce(context).splits())).containsExactlyInAnyOrder("n1,1", "n2,2");
        // why the projection is built by hand: Iceberg's select keeps the table's order
        String firstSelected = table.onTable(
                t -> t.schema().select("name", "id").columns().get(0).name());
        assertThat(firstSelected).isEqualTo("id");
    }

    @Test
    void aPartitionedTableReadsItsPartitionColumns() throws Exception {
        ScanFixture table = new ScanFixture(
                IcebergSinks.hadoop(warehouse, Writes.ROW).partitionKeys("name").build());
        table.append(1, 3);
        TestSourceContext context = TestSourceContext.hadoop(warehouse, NAME_ID);
        List<PlannedSplit> splits = table.planOnce(context).splits();
        assertThat(splits.stream().map(PlannedSplit::description))
                .anySatisfy(d -> assertThat(d).contains("name=n2"));
        assertThat(table.read(context, splits)).containsExactlyInAnyOrder("n1,1", "n2,2", "n3,3");
    }

    @Test
    void pushedFiltersPruneThePartitionsAndFilesThatCannotMatch() throws Exception {
        ScanFixture table = new ScanFixture(
                IcebergSinks.hadoop(warehouse, Writes.ROW).partitionKeys("name").build());
        table.append(1, 3);
        ResolvedExpression nameIsN2 = CallExpression.permanent(
                BuiltInFunctionDefinitions.EQUALS,
                List.of(
                        new FieldReferenceExpression("name", DataTypes.STRING(), 0, 0),
                        new ValueLiteralExpression("n2")),
                DataTypes.BOOLEAN());
        ResolvedExpression upperName = CallExpression.permanent(
                BuiltInFunctionDefinitions.UPPER,
                List.of(new FieldReferenceExpression("name", DataTypes.STRING(), 0, 0)),
                DataTypes.STRING());
        ResolvedExpression notExpressible = CallExpression.permanent(
                BuiltInFunctionDefinitions.EQUALS,
                List.of(upperName, new ValueLiteralExpression("N2")),
                DataTypes.BOOLEAN());
        TestSourceContext context = TestSourceContext.hadoop(warehouse, NAME_ID);
        assertThat(table.source.pushFilters(context, List.of(notExpressible))).isEmpty();

        context.pushedFilters(table.source.pushFilters(context, List.of(nameIsN2, notExpressible)));
        List<PlannedSplit> splits = table.planOnce(context).splits();
        assertThat(splits).hasSize(1);
        assertThat(splits.get(0).description())
                .contains("name=n2")
                .doesNotContain("name=n1")
                .doesNotContain("name=n3");
        assertThat(table.read(context, splits)).containsExactly("n2,2");
    }

    @Test
    void aSubsetOfTheColumnsReadsOnlyThose() throws Exception {
        ScanFixture table =
                new ScanFixture(IcebergSinks.hadoop(warehouse, Writes.ROW).build());
        table.append(1, 2);
        RowType nameOnly =
                RowType.of(new LogicalType[] {new VarCharType(VarCharType.MAX_LENGTH)}, new String[] {"name"});
        TestSourceContext context = TestSourceContext.hadoop(warehouse, nameOnly);
        assertThat(table.read(context, table.planOnce(context).splits())).containsExactlyInAnyOrder("n1", "n2");
    }

    @Test
    void anUpsertTableReadsOnlyTheLiveRows() throws Exception {
        ScanFixture table = new ScanFixture(IcebergSinks.hadoop(warehouse, IcebergUpsertTest.KEYED)
                .primaryKey("id")
                .option("upsert-enabled", "true")
                .build());
        table.commit(List.of(
                row(RowKind.INSERT, 1, "a"),
                row(RowKind.INSERT, 2, "a"),
                row(RowKind.INSERT, 3, "a"),
                row(RowKind.INSERT, 4, "a")));
        table.commit(List.of(
                row(RowKind.UPDATE_AFTER, 1, "b"), // equality delete of the first version
                row(RowKind.DELETE, 2, "a"), // equality delete
                row(RowKind.INSERT, 5, "a"),
                row(RowKind.UPDATE_AFTER, 5, "b"))); // the same key twice in one commit: a position delete
        String deleteFiles = table.onTable(t -> t.currentSnapshot().summary().get("total-delete-files"));
        assertThat(deleteFiles).isNotEqualTo("0");

        // the key column is not read: the delete filter reads it anyway and projects it away
        RowType nameOnly =
                RowType.of(new LogicalType[] {new VarCharType(VarCharType.MAX_LENGTH)}, new String[] {"name"});
        for (RowType type : List.of(IcebergUpsertTest.KEYED, NAME_ID, nameOnly)) {
            TestSourceContext context = TestSourceContext.hadoop(warehouse, type);
            table.source.validate(context);
            List<String> rows = table.read(context, table.planOnce(context).splits());
            if (type == NAME_ID) {
                assertThat(rows).containsExactlyInAnyOrder("b,1", "a,3", "a,4", "b,5");
            } else if (type == nameOnly) {
                assertThat(rows).containsExactlyInAnyOrder("b", "a", "a", "b");
            } else {
                assertThat(rows).containsExactlyInAnyOrder("1,b", "3,a", "4,a", "5,b");
            }
        }
    }

    @Test
    void snapshotIdOrTimeReadAnOlderSnapshotAndStartEndSnapshotTheAppendsBetween() throws Exception {
        ScanFixture table =
                new ScanFixture(IcebergSinks.hadoop(warehouse, Writes.ROW).build());
        long first = table.append(1, 1);
        long second = table.append(2, 2);
        table.append(3, 3);
        TestSourceContext old =
                TestSourceContext.hadoop(warehouse, Writes.ROW).set("snapshot-id", String.valueOf(first));
        table.source.validate(old);
        assertThat(table.read(old, table.planOnce(old).splits())).containsExactly("1,n1");

        long firstTime = table.onTable(t -> t.snapshot(first).timestampMillis());
        TestSourceContext asOf =
                TestSourceContext.hadoop(warehouse, Writes.ROW).set("as-of-timestamp", String.valueOf(firstTime));
        table.source.validate(asOf);
        assertThat(table.read(asOf, table.planOnce(asOf).splits())).containsExactly("1,n1");

        TestSourceContext between = TestSourceContext.hadoop(warehouse, Writes.ROW)
                .set("start-snapshot-id", String.valueOf(first))
                .set("end-snapshot-id", String.valueOf(second));
        table.source.validate(between);
        assertThat(table.read(between, table.planOnce(between).splits())).containsExactly("2,n2");
    }

    @Test
    void theFileOpenCostDecidesHowManySmallFilesShareASplit() throws Exception {
        ScanFixture table =
                new ScanFixture(IcebergSinks.hadoop(warehouse, Writes.ROW).build());
        for (long id = 1; id <= 6; id++) {
            table.append(id, id);
        }
        TestSourceContext packed = TestSourceContext.hadoop(warehouse, Writes.ROW);
        List<PlannedSplit> few = table.planOnce(packed).splits();
        assertThat(few).hasSize(1);
        assertThat(few.get(0).description()).contains(" and 3 more");

        // each file weighs as much as a whole split: one split per file
        TestSourceContext costly = TestSourceContext.hadoop(warehouse, Writes.ROW)
                .set("split-size", "1048576")
                .set("split-file-open-cost", "1048576");
        List<PlannedSplit> many = table.planOnce(costly).splits();
        assertThat(many).hasSize(6);
        assertThat(table.read(costly, many)).hasSize(6);
    }

    @Test
    void limitCapsTheRowsOfAReader() throws Exception {
        ScanFixture table =
                new ScanFixture(IcebergSinks.hadoop(warehouse, Writes.ROW).build());
        table.append(1, 3);
        table.append(4, 6);
        TestSourceContext context = TestSourceContext.hadoop(warehouse, Writes.ROW)
                .set("limit", "4")
                .set("split-file-open-cost", String.valueOf(128L << 20));
        List<PlannedSplit> splits = table.planOnce(context).splits();
        assertThat(splits).hasSize(2);
        assertThat(table.read(context, splits)).hasSize(4);

        // a query's LIMIT does the same, unless the option says otherwise
        TestSourceContext pushed = TestSourceContext.hadoop(warehouse, Writes.ROW)
                .pushedLimit(2)
                .set("split-file-open-cost", String.valueOf(128L << 20));
        assertThat(table.read(pushed, table.planOnce(pushed).splits())).hasSize(2);
        TestSourceContext both = TestSourceContext.hadoop(warehouse, Writes.ROW)
                .pushedLimit(2)
                .set("limit", "5")
                .set("split-file-open-cost", String.valueOf(128L << 20));
        assertThat(table.read(both, table.planOnce(both).splits())).hasSize(5);
    }

    @Test
    void anEmptyTablePlansNothing() throws Exception {
        ScanFixture table =
                new ScanFixture(IcebergSinks.hadoop(warehouse, Writes.ROW).build());
        TestSourceContext context = TestSourceContext.hadoop(warehouse, Writes.ROW);
        table.source.validate(context);
        ScanPlan plan = table.planOnce(context);
        assertThat(plan.splits()).isEmpty();
        assertThat(plan.position()).isNotNull();
    }

    @Test
    void aBoundedPlannerRefusesAStreamingPosition() throws Exception {
        ScanFixture table =
                new ScanFixture(IcebergSinks.hadoop(warehouse, Writes.ROW).build());
        TestSourceContext context = TestSourceContext.hadoop(warehouse, Writes.ROW);
        try (ScanPlanner planner = table.source.createPlanner(context)) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> planner.plan(new Payload(1, new byte[] {0, 0})))
                    .isInstanceOf(java.io.IOException.class)
                    .hasMessageContaining("'streaming' = true")
                    .hasMessageContaining("db.t");
        }
    }
}

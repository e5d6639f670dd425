package io.sluice.plugin.iceberg;

import io.sluice.spi.Payload;
import io.sluice.spi.sink.TargetCommitter;
import io.sluice.spi.sink.TargetWriter;
import io.sluice.testkit.TestSinkContext;

import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.types.RowKind;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableUtil;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static io.sluice.plugin.iceberg.Writes.request;
import static io.sluice.plugin.iceberg.Writes.snapshots;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Upsert mode without a cluster: which option turns it on (write option over table property),
 * the table the sink creates for it (identifier fields from the primary key, format v2), what a
 * checkpoint of inserts, updates and deletes leaves in the table, and every misuse as a clear
 * error that leaves the table unchanged.
 */
class IcebergUpsertTest {

    private static final String OPERATOR = "000000000000000000000000000000aa";

    /** {@code id BIGINT NOT NULL, name STRING}: a key column must be required in Iceberg. */
    static final RowType KEYED = RowType.of(
            new LogicalType[] {new BigIntType(false), new VarCharType(VarCharType.MAX_LENGTH)},
            new String[] {"id", "name"});

    @TempDir
    Path warehouse;

    private final IcebergTargetFactory target = new IcebergTargetFactory();

    private TestSinkContext.Builder upsertContext() {
        return IcebergSinks.hadoop(warehouse, KEYED).primaryKey("id").option("upsert-enabled", "true");
    }

    @Test
    void aTableCreatedForUpsertsHasTheKeyAsIdentifierFieldsAndFormatV2() throws IOException {
        TestSinkContext context = upsertContext().build();
        assertThat(target.changes().orElseThrow().acceptsChanges(context)).isTrue();
        try (CatalogTable table = CatalogTable.load(context.options())) {
            Table t = table.table();
            assertThat(t.schema().identifierFieldNames()).containsExactly("id");
            assertThat(TableUtil.formatVersion(t)).isEqualTo(2);
        }
    }

    @Test
    void upsertsAndDeletesLeaveTheLastVersionOfEveryKey() throws Exception {
        TestSinkContext context = upsertContext().build();
        target.validate(context);
        List<Payload> first = new ArrayList<>();
        List<Payload> second = new ArrayList<>();
        try (TargetWriter writer = target.createWriter(context, new ArrayList<>())) {
            for (long id = 1; id <= 10; id++) {
                writer.write(row(RowKind.INSERT, id, "a"), Writes.NO_TIME);
            }
            writer.prepareCommit(false).forEach(c -> first.add(c.payload()));
            for (long id = 1; id <= 5; id++) {
                writer.write(row(RowKind.UPDATE_AFTER, id, "b"), Writes.NO_TIME);
            }
            writer.write(row(RowKind.DELETE, 6, "a"), Writes.NO_TIME);
            writer.write(row(RowKind.DELETE, 7, null), Writes.NO_TIME);
            writer.write(row(RowKind.INSERT, 11, "b"), Writes.NO_TIME);
            // the same key twice in one checkpoint: the first version is deleted by position
            writer.write(row(RowKind.UPDATE_AFTER, 11, "c"), Writes.NO_TIME);
            writer.write(row(RowKind.UPDATE_BEFORE, 8, "a"), Writes.NO_TIME); // ignored in upsert mode
            writer.prepareCommit(false).forEach(c -> second.add(c.payload()));
        }
        try (TargetCommitter committer = target.createCommitter(context)) {
            committer.commit(request(IcebergSinks.JOB, OPERATOR, 1, first));
            committer.commit(request(IcebergSinks.JOB, OPERATOR, 2, second));
            committer.commit(request(IcebergSinks.JOB, OPERATOR, 2, second)); // a retry: no-op
        }
        try (CatalogTable table = CatalogTable.load(context.options())) {
            Table t = table.table();
            Map<Long, String> expected = new TreeMap<>();
            for (long id = 1; id <= 5; id++) {
                expected.put(id, "b");
            }
            for (long id = 8; id <= 10; id++) {
                expected.put(id, "a");
            }
            expected.put(11L, "c");
            assertThat(contents(t)).isEqualTo(expected);
            assertThat(snapshots(t)).isEqualTo(2);
            assertThat(t.currentSnapshot().summary())
                    .containsKey("added-delete-files")
                    .containsEntry("flink.max-committed-checkpoint-id", "2");
        }
    }

    @Test
    void theWriteOptionBeatsTheTableProperty() {
        TestSinkContext byProperty = IcebergSinks.hadoop(warehouse, KEYED)
                .primaryKey("id")
                .option("write.upsert.enabled", "true")
                .build();
        assertThat(target.changes().orElseThrow().acceptsChanges(byProperty))
                .as("table property set on the created table")
                .isTrue();
        try (CatalogTable table = CatalogTable.load(byProperty.options())) {
            assertThat(table.table().properties()).containsEntry("write.upsert.enabled", "true");
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        TestSinkContext off = IcebergSinks.hadoop(warehouse, KEYED)
                .primaryKey("id")
                .option("upsert-enabled", "false")
                .build();
        assertThat(target.changes().orElseThrow().acceptsChanges(off)).isFalse();
        assertThat(target.changes()
                        .orElseThrow()
                        .acceptsChanges(IcebergSinks.hadoop(warehouse, KEYED)
                                .primaryKey("id")
                                .build()))
                .isTrue();
    }

    @Test
    void theTablesIdentifierFieldsAreTheKeyWithoutAPrimaryKey() {
        Schema schema = new Schema(
                List.of(
                        Types.NestedField.required(1, "id", Types.LongType.get()),
                        Types.NestedField.optional(2, "name", Types.StringType.get())),
                java.util.Set.of(1));
        createTable(schema, PartitionSpec.unpartitioned(), 2);
        assertThat(target.changes()
                        .orElseThrow()
                        .acceptsChanges(IcebergSinks.hadoop(warehouse, KEYED)
                                .option("upsert-enabled", "true")
                                .build()))
                .isTrue();
    }

    @Test
    void upsertIntoAFormatV1TableIsAClearError() {
        TestSinkContext v1 = upsertContext().option("format-version", "1").build();
        assertThatThrownBy(() -> target.validate(v1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Upsert ('upsert-enabled'")
                .hasMessageContaining("format version 2")
                .hasMessageContaining("'default_catalog.db.t' is format version 1");
        assertUnchanged();
    }

    @Test
    void upsertWithoutAKeyIsAClearError() {
        TestSinkContext noKey = IcebergSinks.hadoop(warehouse, KEYED)
                .option("upsert-enabled", "true")
                .build();
        assertThatThrownBy(() -> target.changes().orElseThrow().acceptsChanges(noKey))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("needs equality fields")
                .hasMessageContaining("PRIMARY KEY");
        assertUnchanged();
    }

    @Test
    void aPartitionColumnOutsideTheKeyIsAClearError() {
        TestSinkContext partitioned = upsertContext().partitionKeys("name").build();
        assertThatThrownBy(() -> target.validate(partitioned))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("source column 'name' of partition field 'name'")
                .hasMessageContaining("equality fields [id]");
        assertUnchanged();
    }

    @Test
    void upsertAndOverwriteExcludeEachOther() {
        assertThatThrownBy(() -> target.validate(upsertContext().overwrite(true).build()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("exclude each other");
        assertThatThrownBy(() -> target.validate(
                        upsertContext().option("overwrite-enabled", "true").build()))
                .hasMessageContaining("exclude each other");
        assertUnchanged();
    }

    @Test
    void aKeyColumnMissingFromTheTableIsAClearError() {
        assertThatThrownBy(
                        () -> target.validate(upsertContext().primaryKey("nope").build()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("nope");
    }

    private void assertUnchanged() {
        try (HadoopCatalog catalog = new HadoopCatalog(
                new org.apache.hadoop.conf.Configuration(), warehouse.toUri().toString())) {
            TableIdentifier id = TableIdentifier.of(Namespace.of("db"), "t");
            if (catalog.tableExists(id)) {
                assertThat(catalog.loadTable(id).snapshots()).as("no snapshot").isEmpty();
            }
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    private void createTable(Schema schema, PartitionSpec spec, int formatVersion) {
        try (HadoopCatalog catalog = new HadoopCatalog(
                new org.apache.hadoop.conf.Configuration(), warehouse.toUri().toString())) {
            catalog.createTable(
                    TableIdentifier.of(Namespace.of("db"), "t"),
                    schema,
                    spec,
                    Map.of("format-version", String.valueOf(formatVersion)));
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    static RowData row(RowKind kind, long id, String name) {
        GenericRowData row = GenericRowData.of(id, name == null ? null : StringData.fromString(name));
        row.setRowKind(kind);
        return row;
    }

    /** id -> name of every row, through Iceberg's generic reader (which applies the deletes). */
    static Map<Long, String> contents(Table table) throws IOException {
        table.refresh();
        Map<Long, String> rows = new TreeMap<>();
        try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
            for (Record r : records) {
                String previous = rows.put((Long) r.getField("id"), (String) r.getField("name"));
                assertThat(previous).as("key %s once", r.getField("id")).isNull();
            }
        }
        return rows;
    }
}

package io.sluice.plugin.iceberg;

import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Collections;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Checks on the client: the catalog options, the table (created from the sink's schema when
 * missing, checked against the sink's rows when present) and the write options, each a clear error
 * that names the option and value at fault.
 */
class IcebergTargetValidationTest {

    @TempDir Path warehouse;

    private final IcebergTargetFactory target = new IcebergTargetFactory();

    @Test
    void createsAMissingTableWithItsDatabaseAndIdentityPartitions() {
        TestSinkContext context = TestSinkContext.hadoop(warehouse, Writes.ROW).partitionKeys("name").set("format-version", "1");
        target.validate(context);
        try (CatalogTable table = CatalogTable.load(context.options())) {
            Table t = table.table();
            assertThat(t.schema().asStruct()).isEqualTo(new Schema(
                    Types.NestedField.optional(1, "id", Types.LongType.get()),
                    Types.NestedField.optional(2, "name", Types.StringType.get())).asStruct());
            assertThat(t.spec().fields()).extracting(f -> f.name() + ":" + f.transform()).containsExactly("name:identity");
            assertThat(org.apache.iceberg.TableUtil.formatVersion(t)).isEqualTo(1);
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void anExistingTableKeepsItsSpecAndTakesWideningWrites() {
        Schema schema = new Schema(Types.NestedField.optional(1, "id", Types.LongType.get()),
                Types.NestedField.optional(2, "name", Types.StringType.get()));
        try (HadoopCatalog catalog = new HadoopCatalog(new org.apache.hadoop.conf.Configuration(), warehouse.toUri().toString())) {
            catalog.createTable(TableIdentifier.of(Namespace.of("db"), "t"), schema,
                    PartitionSpec.builderFor(schema).bucket("id", 4).build(), Collections.emptyMap());
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
        // INT into a long column is a widening Iceberg accepts
        RowType ints = RowType.of(new LogicalType[] {new IntType(), new VarCharType(VarCharType.MAX_LENGTH)}, new String[] {"id", "name"});
        target.validate(TestSinkContext.hadoop(warehouse, ints).partitionKeys("name"));
    }

    @Test
    void rowsThatDoNotFitTheTableAreRejected() {
        target.validate(TestSinkContext.hadoop(warehouse, Writes.ROW));
        RowType other = RowType.of(new LogicalType[] {new BigIntType(), new BigIntType()}, new String[] {"id", "amount"});
        assertThatThrownBy(() -> target.validate(TestSinkContext.hadoop(warehouse, other)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'catalog-table'").hasMessageContaining("db.t").hasMessageContaining("amount");
    }

    @Test
    void catalogOptionsAreChecked() {
        assertThatThrownBy(() -> target.validate(TestSinkContext.hadoop(warehouse, Writes.ROW).remove("warehouse")))
                .hasMessageContaining("'warehouse' is required with 'catalog-type' = 'hadoop'");
        assertThatThrownBy(() -> target.validate(TestSinkContext.hadoop(warehouse, Writes.ROW).set("catalog-type", "hive")))
                .hasMessageContaining("'catalog-type' = 'hive' is not supported by this version");
        assertThatThrownBy(() -> target.validate(TestSinkContext.hadoop(warehouse, Writes.ROW).remove("catalog-type")))
                .hasMessageContaining("'hive' (the default when neither");
        assertThatThrownBy(() -> target.validate(TestSinkContext.hadoop(warehouse, Writes.ROW).set("catalog-type", "glue")))
                .hasMessageContaining("Invalid 'catalog-type' 'glue'");
        assertThatThrownBy(() -> target.validate(TestSinkContext.hadoop(warehouse, Writes.ROW)
                        .set("catalog-impl", HadoopCatalog.class.getName())))
                .hasMessageContaining("'catalog-type' ('hadoop') and 'catalog-impl'");
        assertThatThrownBy(() -> target.validate(TestSinkContext.hadoop(warehouse, Writes.ROW).remove("catalog-type")
                        .set("catalog-impl", "com.example.NoSuchCatalog")))
                .hasMessageContaining("com.example.NoSuchCatalog");
    }

    @Test
    void aCatalogClassWorksInsteadOfAType() {
        TestSinkContext context = TestSinkContext.hadoop(warehouse, Writes.ROW).remove("catalog-type")
                .set("catalog-impl", HadoopCatalog.class.getName());
        target.validate(context);
        assertThat(warehouse.resolve("db").resolve("t").resolve("metadata")).isDirectory();
    }

    @Test
    void writeOptionsAreChecked() {
        assertThatThrownBy(() -> target.validate(TestSinkContext.hadoop(warehouse, Writes.ROW).set("write-format", "csv")))
                .hasMessageContaining("Invalid 'write-format'").hasMessageContaining("csv");
        assertThatThrownBy(() -> target.validate(TestSinkContext.hadoop(warehouse, Writes.ROW).set("target-file-size-bytes", "0")))
                .hasMessageContaining("'target-file-size-bytes' 0");
        assertThatThrownBy(() -> target.validate(TestSinkContext.hadoop(warehouse, Writes.ROW).set("upsert-enabled", "true")))
                .hasMessageContaining("Upsert");
        assertThatThrownBy(() -> target.validate(TestSinkContext.hadoop(warehouse, Writes.ROW).set("overwrite-enabled", "true")))
                .hasMessageContaining("'overwrite-enabled'");
        target.validate(TestSinkContext.hadoop(warehouse, Writes.ROW).set("write-format", "orc")
                .set("compression-codec", "zstd").set("target-file-size-bytes", "1048576"));
    }

    @Test
    void declaresTheUpstreamOptionNames() {
        assertThat(target.requiredOptions()).extracting(o -> o.key()).containsExactly("catalog-table");
        assertThat(target.optionalOptions()).extracting(o -> o.key()).contains("catalog-name", "catalog-type", "catalog-impl",
                "warehouse", "uri", "catalog-database", "write-format", "target-file-size-bytes", "branch", "upsert-enabled");
    }
}

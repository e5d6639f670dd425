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
import java.util.Map;

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
                .hasMessageContaining("'catalog-type' = 'hive' needs option 'uri'");
        assertThatThrownBy(() -> target.validate(TestSinkContext.hadoop(warehouse, Writes.ROW).remove("catalog-type")))
                .hasMessageContaining("'hive' (the default when neither");
        assertThatThrownBy(() -> target.validate(TestSinkContext.hadoop(warehouse, Writes.ROW).set("catalog-type", "hive")
                        .set("uri", "localhost:9083")))
                .hasMessageContaining("Invalid 'uri' 'localhost:9083' for 'catalog-type' = 'hive'");
        assertThatThrownBy(() -> target.validate(TestSinkContext.hadoop(warehouse, Writes.ROW).set("catalog-type", "rest")))
                .hasMessageContaining("Option 'uri' is required with 'catalog-type' = 'rest'");
        assertThatThrownBy(() -> target.validate(TestSinkContext.hadoop(warehouse, Writes.ROW).set("catalog-type", "rest")
                        .set("uri", "thrift://localhost:9083")))
                .hasMessageContaining("Invalid 'uri' 'thrift://localhost:9083' for 'catalog-type' = 'rest'");
        assertThatThrownBy(() -> target.validate(TestSinkContext.hadoop(warehouse, Writes.ROW).set("property-version", "2")))
                .hasMessageContaining("Unsupported 'property-version' 2");
        assertThatThrownBy(() -> target.validate(TestSinkContext.hadoop(warehouse, Writes.ROW)
                        .set("cache.expiration-interval-ms", "0")))
                .hasMessageContaining("Invalid 'cache.expiration-interval-ms' 0");
        assertThatThrownBy(() -> target.validate(TestSinkContext.hadoop(warehouse, Writes.ROW).set("clients", "0")))
                .hasMessageContaining("Invalid 'clients' 0");
        assertThatThrownBy(() -> target.validate(TestSinkContext.hadoop(warehouse, Writes.ROW)
                        .set("hadoop-conf-dir", warehouse.resolve("nowhere").toString())))
                .hasMessageContaining("Option 'hadoop-conf-dir' = '" + warehouse.resolve("nowhere") + "': no such local directory");
        assertThatThrownBy(() -> target.validate(TestSinkContext.hadoop(warehouse, Writes.ROW)
                        .set("hadoop-conf-dir", warehouse.toString())))
                .hasMessageContaining("the directory has none of [core-site.xml, hdfs-site.xml]");
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
    void passesTheAllowListedCatalogPropertiesUnderTheirOwnKeys() {
        TestSinkContext context = TestSinkContext.hadoop(warehouse, Writes.ROW).set("clients", "4")
                .set("io-impl", "org.apache.iceberg.hadoop.HadoopFileIO").set("token", "t").set("credential", "id:secret")
                .set("oauth2-server-uri", "http://auth/token").set("scope", "catalog").set("cache-enabled", "false")
                .set("cache.expiration-interval-ms", "5000").set("property-version", "1").set("catalog-database", "db")
                .set("header.X-Tenant", "blue").set("rest.auth.type", "oauth2").set("write-format", "orc");
        assertThat(IcebergCatalogs.properties(context.options())).containsOnly(
                Map.entry("warehouse", warehouse.toUri().toString()), Map.entry("clients", "4"),
                Map.entry("io-impl", "org.apache.iceberg.hadoop.HadoopFileIO"), Map.entry("token", "t"),
                Map.entry("credential", "id:secret"), Map.entry("oauth2-server-uri", "http://auth/token"),
                Map.entry("scope", "catalog"), Map.entry("cache-enabled", "false"),
                Map.entry("cache.expiration-interval-ms", "5000"), Map.entry("header.X-Tenant", "blue"),
                Map.entry("rest.auth.type", "oauth2"));
        assertThat(target.optionPrefixes()).contains("header.", "rest.", "table-default.");
    }

    @Test
    void hadoopConfDirSiteFilesReachTheCatalog() throws java.io.IOException {
        Path conf = java.nio.file.Files.createDirectories(warehouse.resolveSibling(warehouse.getFileName() + "-conf"));
        java.nio.file.Files.writeString(conf.resolve("core-site.xml"), "<configuration><property><name>sluice.test.key</name>"
                + "<value>from-site</value></property></configuration>");
        assertThat(HadoopConfigurations.create(conf.toString(), null).get("sluice.test.key")).isEqualTo("from-site");
        target.validate(TestSinkContext.hadoop(warehouse, Writes.ROW).set("hadoop-conf-dir", conf.toString()));
    }

    @Test
    void writeOptionsAreChecked() {
        assertThatThrownBy(() -> target.validate(TestSinkContext.hadoop(warehouse, Writes.ROW).set("write-format", "csv")))
                .hasMessageContaining("Invalid 'write-format'").hasMessageContaining("csv");
        assertThatThrownBy(() -> target.validate(TestSinkContext.hadoop(warehouse, Writes.ROW).set("target-file-size-bytes", "0")))
                .hasMessageContaining("'target-file-size-bytes' 0");
        assertThatThrownBy(() -> target.validate(TestSinkContext.hadoop(warehouse, Writes.ROW)
                        .set("snapshot-properties", "flink.job-id:x")))
                .hasMessageContaining("'snapshot-properties'").hasMessageContaining("'flink.job-id' is reserved");
        target.validate(TestSinkContext.hadoop(warehouse, Writes.ROW).set("write-format", "orc")
                .set("compression-codec", "zstd").set("target-file-size-bytes", "1048576"));
    }

    @Test
    void declaresTheUpstreamOptionNames() {
        assertThat(target.requiredOptions()).extracting(o -> o.key()).containsExactly("catalog-table");
        assertThat(target.optionalOptions()).extracting(o -> o.key()).contains("catalog-name", "catalog-type", "catalog-impl",
                "warehouse", "uri", "catalog-database", "write-format", "target-file-size-bytes", "branch", "upsert-enabled",
                "clients", "hive-conf-dir", "hadoop-conf-dir", "property-version", "cache-enabled", "cache.expiration-interval-ms",
                "io-impl", "credential", "token", "oauth2-server-uri", "scope",
                "write.upsert.enabled", "overwrite-enabled", "snapshot-properties");
        assertThat(target.supportsOverwrite()).isTrue();
    }
}

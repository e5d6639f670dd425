package io.sluice.plugin.iceberg;

import io.sluice.testkit.TestSinkContext;

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

    @TempDir
    Path warehouse;

    private final IcebergTargetFactory target = new IcebergTargetFactory();

    @Test
    void createsAMissingTableWithItsDatabaseAndIdentityPartitions() {
        TestSinkContext context = IcebergSinks.hadoop(warehouse, Writes.ROW)
                .partitionKeys("name")
                .option("format-version", "1")
                .build();
        target.validate(context);
        try (CatalogTable table = CatalogTable.load(context.options())) {
            Table t = table.table();
            assertThat(t.schema().asStruct())
                    .isEqualTo(new Schema(
                                    Types.NestedField.optional(1, "id", Types.LongType.get()),
                                    Types.NestedField.optional(2, "name", Types.StringType.get()))
                            .asStruct());
            assertThat(t.spec().fields())
                    .extracting(f -> f.name() + ":" + f.transform())
                    .containsExactly("name:identity");
            assertThat(org.apache.iceberg.TableUtil.formatVersion(t)).isEqualTo(1);
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void anExistingTableKeepsItsSpecAndTakesWideningWrites() {
        Schema schema = new Schema(
                Types.NestedField.optional(1, "id", Types.LongType.get()),
                Types.NestedField.optional(2, "name", Types.StringType.get()));
        try (HadoopCatalog catalog = new HadoopCatalog(
                new org.apache.hadoop.conf.Configuration(), warehouse.toUri().toString())) {
            catalog.createTable(
                    TableIdentifier.of(Namespace.of("db"), "t"),
                    schema,
                    PartitionSpec.builderFor(schema).bucket("id", 4).build(),
                    Collections.emptyMap());
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
        // INT into a long column is a widening Iceberg accepts
        RowType ints = RowType.of(
                new LogicalType[] {new IntType(), new VarCharType(VarCharType.MAX_LENGTH)},
                new String[] {"id", "name"});
        target.validate(
                IcebergSinks.hadoop(warehouse, ints).partitionKeys("name").build());
    }

    @Test
    void rowsThatDoNotFitTheTableAreRejected() {
        target.validate(IcebergSinks.hadoop(warehouse, Writes.ROW).build());
        RowType other =
                RowType.of(new LogicalType[] {new BigIntType(), new BigIntType()}, new String[] {"id", "amount"});
        assertThatThrownBy(() ->
                        target.validate(IcebergSinks.hadoop(warehouse, other).build()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'catalog-table'")
                .hasMessageContaining("db.t")
                .hasMessageContaining("amount");
    }

    @Test
    void catalogOptionsAreChecked() {
        assertThatThrownBy(() -> target.validate(IcebergSinks.hadoop(warehouse, Writes.ROW)
                        .withoutOption("warehouse")
                        .build()))
                .hasMessageContaining("'warehouse' is required with 'catalog-type' = 'hadoop'");
        assertThatThrownBy(() -> target.validate(IcebergSinks.hadoop(warehouse, Writes.ROW)
                        .option("catalog-type", "hive")
                        .build()))
                .hasMessageContaining("'catalog-type' = 'hive' needs option 'uri'");
        assertThatThrownBy(() -> target.validate(IcebergSinks.hadoop(warehouse, Writes.ROW)
                        .withoutOption("catalog-type")
                        .build()))
                .hasMessageContaining("'hive' (the default when neither");
        assertThatThrownBy(() -> target.validate(IcebergSinks.hadoop(warehouse, Writes.ROW)
                        .option("catalog-type", "hive")
                        .option("uri", "localhost:9083")
                        .build()))
                .hasMessageContaining("Invalid 'uri' 'localhost:9083' for 'catalog-type' = 'hive'");
        assertThatThrownBy(() -> target.validate(IcebergSinks.hadoop(warehouse, Writes.ROW)
                        .option("catalog-type", "rest")
                        .build()))
                .hasMessageContaining("Option 'uri' is required with 'catalog-type' = 'rest'");
        assertThatThrownBy(() -> target.validate(IcebergSinks.hadoop(warehouse, Writes.ROW)
                        .option("catalog-type", "rest")
                        .option("uri", "thrift://localhost:9083")
                        .build()))
                .hasMessageContaining("Invalid 'uri' 'thrift://localhost:9083' for 'catalog-type' = 'rest'");
        assertThatThrownBy(() -> target.validate(IcebergSinks.hadoop(warehouse, Writes.ROW)
                        .option("property-version", "2")
                        .build()))
                .hasMessageContaining("Unsupported 'property-version' 2");
        assertThatThrownBy(() -> target.validate(IcebergSinks.hadoop(warehouse, Writes.ROW)
                        .option("cache.expiration-interval-ms", "0")
                        .build()))
                .hasMessageContaining("Invalid 'cache.expiration-interval-ms' 0");
        assertThatThrownBy(() -> target.validate(IcebergSinks.hadoop(warehouse, Writes.ROW)
                        .option("clients", "0")
                        .build()))
                .hasMessageContaining("Invalid 'clients' 0");
        assertThatThrownBy(() -> target.validate(IcebergSinks.hadoop(warehouse, Writes.ROW)
                        .option("hadoop-conf-dir", warehouse.resolve("nowhere").toString())
                        .build()))
                .hasMessageContaining(
                        "Option 'hadoop-conf-dir' = '" + warehouse.resolve("nowhere") + "': no such local directory");
        assertThatThrownBy(() -> target.validate(IcebergSinks.hadoop(warehouse, Writes.ROW)
                        .option("hadoop-conf-dir", warehouse.toString())
                        .build()))
                .hasMessageContaining("the directory has none of [core-site.xml, hdfs-site.xml]");
        assertThatThrownBy(() -> target.validate(IcebergSinks.hadoop(warehouse, Writes.ROW)
                        .option("catalog-type", "glue")
                        .build()))
                .hasMessageContaining("Invalid 'catalog-type' 'glue'");
        assertThatThrownBy(() -> target.validate(IcebergSinks.hadoop(warehouse, Writes.ROW)
                        .option("catalog-impl", HadoopCatalog.class.getName())
                        .build()))
                .hasMessageContaining("'catalog-type' ('hadoop') and 'catalog-impl'");
        assertThatThrownBy(() -> target.validate(IcebergSinks.hadoop(warehouse, Writes.ROW)
                        .withoutOption("catalog-type")
                        .option("catalog-impl", "com.example.NoSuchCatalog")
                        .build()))
                .hasMessageContaining("com.example.NoSuchCatalog");
    }

    @Test
    void aCatalogClassWorksInsteadOfAType() {
        TestSinkContext context = IcebergSinks.hadoop(warehouse, Writes.ROW)
                .withoutOption("catalog-type")
                .option("catalog-impl", HadoopCatalog.class.getName())
                .build();
        target.validate(context);
        assertThat(warehouse.resolve("db").resolve("t").resolve("metadata")).isDirectory();
    }

    @Test
    void passesTheAllowListedCatalogPropertiesUnderTheirOwnKeys() {
        TestSinkContext context = IcebergSinks.hadoop(warehouse, Writes.ROW)
                .option("clients", "4")
                .option("io-impl", "org.apache.iceberg.hadoop.HadoopFileIO")
                .option("token", "t")
                .option("credential", "id:secret")
                .option("oauth2-server-uri", "http://auth/token")
                .option("scope", "catalog")
                .option("cache-enabled", "false")
                .option("cache.expiration-interval-ms", "5000")
                .option("property-version", "1")
                .option("catalog-database", "db")
                .option("header.X-Tenant", "blue")
                .option("rest.auth.type", "oauth2")
                .option("write-format", "orc")
                .build();
        assertThat(IcebergCatalogs.properties(context.options()))
                .containsOnly(
                        Map.entry("warehouse", warehouse.toUri().toString()),
                        Map.entry("clients", "4"),
                        Map.entry("io-impl", "org.apache.iceberg.hadoop.HadoopFileIO"),
                        Map.entry("token", "t"),
                        Map.entry("credential", "id:secret"),
                        Map.entry("oauth2-server-uri", "http://auth/token"),
                        Map.entry("scope", "catalog"),
                        Map.entry("cache-enabled", "false"),
                        Map.entry("cache.expiration-interval-ms", "5000"),
                        Map.entry("header.X-Tenant", "blue"),
                        Map.entry("rest.auth.type", "oauth2"),
                        // the one HTTP client of the AWS SDK the plugin bundles, for S3FileIO
                        Map.entry("http-client.type", "urlconnection"),
                        // the S3 client alone, not Iceberg's AwsClientFactory (KMS, Glue, DynamoDB)
                        Map.entry(
                                "s3.client-factory-impl", "org.apache.iceberg.aws.s3.DefaultS3FileIOAwsClientFactory"));
        assertThat(target.optionPrefixes()).contains("header.", "rest.", "table-default.", "s3.", "http-client.");
    }

    @Test
    void aRestCatalogWithoutIoImplReachesItsFilesThroughHadoopFileIo() {
        TestSinkContext rest = IcebergSinks.hadoop(warehouse, Writes.ROW)
                .option("catalog-type", "rest")
                .option("uri", "http://localhost:8181/")
                .build();
        // not Iceberg's ResolvingFileIO, which would pick the bundled S3FileIO for s3:// locations
        assertThat(IcebergCatalogs.properties(rest.options()))
                .containsEntry("io-impl", "org.apache.iceberg.hadoop.HadoopFileIO");
        TestSinkContext s3FileIo = IcebergSinks.hadoop(warehouse, Writes.ROW)
                .option("catalog-type", "rest")
                .option("uri", "http://localhost:8181/")
                .option("io-impl", "org.apache.iceberg.aws.s3.S3FileIO")
                .option("s3.endpoint", "http://localhost:9000")
                .option("client.region", "eu-west-1")
                .build();
        assertThat(IcebergCatalogs.properties(s3FileIo.options()))
                .containsEntry("io-impl", "org.apache.iceberg.aws.s3.S3FileIO")
                .containsEntry("s3.endpoint", "http://localhost:9000")
                .containsEntry("client.region", "eu-west-1")
                .containsEntry("http-client.type", "urlconnection");
    }

    @Test
    void awsSdkModulesThePluginDoesNotBundleAreRefused() {
        TestSinkContext apache = IcebergSinks.hadoop(warehouse, Writes.ROW)
                .option("http-client.type", "apache")
                .build();
        assertThatThrownBy(() -> IcebergCatalogs.properties(apache.options()))
                .hasMessageContaining("Invalid 'http-client.type' 'apache'")
                .hasMessageContaining("'urlconnection'");
        TestSinkContext awsClientFactory = IcebergSinks.hadoop(warehouse, Writes.ROW)
                .option("client.factory", "org.apache.iceberg.aws.AssumeRoleAwsClientFactory")
                .build();
        assertThatThrownBy(() -> IcebergCatalogs.properties(awsClientFactory.options()))
                .hasMessageContaining("Unsupported 'client.factory'")
                .hasMessageContaining("'s3.client-factory-impl'");
    }

    @Test
    void hadoopConfDirSiteFilesReachTheCatalog() throws java.io.IOException {
        Path conf = java.nio.file.Files.createDirectories(warehouse.resolveSibling(warehouse.getFileName() + "-conf"));
        java.nio.file.Files.writeString(
                conf.resolve("core-site.xml"),
                "<configuration><property><name>sluice.test.key</name>"
                        + "<value>from-site</value></property></configuration>");
        assertThat(HadoopConfigurations.create(conf.toString(), null).get("sluice.test.key"))
                .isEqualTo("from-site");
        target.validate(IcebergSinks.hadoop(warehouse, Writes.ROW)
                .option("hadoop-conf-dir", conf.toString())
                .build());
    }

    @Test
    void writeOptionsAreChecked() {
        assertThatThrownBy(() -> target.validate(IcebergSinks.hadoop(warehouse, Writes.ROW)
                        .option("write-format", "csv")
                        .build()))
                .hasMessageContaining("Invalid 'write-format'")
                .hasMessageContaining("csv");
        assertThatThrownBy(() -> target.validate(IcebergSinks.hadoop(warehouse, Writes.ROW)
                        .option("target-file-size-bytes", "0")
                        .build()))
                .hasMessageContaining("'target-file-size-bytes' 0");
        assertThatThrownBy(() -> target.validate(IcebergSinks.hadoop(warehouse, Writes.ROW)
                        .option("snapshot-properties", "flink.job-id:x")
                        .build()))
                .hasMessageContaining("'snapshot-properties'")
                .hasMessageContaining("'flink.job-id' is reserved");
        target.validate(IcebergSinks.hadoop(warehouse, Writes.ROW)
                .option("write-format", "orc")
                .option("compression-codec", "zstd")
                .option("target-file-size-bytes", "1048576")
                .build());
    }

    @Test
    void declaresTheUpstreamOptionNames() {
        assertThat(target.requiredOptions()).extracting(o -> o.key()).containsExactly("catalog-table");
        assertThat(target.optionalOptions())
                .extracting(o -> o.key())
                .contains(
                        "catalog-name",
                        "catalog-type",
                        "catalog-impl",
                        "warehouse",
                        "uri",
                        "catalog-database",
                        "write-format",
                        "target-file-size-bytes",
                        "branch",
                        "upsert-enabled",
                        "clients",
                        "hive-conf-dir",
                        "hadoop-conf-dir",
                        "property-version",
                        "cache-enabled",
                        "cache.expiration-interval-ms",
                        "io-impl",
                        "credential",
                        "token",
                        "oauth2-server-uri",
                        "scope",
                        "write.upsert.enabled",
                        "overwrite-enabled",
                        "snapshot-properties");
        assertThat(target.overwrite()).isPresent();
    }
}

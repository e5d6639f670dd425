package io.sluice.plugin.iceberg;

import io.sluice.spi.PathNames;
import io.sluice.testkit.TestSinkContext;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Name by name: {@code catalog-database} and {@code catalog-table} must each be one path segment,
 * {@code warehouse} must not have dot segments, nor be on an object store for a Hadoop catalog
 * (whose commits need an atomic rename); a rejected name is refused by the sink's and the
 * scan source's {@code validate} before the catalog creates anything. Names with a leading {@code
 * .} or {@code _}, spaces, unicode or {@code %} are Iceberg's business and accepted.
 */
class IcebergPathOptionsTest {

    @TempDir
    Path root;

    private final IcebergTargetFactory target = new IcebergTargetFactory();
    private final IcebergScanSourceFactory source = new IcebergScanSourceFactory();

    private Path warehouse() {
        return root.resolve("warehouse");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "..",
                "../../../esc",
                "../x",
                "a/b",
                "/abs",
                "\\",
                "a\\b",
                ":",
                "a:b",
                "",
                "nul\u0000",
                "tab\t",
                "."
            })
    void rejectedTableAndDatabaseNames(String name) throws IOException {
        for (String option : List.of("catalog-table", "catalog-database")) {
            TestSinkContext sink = IcebergSinks.hadoop(warehouse(), Writes.ROW)
                    .option(option, name)
                    .build();
            assertThatThrownBy(() -> target.validate(sink))
                    .as("%s '%s'", option, name)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("Invalid '" + option + "' '" + PathNames.escape(name) + "': ");
            TestSourceContext scan =
                    TestSourceContext.hadoop(warehouse(), Writes.ROW).set(option, name);
            assertThatThrownBy(() -> source.validate(scan))
                    .as("%s '%s'", option, name)
                    .hasMessageStartingWith("Invalid '" + option + "' '" + PathNames.escape(name) + "': ");
        }
        assertThat(everything(root)).isEmpty();
    }

    @Test
    void namesLongerThan255BytesAreRejected() throws IOException {
        String name = "t".repeat(256);
        assertThatThrownBy(() -> target.validate(IcebergSinks.hadoop(warehouse(), Writes.ROW)
                        .option("catalog-table", name)
                        .build()))
                .hasMessageContaining("'catalog-table'")
                .hasMessageContaining("256 bytes");
        assertThat(everything(root)).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"events", "my_table", "_staging", ".hidden", "a b", "ü日本", "50%", "a.b"})
    void acceptedTableNames(String name) {
        assertThatCode(() -> target.validate(IcebergSinks.hadoop(warehouse(), Writes.ROW)
                        .option("catalog-table", name)
                        .build()))
                .doesNotThrowAnyException();
    }

    @Test
    void warehousesWithDotSegmentsAreRejected() throws IOException {
        for (String w : List.of(warehouse().toUri() + "/../esc", root + "/./w", root + "/w/..")) {
            assertThatThrownBy(() -> target.validate(IcebergSinks.hadoop(warehouse(), Writes.ROW)
                            .option("warehouse", w)
                            .build()))
                    .as(w)
                    .hasMessageStartingWith("Invalid 'warehouse' '" + w + "': ");
        }
        assertThat(everything(root)).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "s3://bucket/warehouse",
                "s3a://bucket/warehouse",
                "gs://bucket/warehouse",
                "abfss://container@account.dfs.core.windows.net/warehouse",
                "oss://bucket/warehouse"
            })
    void aHadoopCatalogOnAnObjectStoreIsRefused(String warehouse) throws IOException {
        String scheme = warehouse.substring(0, warehouse.indexOf(':'));
        TestSinkContext byType = IcebergSinks.hadoop(warehouse(), Writes.ROW)
                .option("warehouse", warehouse)
                .build();
        assertThatThrownBy(() -> target.validate(byType))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("Invalid 'warehouse' '" + warehouse + "' for 'catalog-type' = 'hadoop': ")
                .hasMessageContaining("atomic rename, which " + scheme + ":// (an object store) cannot do")
                .hasMessageContaining("Use 'catalog-type' = 'hive' or 'rest'");
        TestSinkContext byClass = IcebergSinks.hadoop(warehouse(), Writes.ROW)
                .withoutOption("catalog-type")
                .option("catalog-impl", org.apache.iceberg.hadoop.HadoopCatalog.class.getName())
                .option("warehouse", warehouse)
                .build();
        assertThatThrownBy(() -> target.validate(byClass))
                .hasMessageStartingWith("Invalid 'warehouse' '" + warehouse
                        + "' for 'catalog-impl' = 'org.apache.iceberg.hadoop.HadoopCatalog': ");
        TestSourceContext scan =
                TestSourceContext.hadoop(warehouse(), Writes.ROW).set("warehouse", warehouse);
        assertThatThrownBy(() -> source.validate(scan))
                .hasMessageStartingWith("Invalid 'warehouse' '" + warehouse + "' for 'catalog-type' = 'hadoop': ");
        assertThat(everything(root)).isEmpty();
    }

    private static List<Path> everything(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(p -> !p.equals(dir)).collect(Collectors.toList());
        }
    }
}

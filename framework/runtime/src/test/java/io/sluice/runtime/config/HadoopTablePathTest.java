package io.sluice.runtime.config;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class HadoopTablePathTest {

    @Test
    void theDirectoryAboveIsTheDatabaseAndTheOneAboveThatTheWarehouse() {
        assertThat(HadoopTablePath.options("hdfs://nn:8020/warehouse/path"))
                .hasSize(4)
                .containsAllEntriesOf(Map.of(
                        "catalog-type", "hadoop",
                        "warehouse", "hdfs://nn:8020/",
                        "catalog-database", "warehouse",
                        "catalog-table", "path"));
        assertThat(HadoopTablePath.options("file:///data/lake/db/events/"))
                .containsEntry("warehouse", "file:///data/lake")
                .containsEntry("catalog-database", "db")
                .containsEntry("catalog-table", "events");
        assertThat(HadoopTablePath.options("file:/data/db/events")).containsEntry("warehouse", "file:/data");
        assertThat(HadoopTablePath.options("/data/db/events"))
                .containsEntry("warehouse", "/data")
                .containsEntry("catalog-database", "db");
        // the authority is never taken for a directory
        assertThat(HadoopTablePath.options("s3a://bucket/db/t")).containsEntry("warehouse", "s3a://bucket/");
    }

    @Test
    void aPathWithoutADatabaseDirectoryOrARelativePathIsAnError() {
        assertThatThrownBy(() -> HadoopTablePath.options("hdfs://nn:8020/t"))
                .hasMessageContaining("Invalid table path 'hdfs://nn:8020/t'");
        assertThatThrownBy(() -> HadoopTablePath.options("hdfs://nn")).hasMessageContaining("Invalid table path");
        assertThatThrownBy(() -> HadoopTablePath.options("db/t")).hasMessageContaining("Invalid table path 'db/t'");
        assertThatThrownBy(() -> HadoopTablePath.options(" ")).hasMessageContaining("must not be empty");
    }
}

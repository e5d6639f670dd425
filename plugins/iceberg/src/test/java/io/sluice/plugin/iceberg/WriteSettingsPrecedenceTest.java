package io.sluice.plugin.iceberg;

import io.sluice.testkit.TestSinkContext;

import org.apache.iceberg.FileFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** A write option comes from the sink's options, else the job's configuration, else the table's properties. */
class WriteSettingsPrecedenceTest {

    @TempDir
    Path warehouse;

    private final IcebergTargetFactory target = new IcebergTargetFactory();

    @Test
    void sinkOptionOverJobConfigurationOverTableProperty() {
        TestSinkContext context = IcebergSinks.hadoop(warehouse, Writes.ROW).build();
        target.validate(context);
        try (CatalogTable table = CatalogTable.load(context.options())) {
            table.table().updateProperties().set("write.format.default", "avro").commit();
            assertThat(WriteSettings.of(table.table(), context).format()).isEqualTo(FileFormat.AVRO);

            TestSinkContext withJob =
                    context.toBuilder().jobOption("write-format", "orc").build();
            assertThat(WriteSettings.of(table.table(), withJob).format()).isEqualTo(FileFormat.ORC);

            TestSinkContext withOption =
                    withJob.toBuilder().option("write-format", "parquet").build();
            assertThat(WriteSettings.of(table.table(), withOption).format()).isEqualTo(FileFormat.PARQUET);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}

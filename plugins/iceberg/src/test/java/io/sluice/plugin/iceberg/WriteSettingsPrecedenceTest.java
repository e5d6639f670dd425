package io.sluice.plugin.iceberg;

import org.apache.iceberg.FileFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** A write option comes from the sink's options, else the job's configuration, else the table's properties. */
class WriteSettingsPrecedenceTest {

    @TempDir Path warehouse;

    private final IcebergTargetFactory target = new IcebergTargetFactory();

    @Test
    void sinkOptionOverJobConfigurationOverTableProperty() {
        TestSinkContext context = TestSinkContext.hadoop(warehouse, Writes.ROW);
        target.validate(context);
        try (CatalogTable table = CatalogTable.load(context.options())) {
            table.table().updateProperties().set("write.format.default", "avro").commit();
            assertThat(WriteSettings.of(table.table(), context).format()).isEqualTo(FileFormat.AVRO);

            context.setJob("write-format", "orc");
            assertThat(WriteSettings.of(table.table(), context).format()).isEqualTo(FileFormat.ORC);

            context.set("write-format", "parquet");
            assertThat(WriteSettings.of(table.table(), context).format()).isEqualTo(FileFormat.PARQUET);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}

package io.sluice.runtime.sink.dynamic.iceberg;

import io.sluice.runtime.sink.dynamic.DynamicRecord;
import io.sluice.spi.distribution.DistributionMode;

import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The job-side conversion of Iceberg's schema, spec, identifier and mode, with Iceberg's API on the class path. */
class IcebergAdaptersTest {

    private static final Schema SCHEMA = new Schema(
            Types.NestedField.required(1, "id", Types.LongType.get()),
            Types.NestedField.optional(2, "name", Types.StringType.get()),
            Types.NestedField.optional(3, "n", Types.IntegerType.get()),
            Types.NestedField.required(4, "ts", Types.TimestampType.withoutZone()),
            Types.NestedField.optional(5, "tz", Types.TimestampType.withZone()),
            Types.NestedField.optional(6, "amount", Types.DecimalType.of(12, 2)),
            Types.NestedField.optional(7, "uuid", Types.UUIDType.get()),
            Types.NestedField.optional(8, "raw", Types.BinaryType.get()),
            Types.NestedField.optional(9, "code", Types.FixedType.ofLength(4)),
            Types.NestedField.optional(10, "day", Types.DateType.get()),
            Types.NestedField.optional(11, "at", Types.TimeType.get()),
            Types.NestedField.optional(12, "ok", Types.BooleanType.get()),
            Types.NestedField.optional(13, "f", Types.FloatType.get()),
            Types.NestedField.optional(14, "d", Types.DoubleType.get()),
            Types.NestedField.optional(15, "tags", Types.ListType.ofRequired(16, Types.StringType.get())),
            Types.NestedField.optional(
                    17, "attrs", Types.MapType.ofOptional(18, 19, Types.StringType.get(), Types.LongType.get())),
            Types.NestedField.optional(
                    20,
                    "address",
                    Types.StructType.of(
                            Types.NestedField.required(21, "city", Types.StringType.get()),
                            Types.NestedField.optional(22, "zip", Types.IntegerType.get()))));

    @Test
    void schemasBecomeRowTypesAsIcebergsFlinkConnectorMapsThem() {
        RowType row = IcebergAdapters.rowType(SCHEMA);
        assertThat(row.asSummaryString())
                .isEqualTo("ROW<`id` BIGINT NOT NULL, `name` STRING, `n` INT, `ts` TIMESTAMP(6) NOT NULL,"
                        + " `tz` TIMESTAMP_LTZ(6), `amount` DECIMAL(12, 2), `uuid` BINARY(16), `raw` BYTES,"
                        + " `code` BINARY(4), `day` DATE, `at` TIME(6), `ok` BOOLEAN, `f` FLOAT, `d` DOUBLE,"
                        + " `tags` ARRAY<STRING NOT NULL>, `attrs` MAP<STRING NOT NULL, BIGINT>,"
                        + " `address` ROW<`city` STRING NOT NULL, `zip` INT>>");
    }

    @Test
    void oneSchemaInstanceIsOneRowTypeInstance() {
        // the sink's input-schema cache hits for a generator that reuses its schema
        assertThat(IcebergAdapters.rowType(SCHEMA)).isSameAs(IcebergAdapters.rowType(SCHEMA));
    }

    @Test
    void specsBecomeTransformsInTheRecordsSyntax() {
        PartitionSpec spec = PartitionSpec.builderFor(SCHEMA)
                .identity("name")
                .bucket("id", 16)
                .truncate("name", 4)
                .day("ts")
                .build();
        assertThat(IcebergAdapters.spec(spec))
                .containsExactly("identity(name)", "bucket(16, id)", "truncate(4, name)", "days(ts)");
        assertThat(IcebergAdapters.spec(
                        PartitionSpec.builderFor(SCHEMA).hour("ts").build()))
                .containsExactly("hours(ts)");
        assertThat(IcebergAdapters.spec(
                        PartitionSpec.builderFor(SCHEMA).month("day").build()))
                .containsExactly("months(day)");
        assertThat(IcebergAdapters.spec(
                        PartitionSpec.builderFor(SCHEMA).year("day").build()))
                .containsExactly("years(day)");
        assertThat(IcebergAdapters.spec(PartitionSpec.unpartitioned())).isEmpty();
        assertThatThrownBy(() -> IcebergAdapters.spec(
                        PartitionSpec.builderFor(SCHEMA).alwaysNull("n").build()))
                .hasMessageContaining("column 'n' has transform 'void'");
    }

    @Test
    void theSeedsRecordWithOneCallChanged() {
        GenericRowData row = GenericRowData.of(1L);
        DynamicRecord record = IcebergAdapters.record(
                TableIdentifier.of("db", "table"),
                "branch",
                SCHEMA,
                row,
                PartitionSpec.unpartitioned(),
                org.apache.iceberg.DistributionMode.HASH,
                2);
        assertThat(record.table()).isEqualTo("db.table");
        assertThat(record.branch()).isEqualTo("branch");
        assertThat(record.schema()).isSameAs(IcebergAdapters.rowType(SCHEMA));
        assertThat(record.spec()).isEmpty();
        assertThat(record.distributionMode()).isEqualTo(DistributionMode.HASH);
        assertThat(record.writeParallelism()).isEqualTo(2);
        assertThat(IcebergAdapters.distributionMode(org.apache.iceberg.DistributionMode.RANGE))
                .as("RANGE falls back to HASH, as upstream")
                .isEqualTo(DistributionMode.HASH);
        DynamicRecord forward = IcebergAdapters.record(
                TableIdentifier.of(Namespace.of("db"), "t"), null, SCHEMA, row, PartitionSpec.unpartitioned());
        assertThat(forward.distributionMode()).isNull();
    }
}

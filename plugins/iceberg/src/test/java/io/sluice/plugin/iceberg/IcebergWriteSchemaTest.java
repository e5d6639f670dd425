package io.sluice.plugin.iceberg;

import io.sluice.spi.Payload;
import io.sluice.spi.sink.TargetCommitter;
import io.sluice.spi.sink.TargetWriter;
import io.sluice.testkit.TestSinkContext;

import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.FloatType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.SmallIntType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.Stream;

import static io.sluice.plugin.iceberg.Writes.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A query's column type against the table's, pair by pair: Iceberg's promotions (int to long,
 * float to double, a decimal to more precision) are written as the table's type, read back exact
 * by Iceberg's own generic reader, in every file format; every other pair that differs is a
 * planning error naming the column, the table's type and the query's type, and creates nothing.
 */
class IcebergWriteSchemaTest {

    @TempDir
    Path warehouse;

    private final IcebergTargetFactory target = new IcebergTargetFactory();

    private void createTable(Type type) {
        Schema schema = new Schema(
                Types.NestedField.optional(1, "id", Types.LongType.get()), Types.NestedField.optional(2, "v", type));
        try (HadoopCatalog catalog =
                new HadoopCatalog(new Configuration(), warehouse.toUri().toString())) {
            catalog.createTable(
                    TableIdentifier.of(Namespace.of("db"), "t"),
                    schema,
                    PartitionSpec.unpartitioned(),
                    Collections.emptyMap());
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    private static RowType rowType(LogicalType v) {
        return RowType.of(new LogicalType[] {new BigIntType(), v}, new String[] {"id", "v"});
    }

    static Stream<Arguments> widenings() {
        List<Arguments> cases = new ArrayList<>();
        for (String format : new String[] {"parquet", "orc", "avro"}) {
            cases.add(Arguments.of(
                    format, new IntType(), Types.LongType.get(), Integer.MIN_VALUE, (long) Integer.MIN_VALUE));
            cases.add(Arguments.of(format, new SmallIntType(), Types.LongType.get(), (short) -7, -7L));
            cases.add(Arguments.of(format, new FloatType(), Types.DoubleType.get(), 1.5f, 1.5d));
            cases.add(Arguments.of(
                    format,
                    new DecimalType(5, 2),
                    Types.DecimalType.of(20, 2),
                    DecimalData.fromBigDecimal(new BigDecimal("-123.45"), 5, 2),
                    new BigDecimal("-123.45")));
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0}: {1} into {2}")
    @MethodSource("widenings")
    void promotionsAreWrittenAsTheTablesType(
            String format, LogicalType queryType, Type tableType, Object value, Object expected) throws Exception {
        createTable(tableType);
        TestSinkContext context = IcebergSinks.hadoop(warehouse, rowType(queryType))
                .option("write-format", format)
                .build();
        target.validate(context);
        List<Payload> pending = new ArrayList<>();
        try (TargetWriter writer = target.createWriter(context, new ArrayList<>())) {
            writer.write(GenericRowData.of(1L, value), Writes.NO_TIME);
            writer.write(GenericRowData.of(2L, null), Writes.NO_TIME);
            writer.prepareCommit(true).forEach(c -> pending.add(c.payload()));
        }
        try (TargetCommitter committer = target.createCommitter(context)) {
            committer.commit(request(IcebergSinks.JOB, "00000000000000000000000000000f0f", 1, pending));
        }
        List<Object> values = new ArrayList<>();
        try (CatalogTable table = CatalogTable.load(context.options());
                CloseableIterable<Record> records =
                        IcebergGenerics.read(table.table()).build()) {
            for (Record r : records) {
                values.add(r.getField("id") + "=" + r.getField("v"));
            }
        }
        assertThat(values).containsExactlyInAnyOrder("1=" + expected, "2=null");
    }

    static Stream<Arguments> mismatches() {
        return Stream.of(
                Arguments.of(new BigIntType(), Types.IntegerType.get(), "int", "BIGINT"),
                Arguments.of(new DoubleType(), Types.FloatType.get(), "float", "DOUBLE"),
                Arguments.of(new DecimalType(10, 2), Types.DecimalType.of(3, 1), "decimal(3, 1)", "DECIMAL(10, 2)"),
                Arguments.of(new DecimalType(10, 3), Types.DecimalType.of(12, 2), "decimal(12, 2)", "DECIMAL(10, 3)"),
                Arguments.of(new VarCharType(VarCharType.MAX_LENGTH), Types.IntegerType.get(), "int", "STRING"),
                Arguments.of(new IntType(), Types.StringType.get(), "string", "INT"),
                Arguments.of(new TimestampType(6), Types.TimestampType.withZone(), "timestamptz", "TIMESTAMP(6)"),
                Arguments.of(
                        new LocalZonedTimestampType(6),
                        Types.TimestampType.withoutZone(),
                        "timestamp",
                        "TIMESTAMP_LTZ(6)"),
                Arguments.of(new IntType(), Types.DoubleType.get(), "double", "INT"));
    }

    @ParameterizedTest(name = "{3} into {2}")
    @MethodSource("mismatches")
    void otherPairsAreAPlanningErrorNamingColumnAndBothTypes(
            LogicalType queryType, Type tableType, String tableName, String queryName) {
        createTable(tableType);
        assertThatThrownBy(() -> target.validate(
                        IcebergSinks.hadoop(warehouse, rowType(queryType)).build()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("column 'v' has type " + tableName + " in the table")
                .hasMessageContaining(queryName + " (");
    }

    @org.junit.jupiter.api.Test
    void fewerColumnsThanAPartitionedTableIsAPlanningErrorNamingTheMissingOnes() throws Exception {
        // optional columns, partitioned by the last one: upstream's validateWriteSchema accepts the
        // query, and Iceberg's row wrapper failed on the first row with ArrayIndexOutOfBoundsException
        Schema schema = new Schema(
                Types.NestedField.optional(1, "id", Types.LongType.get()),
                Types.NestedField.optional(2, "note", Types.StringType.get()),
                Types.NestedField.optional(3, "dt", Types.StringType.get()));
        try (HadoopCatalog catalog =
                new HadoopCatalog(new Configuration(), warehouse.toUri().toString())) {
            catalog.createTable(
                    TableIdentifier.of(Namespace.of("db"), "t"),
                    schema,
                    PartitionSpec.builderFor(schema).identity("dt").build(),
                    Collections.emptyMap());
        }
        RowType twoColumns = RowType.of(
                new LogicalType[] {new BigIntType(), new VarCharType(VarCharType.MAX_LENGTH)},
                new String[] {"id", "dt"});
        assertThatThrownBy(() -> target.validate(
                        IcebergSinks.hadoop(warehouse, twoColumns).build()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("column(s) [note] are missing")
                .hasMessageContaining("[id, note, dt]");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"write-format=csv", "target-file-size-bytes=0", "snapshot-properties=flink.job-id:x"})
    void aRejectedStatementCreatesNoTable(String option) {
        String[] kv = option.split("=", 2);
        assertThatThrownBy(() -> target.validate(IcebergSinks.hadoop(warehouse, Writes.ROW)
                        .option(kv[0], kv[1])
                        .build()))
                .hasMessageContaining(kv[0]);
        try (HadoopCatalog catalog =
                new HadoopCatalog(new Configuration(), warehouse.toUri().toString())) {
            assertThat(catalog.tableExists(TableIdentifier.of(Namespace.of("db"), "t")))
                    .isFalse();
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    @org.junit.jupiter.api.Test
    void anUpsertMisuseCreatesNoTable() {
        // upsert without a key: found by the checks of the staged table, before anything is created
        assertThatThrownBy(() -> target.validate(IcebergSinks.hadoop(warehouse, Writes.ROW)
                        .option("upsert-enabled", "true")
                        .build()))
                .hasMessageContaining("needs equality fields");
        try (HadoopCatalog catalog =
                new HadoopCatalog(new Configuration(), warehouse.toUri().toString())) {
            assertThat(catalog.tableExists(TableIdentifier.of(Namespace.of("db"), "t")))
                    .isFalse();
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }
}

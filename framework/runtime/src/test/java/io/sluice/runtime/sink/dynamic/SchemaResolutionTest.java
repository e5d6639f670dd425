package io.sluice.runtime.sink.dynamic;

import io.sluice.spi.dynamic.TableState;

import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.FloatType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SchemaResolutionTest {

    private static final RowType V1 = row("id", new BigIntType(false), "name", new VarCharType(true, 20));
    private static final RowType V2 =
            row("id", new BigIntType(false), "name", new VarCharType(true, 20), "score", new DoubleType(true));

    private static TableState table(RowType... schemas) {
        Map<Integer, RowType> byId = new java.util.HashMap<>();
        for (int i = 0; i < schemas.length; i++) {
            byId.put(i, schemas[i]);
        }
        return new TableState("db.t", byId, schemas.length - 1, Map.of(0, List.of()), 0);
    }

    @Test
    void anInputEqualToAnOlderSchemaWritesWithIt() {
        SchemaResolution r = SchemaResolution.resolve(V1, table(V1, V2)).orElseThrow();
        assertThat(r.schemaId()).isZero();
        assertThat(r.conversion().isIdentity()).isTrue();
    }

    @Test
    void anInputLackingOptionalColumnsIsPaddedWithNulls() {
        RowType input = row("name", new VarCharType(true, 20), "id", new BigIntType(false));
        SchemaResolution r = SchemaResolution.resolve(input, table(V2)).orElseThrow();
        assertThat(r.schemaId()).isZero();
        RowData out = r.conversion().apply(GenericRowData.of(StringData.fromString("a"), 7L));
        assertThat(out.getLong(0)).isEqualTo(7L);
        assertThat(out.getString(1).toString()).isEqualTo("a");
        assertThat(out.isNullAt(2)).isTrue();
    }

    @Test
    void narrowerNumbersAreWidenedOnWrite() {
        RowType tableSchema =
                row("a", new BigIntType(true), "b", new DoubleType(true), "c", new DecimalType(true, 10, 2));
        RowType input = row("a", new IntType(true), "b", new FloatType(true), "c", new DecimalType(true, 5, 2));
        SchemaResolution r = SchemaResolution.resolve(input, table(tableSchema)).orElseThrow();
        RowData out = r.conversion()
                .apply(GenericRowData.of(3, 1.5f, DecimalData.fromBigDecimal(new BigDecimal("123.45"), 5, 2)));
        assertThat(out.getLong(0)).isEqualTo(3L);
        assertThat(out.getDouble(1)).isEqualTo(1.5d);
        assertThat(out.getDecimal(2, 10, 2).toBigDecimal()).isEqualByComparingTo("123.45");
    }

    @Test
    void shorterStringsAndLessPreciseTimestampsAreWrittenAsTheyAre() {
        RowType tableSchema = row(
                "s", new VarCharType(true, VarCharType.MAX_LENGTH),
                "ts", new org.apache.flink.table.types.logical.TimestampType(true, 6));
        RowType input = row(
                "s", new VarCharType(false, 8), "ts", new org.apache.flink.table.types.logical.TimestampType(false, 3));
        SchemaResolution r = SchemaResolution.resolve(input, table(tableSchema)).orElseThrow();
        assertThat(r.conversion().isIdentity()).as("the same values, no copy").isTrue();
        // a table of shorter strings widens to the input's longer ones
        assertThat(SchemaResolution.evolvedSchema(tableSchema, table(input), false)
                        .getTypeAt(0))
                .isEqualTo(new VarCharType(true, VarCharType.MAX_LENGTH));
    }

    @Test
    void aNullableInputForARequiredColumnOrANewColumnNeedsTheTableToEvolve() {
        assertThat(SchemaResolution.resolve(row("id", new BigIntType(true)), table(V1)))
                .isEmpty();
        assertThat(SchemaResolution.resolve(row("id", new BigIntType(false), "extra", new IntType(true)), table(V1)))
                .isEmpty();
    }

    @Test
    void evolutionAddsWidensAndMakesOptional() {
        RowType current = row("id", new IntType(false), "name", new VarCharType(false, 20), "f", new FloatType(true));
        RowType input = row("id", new BigIntType(false), "f", new DoubleType(true), "tag", new VarCharType(false, 5));
        RowType evolved = SchemaResolution.evolvedSchema(input, table(current), false);
        assertThat(evolved)
                .isEqualTo(row(
                        "id", new BigIntType(false),
                        "name", new VarCharType(true, 20),
                        "f", new DoubleType(true),
                        "tag", new VarCharType(true, 5)));
        // and the evolved table then takes the input
        assertThat(SchemaResolution.resolve(input, table(current, evolved)))
                .map(SchemaResolution::schemaId)
                .contains(1);
    }

    @Test
    void droppingUnusedColumnsIsOptIn() {
        RowType input = row("id", new BigIntType(false));
        assertThat(SchemaResolution.evolvedSchema(input, table(V2), true)).isEqualTo(input);
        assertThat(SchemaResolution.evolvedSchema(input, table(V2), false).getFieldNames())
                .containsExactly("id", "name", "score");
    }

    @Test
    void aRenameIsANewColumnAndTheOldOneStays() {
        RowType input = row("id", new BigIntType(false), "full_name", new VarCharType(true, 20));
        assertThat(SchemaResolution.evolvedSchema(input, table(V1), false).getFieldNames())
                .containsExactly("id", "name", "full_name");
    }

    @Test
    void anUnsupportedTypeChangeNamesTheTableColumnAndTypes() {
        RowType input = row("id", new VarCharType(false, 10));
        assertThatThrownBy(() -> SchemaResolution.evolvedSchema(input, table(V1), false))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("db.t")
                .hasMessageContaining("'id'")
                .hasMessageContaining("BIGINT")
                .hasMessageContaining("VARCHAR(10)");
        RowType narrowing = row("id", new DoubleType(false));
        assertThatThrownBy(() -> SchemaResolution.evolvedSchema(narrowing, table(V1), false))
                .hasMessageContaining("DOUBLE");
    }

    @Test
    void aSchemalessTableTakesEveryInputAsItIs() {
        Optional<SchemaResolution> r = SchemaResolution.resolve(V2, TableState.schemaless("a/b", List.of()));
        assertThat(r).isPresent();
        assertThat(r.get().tableSchema()).isEqualTo(V2);
        assertThat(r.get().conversion().isIdentity()).isTrue();
    }

    private static RowType row(Object... namesAndTypes) {
        List<RowType.RowField> fields = new java.util.ArrayList<>();
        for (int i = 0; i < namesAndTypes.length; i += 2) {
            fields.add(new RowType.RowField((String) namesAndTypes[i], (LogicalType) namesAndTypes[i + 1]));
        }
        return new RowType(true, fields);
    }
}

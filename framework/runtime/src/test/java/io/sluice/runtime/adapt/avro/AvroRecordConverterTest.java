package io.sluice.runtime.adapt.avro;

import io.sluice.runtime.adapt.AvroAdapters;
import io.sluice.runtime.adapt.RowAdapter;
import io.sluice.runtime.adapt.RowAdapters;

import org.apache.avro.Conversions;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.util.Utf8;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.util.InstantiationUtil;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Avro records of every type become rows: the schema's mapping to a row type, each value in its
 * raw generic form and in the form Avro's logical type conversions make, nulls, decimals in bytes
 * and fixed, timestamps read at the unit the schema declares (microseconds are never taken for
 * milliseconds), nested records, arrays and maps; clear errors for what does not fit. Runs with
 * Avro on the class path (the surefire execution {@code avro-adapter-test}).
 */
class AvroRecordConverterTest {

    static final String ALL = "{\"type\":\"record\",\"name\":\"All\",\"namespace\":\"t\",\"fields\":["
            + "{\"name\":\"b\",\"type\":\"boolean\"},"
            + "{\"name\":\"i\",\"type\":\"int\"},"
            + "{\"name\":\"l\",\"type\":\"long\",\"doc\":\"a long\"},"
            + "{\"name\":\"f\",\"type\":\"float\"},"
            + "{\"name\":\"d\",\"type\":\"double\"},"
            + "{\"name\":\"s\",\"type\":\"string\"},"
            + "{\"name\":\"e\",\"type\":{\"type\":\"enum\",\"name\":\"Color\",\"symbols\":[\"RED\",\"GREEN\"]}},"
            + "{\"name\":\"by\",\"type\":\"bytes\"},"
            + "{\"name\":\"fx\",\"type\":{\"type\":\"fixed\",\"name\":\"Four\",\"size\":4}},"
            + "{\"name\":\"dec\",\"type\":{\"type\":\"bytes\",\"logicalType\":\"decimal\",\"precision\":10,\"scale\":3}},"
            + "{\"name\":\"decf\",\"type\":{\"type\":\"fixed\",\"name\":\"DecFixed\",\"size\":8,\"logicalType\":\"decimal\",\"precision\":18,\"scale\":4}},"
            + "{\"name\":\"date\",\"type\":{\"type\":\"int\",\"logicalType\":\"date\"}},"
            + "{\"name\":\"tms\",\"type\":{\"type\":\"int\",\"logicalType\":\"time-millis\"}},"
            + "{\"name\":\"tus\",\"type\":{\"type\":\"long\",\"logicalType\":\"time-micros\"}},"
            + "{\"name\":\"tsms\",\"type\":{\"type\":\"long\",\"logicalType\":\"timestamp-millis\"}},"
            + "{\"name\":\"tsus\",\"type\":{\"type\":\"long\",\"logicalType\":\"timestamp-micros\"}},"
            + "{\"name\":\"ltsms\",\"type\":{\"type\":\"long\",\"logicalType\":\"local-timestamp-millis\"}},"
            + "{\"name\":\"ltsus\",\"type\":{\"type\":\"long\",\"logicalType\":\"local-timestamp-micros\"}},"
            + "{\"name\":\"uuid\",\"type\":{\"type\":\"string\",\"logicalType\":\"uuid\"}},"
            + "{\"name\":\"arr\",\"type\":{\"type\":\"array\",\"items\":[\"null\",\"int\"]}},"
            + "{\"name\":\"map\",\"type\":{\"type\":\"map\",\"values\":\"long\"}},"
            + "{\"name\":\"nested\",\"type\":{\"type\":\"record\",\"name\":\"Nested\",\"fields\":["
            + "  {\"name\":\"x\",\"type\":\"int\"},"
            + "  {\"name\":\"inner\",\"type\":[\"null\",{\"type\":\"record\",\"name\":\"Inner\",\"fields\":[{\"name\":\"y\",\"type\":\"string\"}]}]}]}},"
            + "{\"name\":\"recs\",\"type\":{\"type\":\"array\",\"items\":\"Nested\"}},"
            + "{\"name\":\"opt\",\"type\":[\"null\",\"string\"],\"default\":null},"
            + "{\"name\":\"optLast\",\"type\":[\"long\",\"null\"]},"
            + "{\"name\":\"optTs\",\"type\":[\"null\",{\"type\":\"long\",\"logicalType\":\"timestamp-micros\"}]}"
            + "]}";

    static final Schema SCHEMA = new Schema.Parser().parse(ALL);

    /** 2023-11-14T22:13:20.123456Z in microseconds. */
    static final long MICROS = 1_700_000_000_123_456L;

    static Schema field(String name) {
        return SCHEMA.getField(name).schema();
    }

    static Schema nonNull(Schema union) {
        return union.getTypes().stream()
                .filter(s -> s.getType() != Schema.Type.NULL)
                .findFirst()
                .get();
    }

    static GenericRecord nested(int x, String y) {
        GenericRecord n = new GenericData.Record(field("nested"));
        n.put("x", x);
        if (y != null) {
            GenericRecord inner = new GenericData.Record(
                    nonNull(field("nested").getField("inner").schema()));
            inner.put("y", new Utf8(y));
            n.put("inner", inner);
        }
        return n;
    }

    /** Every field in Avro's raw generic form. */
    static GenericRecord raw() {
        Conversions.DecimalConversion decimals = new Conversions.DecimalConversion();
        GenericRecord r = new GenericData.Record(SCHEMA);
        r.put("b", true);
        r.put("i", -7);
        r.put("l", 1L << 40);
        r.put("f", 1.5f);
        r.put("d", -2.25d);
        r.put("s", new Utf8("héllo"));
        r.put("e", new GenericData.EnumSymbol(field("e"), "GREEN"));
        r.put("by", ByteBuffer.wrap(new byte[] {1, 2, 3}));
        r.put("fx", new GenericData.Fixed(field("fx"), new byte[] {9, 8, 7, 6}));
        r.put(
                "dec",
                decimals.toBytes(
                        new BigDecimal("-1234567.891"),
                        field("dec"),
                        field("dec").getLogicalType()));
        r.put(
                "decf",
                decimals.toFixed(
                        new BigDecimal("12345678901234.5678"),
                        field("decf"),
                        field("decf").getLogicalType()));
        r.put("date", 19_675);
        r.put("tms", 45_296_789);
        r.put("tus", 45_296_789_123L);
        r.put("tsms", MICROS / 1000);
        r.put("tsus", MICROS);
        r.put("ltsms", MICROS / 1000);
        r.put("ltsus", MICROS);
        r.put("uuid", new Utf8("123e4567-e89b-12d3-a456-426614174000"));
        r.put("arr", new GenericData.Array<>(field("arr"), Arrays.asList(1, null, 3)));
        Map<Utf8, Long> map = new LinkedHashMap<>();
        map.put(new Utf8("one"), 1L);
        map.put(new Utf8("two"), 2L);
        r.put("map", map);
        r.put("nested", nested(1, "deep"));
        r.put("recs", Arrays.asList(nested(2, null), nested(3, "x")));
        r.put("opt", "present");
        r.put("optLast", 5L);
        r.put("optTs", -1L);
        return r;
    }

    static RowAdapter<GenericRecord> adapter() {
        return AvroAdapters.forSchema(SCHEMA);
    }

    static int pos(String name) {
        return SCHEMA.getField(name).pos();
    }

    @Test
    void everyAvroTypeHasItsRowType() {
        RowType type = adapter().rowType();
        Map<String, String> expected = new LinkedHashMap<>();
        expected.put("b", "BOOLEAN NOT NULL");
        expected.put("i", "INT NOT NULL");
        expected.put("l", "BIGINT NOT NULL");
        expected.put("f", "FLOAT NOT NULL");
        expected.put("d", "DOUBLE NOT NULL");
        expected.put("s", "STRING NOT NULL");
        expected.put("e", "STRING NOT NULL");
        expected.put("by", "BYTES NOT NULL");
        expected.put("fx", "BYTES NOT NULL");
        expected.put("dec", "DECIMAL(10, 3) NOT NULL");
        expected.put("decf", "DECIMAL(18, 4) NOT NULL");
        expected.put("date", "DATE NOT NULL");
        expected.put("tms", "TIME(3) NOT NULL");
        expected.put("tus", "TIME(3) NOT NULL");
        expected.put("tsms", "TIMESTAMP(3) NOT NULL");
        expected.put("tsus", "TIMESTAMP(6) NOT NULL");
        expected.put("ltsms", "TIMESTAMP(3) NOT NULL");
        expected.put("ltsus", "TIMESTAMP(6) NOT NULL");
        expected.put("uuid", "STRING NOT NULL");
        expected.put("arr", "ARRAY<INT> NOT NULL");
        expected.put("map", "MAP<STRING NOT NULL, BIGINT NOT NULL> NOT NULL");
        expected.put("nested", "ROW<`x` INT NOT NULL, `inner` ROW<`y` STRING NOT NULL>> NOT NULL");
        expected.put("recs", "ARRAY<ROW<`x` INT NOT NULL, `inner` ROW<`y` STRING NOT NULL>> NOT NULL> NOT NULL");
        expected.put("opt", "STRING");
        expected.put("optLast", "BIGINT");
        expected.put("optTs", "TIMESTAMP(6)");
        assertThat(type.getFieldNames()).containsExactlyElementsOf(expected.keySet());
        for (Map.Entry<String, String> e : expected.entrySet()) {
            assertThat(type.getTypeAt(type.getFieldIndex(e.getKey())).asSummaryString())
                    .as(e.getKey())
                    .isEqualTo(e.getValue());
        }
        assertThat(type.isNullable()).isFalse();
        assertThat(type.getFields().get(pos("l")).getDescription()).contains("a long");
    }

    @Test
    void everyValueConverts() {
        assertAll(adapter().map(raw()));
    }

    static void assertAll(RowData row) {
        assertThat(row.getBoolean(pos("b"))).isTrue();
        assertThat(row.getInt(pos("i"))).isEqualTo(-7);
        assertThat(row.getLong(pos("l"))).isEqualTo(1L << 40);
        assertThat(row.getFloat(pos("f"))).isEqualTo(1.5f);
        assertThat(row.getDouble(pos("d"))).isEqualTo(-2.25d);
        assertThat(row.getString(pos("s")).toString()).isEqualTo("héllo");
        assertThat(row.getString(pos("e")).toString()).isEqualTo("GREEN");
        assertThat(row.getBinary(pos("by"))).containsExactly(1, 2, 3);
        assertThat(row.getBinary(pos("fx"))).containsExactly(9, 8, 7, 6);
        assertThat(row.getDecimal(pos("dec"), 10, 3).toBigDecimal()).isEqualTo(new BigDecimal("-1234567.891"));
        assertThat(row.getDecimal(pos("decf"), 18, 4).toBigDecimal()).isEqualTo(new BigDecimal("12345678901234.5678"));
        assertThat(row.getInt(pos("date"))).isEqualTo(19_675);
        assertThat(row.getInt(pos("tms"))).isEqualTo(45_296_789);
        // TIME keeps milliseconds: the micros value is divided, not taken as millis
        assertThat(row.getInt(pos("tus"))).isEqualTo(45_296_789);
        Instant instant = Instant.ofEpochSecond(1_700_000_000L, 123_456_000L);
        assertThat(row.getTimestamp(pos("tsms"), 3).toInstant()).isEqualTo(instant.minusNanos(456_000));
        assertThat(row.getTimestamp(pos("tsus"), 6).toInstant()).isEqualTo(instant);
        assertThat(row.getTimestamp(pos("ltsms"), 3).toInstant()).isEqualTo(instant.minusNanos(456_000));
        assertThat(row.getTimestamp(pos("ltsus"), 6).toInstant()).isEqualTo(instant);
        assertThat(row.getString(pos("uuid")).toString()).isEqualTo("123e4567-e89b-12d3-a456-426614174000");
        ArrayData arr = row.getArray(pos("arr"));
        assertThat(arr.size()).isEqualTo(3);
        assertThat(arr.getInt(0)).isEqualTo(1);
        assertThat(arr.isNullAt(1)).isTrue();
        assertThat(arr.getInt(2)).isEqualTo(3);
        MapData map = row.getMap(pos("map"));
        Map<String, Long> m = new HashMap<>();
        for (int i = 0; i < map.size(); i++) {
            m.put(map.keyArray().getString(i).toString(), map.valueArray().getLong(i));
        }
        assertThat(m).containsOnly(Map.entry("one", 1L), Map.entry("two", 2L));
        RowData nested = row.getRow(pos("nested"), 2);
        assertThat(nested.getInt(0)).isEqualTo(1);
        assertThat(nested.getRow(1, 1).getString(0).toString()).isEqualTo("deep");
        ArrayData recs = row.getArray(pos("recs"));
        assertThat(recs.getRow(0, 2).getInt(0)).isEqualTo(2);
        assertThat(recs.getRow(0, 2).isNullAt(1)).isTrue();
        assertThat(recs.getRow(1, 2).getRow(1, 1).getString(0).toString()).isEqualTo("x");
        assertThat(row.getString(pos("opt")).toString()).isEqualTo("present");
        assertThat(row.getLong(pos("optLast"))).isEqualTo(5L);
        // one microsecond before 1970: the fraction stays positive, the millisecond goes down
        assertThat(row.getTimestamp(pos("optTs"), 6).toInstant()).isEqualTo(Instant.ofEpochSecond(0, -1_000));
        assertThat(row.getTimestamp(pos("optTs"), 6).getMillisecond()).isEqualTo(-1L);
        assertThat(row.getTimestamp(pos("optTs"), 6).getNanoOfMillisecond()).isEqualTo(999_000);
    }

    @Test
    void nullsOfNullableFieldsStayNull() {
        GenericRecord r = raw();
        r.put("opt", null);
        r.put("optLast", null);
        r.put("optTs", null);
        RowData row = adapter().map(r);
        assertThat(row.isNullAt(pos("opt"))).isTrue();
        assertThat(row.isNullAt(pos("optLast"))).isTrue();
        assertThat(row.isNullAt(pos("optTs"))).isTrue();
        assertThat(row.getRow(pos("nested"), 2).isNullAt(1)).isFalse();
    }

    @Test
    void millisAndMicrosOfTheSameNumberAreDifferentInstants() {
        Schema schema = new Schema.Parser()
                .parse(
                        "{\"type\":\"record\",\"name\":\"T\",\"fields\":["
                                + "{\"name\":\"ms\",\"type\":{\"type\":\"long\",\"logicalType\":\"timestamp-millis\"}},"
                                + "{\"name\":\"us\",\"type\":{\"type\":\"long\",\"logicalType\":\"timestamp-micros\"}},"
                                + "{\"name\":\"lms\",\"type\":{\"type\":\"long\",\"logicalType\":\"local-timestamp-millis\"}},"
                                + "{\"name\":\"lus\",\"type\":{\"type\":\"long\",\"logicalType\":\"local-timestamp-micros\"}}]}");
        GenericRecord r = new GenericData.Record(schema);
        long n = 1_700_000_000_123L;
        r.put("ms", n);
        r.put("us", n);
        r.put("lms", n);
        r.put("lus", n);
        RowData row = AvroAdapters.forSchema(schema).map(r);
        assertThat(row.getTimestamp(0, 3).toInstant()).isEqualTo(Instant.parse("2023-11-14T22:13:20.123Z"));
        assertThat(row.getTimestamp(1, 6).toInstant()).isEqualTo(Instant.parse("1970-01-20T16:13:20.000123Z"));
        assertThat(row.getTimestamp(2, 3).toLocalDateTime()).isEqualTo(LocalDateTime.parse("2023-11-14T22:13:20.123"));
        assertThat(row.getTimestamp(3, 6).toLocalDateTime())
                .isEqualTo(LocalDateTime.parse("1970-01-20T16:13:20.000123"));
    }

    @Test
    void valuesMadeByAvrosLogicalTypeConversionsConvertToo() {
        GenericRecord r = raw();
        Instant instant = Instant.ofEpochSecond(1_700_000_000L, 123_456_000L);
        r.put("dec", new BigDecimal("-1234567.891"));
        r.put("decf", new BigDecimal("12345678901234.5678"));
        r.put("date", LocalDate.ofEpochDay(19_675));
        r.put("tms", LocalTime.ofNanoOfDay(45_296_789_000_000L));
        r.put("tus", LocalTime.ofNanoOfDay(45_296_789_123_000L));
        r.put("tsms", instant.minusNanos(456_000));
        r.put("tsus", instant);
        r.put("ltsms", LocalDateTime.ofInstant(instant.minusNanos(456_000), java.time.ZoneOffset.UTC));
        r.put("ltsus", LocalDateTime.ofInstant(instant, java.time.ZoneOffset.UTC));
        r.put("uuid", UUID.fromString("123e4567-e89b-12d3-a456-426614174000"));
        r.put("s", "héllo");
        r.put("e", "GREEN");
        r.put("optTs", Instant.ofEpochSecond(0, -1_000));
        assertAll(adapter().map(r));
    }

    @Test
    void valuesAreCopiedAndBuffersLeftAlone() {
        GenericRecord r = raw();
        ByteBuffer buffer = ByteBuffer.wrap(new byte[] {0, 1, 2, 3});
        buffer.position(1);
        r.put("by", buffer);
        Utf8 text = new Utf8("héllo");
        r.put("s", text);
        RowData row = adapter().map(r);
        assertThat(buffer.position()).isEqualTo(1);
        buffer.put(1, (byte) 99);
        text.set("reused");
        assertThat(row.getBinary(pos("by"))).containsExactly(1, 2, 3);
        assertThat(row.getString(pos("s")).toString()).isEqualTo("héllo");
    }

    @Test
    void aRecordOfAnotherSchemaIsReadByFieldName() {
        // a reader's view of the same data: fields reordered, the nullable 'opt' missing
        Schema other = new Schema.Parser()
                .parse("{\"type\":\"record\",\"name\":\"Small\",\"fields\":["
                        + "{\"name\":\"y\",\"type\":\"string\"},{\"name\":\"x\",\"type\":\"int\"}]}");
        Schema ours = new Schema.Parser()
                .parse("{\"type\":\"record\",\"name\":\"Ours\",\"fields\":["
                        + "{\"name\":\"x\",\"type\":\"int\"},{\"name\":\"y\",\"type\":\"string\"},"
                        + "{\"name\":\"opt\",\"type\":[\"null\",\"string\"]}]}");
        GenericRecord r = new GenericData.Record(other);
        r.put("y", "why");
        r.put("x", 10);
        RowData row = AvroAdapters.forSchema(ours).map(r);
        assertThat(row.getInt(0)).isEqualTo(10);
        assertThat(row.getString(1).toString()).isEqualTo("why");
        assertThat(row.isNullAt(2)).isTrue();
        // an equal schema parsed separately: by position
        GenericRecord same = new GenericData.Record(new Schema.Parser().parse(ours.toString()));
        same.put("x", 1);
        same.put("y", "a");
        assertThat(AvroAdapters.forSchema(ours).map(same).getString(1).toString())
                .isEqualTo("a");
    }

    @Test
    void aNullInAFieldWithoutNullIsAClearError() {
        GenericRecord r = raw();
        r.put("i", null);
        assertThatThrownBy(() -> adapter().map(r))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'i'")
                .hasMessageContaining("null");
        GenericRecord n = raw();
        ((GenericRecord) n.get("nested")).put("x", null);
        assertThatThrownBy(() -> adapter().map(n)).hasMessageContaining("'nested.x'");
        GenericRecord m = raw();
        Map<Utf8, Long> map = new HashMap<>();
        map.put(new Utf8("k"), null);
        m.put("map", map);
        assertThatThrownBy(() -> adapter().map(m)).hasMessageContaining("'map{}'");
    }

    @Test
    void aValueOfTheWrongJavaTypeNamesTheField() {
        GenericRecord r = raw();
        r.put("i", 5L);
        assertThatThrownBy(() -> adapter().map(r))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'i'")
                .hasMessageContaining("java.lang.Long");
        GenericRecord n = raw();
        ((GenericRecord) n.get("nested")).put("x", "one");
        assertThatThrownBy(() -> adapter().map(n)).hasMessageContaining("'nested.x'");
    }

    @Test
    void aDecimalThatDoesNotFitIsAClearError() {
        GenericRecord r = raw();
        r.put("dec", new BigDecimal("1.2345"));
        assertThatThrownBy(() -> adapter().map(r))
                .hasMessageContaining("'dec'")
                .hasMessageContaining("digits after the point");
        GenericRecord big = raw();
        big.put("dec", new BigDecimal("123456789.000"));
        assertThatThrownBy(() -> adapter().map(big)).hasMessageContaining("does not fit DECIMAL(10, 3)");
    }

    @Test
    void schemasWithoutARowEquivalentAreRejected() {
        assertThatThrownBy(() -> AvroAdapters.forSchema(new Schema.Parser().parse("\"string\"")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must be a record");
        assertThatThrownBy(
                        () -> AvroAdapters.forSchema(
                                new Schema.Parser()
                                        .parse(
                                                "{\"type\":\"record\",\"name\":\"U\",\"fields\":[{\"name\":\"u\",\"type\":[\"int\",\"string\"]}]}")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'u'")
                .hasMessageContaining("several non-null");
        assertThatThrownBy(
                        () -> AvroAdapters.forSchema(
                                new Schema.Parser()
                                        .parse(
                                                "{\"type\":\"record\",\"name\":\"Node\",\"fields\":[{\"name\":\"next\",\"type\":[\"null\",\"Node\"]}]}")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'next'")
                .hasMessageContaining("recurse");
        assertThatThrownBy(() -> AvroAdapters.forSchema(new Schema.Parser()
                        .parse("{\"type\":\"record\",\"name\":\"N\",\"fields\":[{\"name\":\"n\",\"type\":\"null\"}]}")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'n'");
        Schema wide = LogicalTypes.decimal(40, 2).addToSchema(Schema.create(Schema.Type.BYTES));
        Schema withWide = new Schema.Parser()
                .parse("{\"type\":\"record\",\"name\":\"W\",\"fields\":[{\"name\":\"w\",\"type\":" + wide + "}]}");
        assertThatThrownBy(() -> AvroAdapters.forSchema(withWide)).hasMessageContaining("precision 40");
    }

    @Test
    void somethingThatIsNotAnAvroRecordIsAClearError() {
        RowAdapter<Object> adapter = RowAdapters.forAvroSchema(ALL);
        assertThatThrownBy(() -> adapter.map("not a record"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Not an Avro record")
                .hasMessageContaining("java.lang.String");
    }

    @Test
    void theAdapterCarriesTheSchemaAsTextAndSurvivesSerialization() throws Exception {
        RowAdapter<GenericRecord> adapter = adapter();
        adapter.map(raw()); // a converter with Avro objects now exists: it must not travel
        byte[] bytes = InstantiationUtil.serializeObject(adapter);
        assertThat(new String(bytes, java.nio.charset.StandardCharsets.ISO_8859_1))
                .doesNotContain("org.apache.avro")
                .contains("\"name\":\"All\"");
        RowAdapter<GenericRecord> copy =
                InstantiationUtil.deserializeObject(bytes, getClass().getClassLoader());
        assertAll(copy.map(raw()));
        assertThat(copy.getProducedType()).isEqualTo(InternalTypeInfo.of(adapter.rowType()));
        assertThat(RowAdapters.<GenericRecord>forAvroSchema(ALL).rowType()).isEqualTo(adapter.rowType());
    }

    @Test
    void theSchemaMappingIsAvroRowTypesAlone() {
        List<String> names = AvroRowTypes.rowType(SCHEMA).getFieldNames();
        assertThat(names).hasSize(SCHEMA.getFields().size());
        assertThat(new AvroRecordConverter(SCHEMA.toString()).rowType()).isEqualTo(AvroRowTypes.rowType(SCHEMA));
    }
}

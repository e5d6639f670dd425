package io.sluice.runtime.adapt;

import io.sluice.runtime.sink.SluiceSink;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.StructuredType;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.apache.flink.util.InstantiationUtil;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Method;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import static org.apache.flink.table.api.DataTypes.FIELD;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Flink {@code Row}s and POJOs become the rows a sink takes, with every kind of value (nulls,
 * decimals, timestamps of millisecond and microsecond precision, nested rows, arrays, maps); the
 * adapters survive Java serialization, report their row type as their output type, and run in a
 * job. All of it with no Avro on the class path, as the framework runs in Flink's {@code lib/}.
 */
class RowAdaptersTest {

    static final DataType ROW_TYPE = DataTypes.ROW(
            FIELD("id", DataTypes.BIGINT().notNull()),
            FIELD("name", DataTypes.STRING()),
            FIELD("ok", DataTypes.BOOLEAN()),
            FIELD("score", DataTypes.DOUBLE()),
            FIELD("ratio", DataTypes.FLOAT()),
            FIELD("n", DataTypes.INT()),
            FIELD("price", DataTypes.DECIMAL(10, 2)),
            FIELD("ts3", DataTypes.TIMESTAMP(3)),
            FIELD("ts6", DataTypes.TIMESTAMP(6)),
            FIELD("ltz6", DataTypes.TIMESTAMP_LTZ(6)),
            FIELD("day", DataTypes.DATE()),
            FIELD("time", DataTypes.TIME(3)),
            FIELD("payload", DataTypes.BYTES()),
            FIELD("tags", DataTypes.ARRAY(DataTypes.STRING())),
            FIELD("counts", DataTypes.MAP(DataTypes.STRING(), DataTypes.INT())),
            FIELD(
                    "address",
                    DataTypes.ROW(
                            FIELD("city", DataTypes.STRING()),
                            FIELD("zip", DataTypes.INT().notNull()))));

    static Row fullRow() {
        Map<String, Integer> counts = new LinkedHashMap<>();
        counts.put("a", 1);
        counts.put("b", null);
        return Row.of(
                42L,
                "name",
                true,
                2.5d,
                0.5f,
                7,
                new BigDecimal("12345678.91"),
                LocalDateTime.of(2024, 2, 29, 23, 59, 58, 123_000_000),
                LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_000),
                Instant.parse("2024-01-01T00:00:00.000001Z"),
                LocalDate.of(2024, 2, 29),
                LocalTime.of(13, 14, 15, 16_000_000),
                new byte[] {1, 2, 3},
                new String[] {"x", null, "z"},
                counts,
                Row.of("Seoul", 4321));
    }

    static void assertFullRow(RowData row) {
        assertThat(row.getArity()).isEqualTo(16);
        assertThat(row.getLong(0)).isEqualTo(42L);
        assertThat(row.getString(1).toString()).isEqualTo("name");
        assertThat(row.getBoolean(2)).isTrue();
        assertThat(row.getDouble(3)).isEqualTo(2.5d);
        assertThat(row.getFloat(4)).isEqualTo(0.5f);
        assertThat(row.getInt(5)).isEqualTo(7);
        assertThat(row.getDecimal(6, 10, 2).toBigDecimal()).isEqualByComparingTo("12345678.91");
        assertThat(row.getTimestamp(7, 3).toLocalDateTime())
                .isEqualTo(LocalDateTime.of(2024, 2, 29, 23, 59, 58, 123_000_000));
        // microseconds kept, also before 1970
        assertThat(row.getTimestamp(8, 6).toLocalDateTime())
                .isEqualTo(LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_000));
        assertThat(row.getTimestamp(9, 6).toInstant()).isEqualTo(Instant.parse("2024-01-01T00:00:00.000001Z"));
        assertThat(row.getInt(10)).isEqualTo((int) LocalDate.of(2024, 2, 29).toEpochDay());
        assertThat(row.getInt(11))
                .isEqualTo(LocalTime.of(13, 14, 15, 16_000_000).toSecondOfDay() * 1000 + 16);
        assertThat(row.getBinary(12)).containsExactly(1, 2, 3);
        assertThat(row.getArray(13).size()).isEqualTo(3);
        assertThat(row.getArray(13).getString(0).toString()).isEqualTo("x");
        assertThat(row.getArray(13).isNullAt(1)).isTrue();
        MapData counts = row.getMap(14);
        assertThat(counts.size()).isEqualTo(2);
        Map<String, Integer> m = new HashMap<>();
        for (int i = 0; i < counts.size(); i++) {
            m.put(
                    counts.keyArray().getString(i).toString(),
                    counts.valueArray().isNullAt(i) ? null : counts.valueArray().getInt(i));
        }
        assertThat(m).containsEntry("a", 1).containsEntry("b", null);
        RowData address = row.getRow(15, 2);
        assertThat(address.getString(0).toString()).isEqualTo("Seoul");
        assertThat(address.getInt(1)).isEqualTo(4321);
    }

    @Test
    void rowsOfEveryTypeBecomeRowData() {
        RowAdapter<Row> adapter = RowAdapters.forRow(ROW_TYPE);
        assertThat(adapter.rowType()).isEqualTo(ROW_TYPE.getLogicalType());
        assertFullRow(adapter.map(fullRow()));
    }

    @Test
    void nullsStayNull() {
        RowAdapter<Row> adapter = RowAdapters.forRow(ROW_TYPE);
        Row row = new Row(16);
        row.setField(0, 1L);
        RowData out = adapter.map(row);
        assertThat(out.getLong(0)).isEqualTo(1L);
        for (int i = 1; i < 16; i++) {
            assertThat(out.isNullAt(i)).as("field %d", i).isTrue();
        }
    }

    @Test
    void namedRowsMatchByName() {
        RowType type = (RowType) DataTypes.ROW(FIELD("a", DataTypes.INT()), FIELD("b", DataTypes.STRING()))
                .getLogicalType();
        RowAdapter<Row> adapter = RowAdapters.forRow(type);
        Row named = Row.withNames();
        named.setField("b", "bee");
        named.setField("a", 1);
        RowData out = adapter.map(named);
        assertThat(out.getInt(0)).isEqualTo(1);
        assertThat(out.getString(1).toString()).isEqualTo("bee");
    }

    @Test
    void aRowTypeNeedsARowDataType() {
        assertThatThrownBy(() -> RowAdapters.forRow(DataTypes.INT()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Not a ROW");
    }

    @Test
    void adaptersSurviveJavaSerializationAndReportTheirType() throws Exception {
        RowAdapter<Row> adapter = RowAdapters.forRow(ROW_TYPE);
        assertThat(adapter.getProducedType()).isEqualTo(InternalTypeInfo.of((RowType) ROW_TYPE.getLogicalType()));
        adapter.map(fullRow()); // a converter made and cached: it must not travel
        RowAdapter<Row> copy = InstantiationUtil.deserializeObject(
                InstantiationUtil.serializeObject(adapter), getClass().getClassLoader());
        assertFullRow(copy.map(fullRow()));
        assertThat(copy.toString()).contains("Row");
    }

    /** A POJO as the Table API sees one: public fields, a default constructor. */
    public static class Order {
        public long id;
        public String customer;
        public Integer quantity;

        @DataTypeHint("DECIMAL(10, 2)")
        public BigDecimal price;

        @DataTypeHint("TIMESTAMP(6)")
        public LocalDateTime createdAt;

        @DataTypeHint("TIMESTAMP(3)")
        public LocalDateTime shippedAt;

        public LocalDate day;
        public byte[] payload;
        public List<String> tags;
        public Map<String, Integer> counts;
        public Address address;
        public Address[] previous;

        public Order() {}
    }

    /** A nested POJO, with getters and setters. */
    public static class Address {
        private String city;
        private int zip;

        public Address() {}

        public Address(String city, int zip) {
            this.city = city;
            this.zip = zip;
        }

        public String getCity() {
            return city;
        }

        public void setCity(String city) {
            this.city = city;
        }

        public int getZip() {
            return zip;
        }

        public void setZip(int zip) {
            this.zip = zip;
        }
    }

    static Order order(long id) {
        Order o = new Order();
        o.id = id;
        o.customer = "c" + id;
        o.quantity = 3;
        o.price = new BigDecimal("19.99");
        o.createdAt = LocalDateTime.of(2024, 5, 6, 7, 8, 9, 123_456_000);
        o.shippedAt = LocalDateTime.of(2024, 5, 7, 7, 8, 9, 123_000_000);
        o.day = LocalDate.of(2024, 5, 6);
        o.payload = new byte[] {9, 8};
        o.tags = Arrays.asList("new", null);
        o.counts = new HashMap<>();
        o.counts.put("k", 5);
        o.address = new Address("Busan", 48058);
        o.previous = new Address[] {new Address("Daegu", 41911), null};
        return o;
    }

    @Test
    void pojoTypeIsDerivedFromTheClassWithHints() {
        RowAdapter<Order> adapter = RowAdapters.forPojo(Order.class);
        RowType type = adapter.rowType();
        assertThat(type.getFieldNames())
                .containsExactlyInAnyOrder(
                        "id",
                        "customer",
                        "quantity",
                        "price",
                        "createdAt",
                        "shippedAt",
                        "day",
                        "payload",
                        "tags",
                        "counts",
                        "address",
                        "previous");
        assertThat(fieldType(type, "id").asSummaryString()).isEqualTo("BIGINT NOT NULL");
        assertThat(fieldType(type, "quantity").asSummaryString()).isEqualTo("INT");
        assertThat(fieldType(type, "price").asSummaryString()).isEqualTo("DECIMAL(10, 2)");
        assertThat(fieldType(type, "createdAt").asSummaryString()).isEqualTo("TIMESTAMP(6)");
        assertThat(fieldType(type, "shippedAt").asSummaryString()).isEqualTo("TIMESTAMP(3)");
        assertThat(fieldType(type, "tags").asSummaryString()).isEqualTo("ARRAY<STRING>");
        // nested POJOs are rows for the sink: formats know rows, not the job's classes
        assertThat(fieldType(type, "address")).isInstanceOf(RowType.class);
        assertThat(fieldType(type, "address").asSummaryString()).isEqualTo("ROW<`city` STRING, `zip` INT NOT NULL>");
        assertThat(fieldType(type, "previous").asSummaryString())
                .isEqualTo("ARRAY<ROW<`city` STRING, `zip` INT NOT NULL>>");
    }

    static LogicalType fieldType(RowType type, String name) {
        return type.getTypeAt(type.getFieldIndex(name));
    }

    @Test
    void pojosBecomeRowData() {
        RowAdapter<Order> adapter = RowAdapters.forPojo(Order.class);
        assertOrder(adapter.rowType(), adapter.map(order(7)), 7);
    }

    static void assertOrder(RowType type, RowData row, long id) {
        assertThat(row.getLong(type.getFieldIndex("id"))).isEqualTo(id);
        assertThat(row.getString(type.getFieldIndex("customer")).toString()).isEqualTo("c" + id);
        assertThat(row.getInt(type.getFieldIndex("quantity"))).isEqualTo(3);
        assertThat(row.getDecimal(type.getFieldIndex("price"), 10, 2).toBigDecimal())
                .isEqualByComparingTo("19.99");
        assertThat(row.getTimestamp(type.getFieldIndex("createdAt"), 6).toLocalDateTime())
                .isEqualTo(LocalDateTime.of(2024, 5, 6, 7, 8, 9, 123_456_000));
        assertThat(row.getTimestamp(type.getFieldIndex("shippedAt"), 3).toLocalDateTime())
                .isEqualTo(LocalDateTime.of(2024, 5, 7, 7, 8, 9, 123_000_000));
        assertThat(row.getInt(type.getFieldIndex("day")))
                .isEqualTo((int) LocalDate.of(2024, 5, 6).toEpochDay());
        assertThat(row.getBinary(type.getFieldIndex("payload"))).containsExactly(9, 8);
        assertThat(row.getArray(type.getFieldIndex("tags")).getString(0).toString())
                .isEqualTo("new");
        assertThat(row.getArray(type.getFieldIndex("tags")).isNullAt(1)).isTrue();
        MapData counts = row.getMap(type.getFieldIndex("counts"));
        assertThat(counts.keyArray().getString(0).toString()).isEqualTo("k");
        assertThat(counts.valueArray().getInt(0)).isEqualTo(5);
        RowData address = row.getRow(type.getFieldIndex("address"), 2);
        RowType addressType = (RowType) fieldType(type, "address");
        assertThat(address.getString(addressType.getFieldIndex("city")).toString())
                .isEqualTo("Busan");
        assertThat(address.getInt(addressType.getFieldIndex("zip"))).isEqualTo(48058);
        assertThat(row.getArray(type.getFieldIndex("previous")).getRow(0, 2).getInt(addressType.getFieldIndex("zip")))
                .isEqualTo(41911);
        assertThat(row.getArray(type.getFieldIndex("previous")).isNullAt(1)).isTrue();
    }

    @Test
    void pojoNullsStayNull() {
        RowAdapter<Order> adapter = RowAdapters.forPojo(Order.class);
        Order empty = new Order();
        RowData row = adapter.map(empty);
        RowType type = adapter.rowType();
        assertThat(row.getLong(type.getFieldIndex("id"))).isZero();
        for (String name : type.getFieldNames()) {
            if (!name.equals("id")) {
                assertThat(row.isNullAt(type.getFieldIndex(name))).as(name).isTrue();
            }
        }
    }

    @Test
    void pojoWithAnExplicitDataType() {
        DataType type = DataTypes.STRUCTURED(
                Address.class,
                FIELD("city", DataTypes.STRING().notNull()),
                FIELD("zip", DataTypes.INT().notNull()));
        RowAdapter<Address> adapter = RowAdapters.forPojo(Address.class, type);
        assertThat(adapter.rowType().asSummaryString()).isEqualTo("ROW<`city` STRING NOT NULL, `zip` INT NOT NULL>");
        RowData row = adapter.map(new Address("Incheon", 21999));
        assertThat(row.getString(0).toString()).isEqualTo("Incheon");
        assertThat(row.getInt(1)).isEqualTo(21999);
        assertThatThrownBy(() -> RowAdapters.forPojo(Address.class, DataTypes.INT()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Not a structured data type");
    }

    /** A POJO with a field no data type can be derived for. */
    public static class Opaque {
        public Thread thread;

        public Opaque() {}
    }

    @Test
    void aPojoThatCannotBeDerivedIsAClearError() {
        assertThatThrownBy(() -> RowAdapters.forPojo(Opaque.class))
                .isInstanceOf(ValidationException.class)
                .hasStackTraceContaining("RAW type");
        // BigDecimal without a hint has no precision: Flink's own message
        assertThatThrownBy(() -> RowAdapters.forPojo(BigDecimal.class)).isInstanceOf(ValidationException.class);
    }

    @Test
    void aNullRecordIsAClearError() {
        assertThatThrownBy(() -> RowAdapters.forRow(ROW_TYPE).map(null))
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining("null record");
    }

    @Test
    void theSinkBuilderTakesTheAdaptersRowType() throws Exception {
        RowAdapter<Order> adapter = RowAdapters.forPojo(Order.class);
        Method forAdapter = SluiceSink.class.getMethod("forAdapter", RowAdapter.class);
        assertThat(forAdapter.getReturnType().getSimpleName()).isEqualTo("SluiceSinkBuilder");
        // the structured type became a row type, which is what forRowData needs
        assertThat(adapter.rowType()).isInstanceOf(RowType.class);
        assertThat(RowAdapters.asRows(PojoDataTypes.of(Order.class).getLogicalType()))
                .isEqualTo(adapter.rowType());
        assertThat(PojoDataTypes.of(Order.class).getLogicalType()).isInstanceOf(StructuredType.class);
    }

    @Test
    void aJobMapsPojosThroughTheAdapter() throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        // chained operators hand records on as they are; without this, Flink copies each Order
        // with its serializer first, and the List field's Kryo fails on Java 17's java.time
        env.getConfig().enableObjectReuse();
        RowAdapter<Order> adapter = RowAdapters.forPojo(Order.class);
        DataStream<Order> orders =
                env.fromSequence(1, 20).map(RowAdaptersTest::order).returns(TypeInformation.of(Order.class));
        List<Long> ids = new ArrayList<>();
        try (CloseableIterator<RowData> rows = adapter.apply(orders).executeAndCollect()) {
            while (rows.hasNext()) {
                RowData row = rows.next();
                long id = row.getLong(adapter.rowType().getFieldIndex("id"));
                assertOrder(adapter.rowType(), row, id);
                ids.add(id);
            }
        }
        assertThat(ids)
                .containsExactlyInAnyOrderElementsOf(
                        LongStream.rangeClosed(1, 20).boxed().collect(Collectors.toList()));
    }
}

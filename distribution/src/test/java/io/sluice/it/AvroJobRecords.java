package io.sluice.it;

import org.apache.avro.Conversions;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.util.Utf8;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The job's own code in {@link AvroGenericRecordIT}: makes Avro records with the job's Avro. Kept
 * apart from the test so that it can ship in a job jar (it names nothing but Avro and Flink).
 */
public final class AvroJobRecords {

    /** 2023-11-14T22:13:20.123Z, and the same instant with microseconds. */
    static final long BASE_MS = 1_700_000_000_123L;

    static final long BASE_US = 1_700_000_000_123_456L;

    static final String SCHEMA_JSON =
            "{\"type\":\"record\",\"name\":\"Payment\",\"namespace\":\"com.example\",\"fields\":["
                    + "{\"name\":\"id\",\"type\":\"long\"},"
                    + "{\"name\":\"name\",\"type\":\"string\"},"
                    + "{\"name\":\"note\",\"type\":[\"null\",\"string\"],\"default\":null},"
                    + "{\"name\":\"color\",\"type\":{\"type\":\"enum\",\"name\":\"Color\",\"symbols\":[\"RED\",\"GREEN\",\"BLUE\"]}},"
                    + "{\"name\":\"amount\",\"type\":{\"type\":\"bytes\",\"logicalType\":\"decimal\",\"precision\":12,\"scale\":2}},"
                    + "{\"name\":\"big\",\"type\":[\"null\",{\"type\":\"fixed\",\"name\":\"Big\",\"size\":16,\"logicalType\":\"decimal\",\"precision\":30,\"scale\":6}]},"
                    + "{\"name\":\"fx\",\"type\":{\"type\":\"fixed\",\"name\":\"Four\",\"size\":4}},"
                    + "{\"name\":\"day\",\"type\":{\"type\":\"int\",\"logicalType\":\"date\"}},"
                    + "{\"name\":\"tms\",\"type\":{\"type\":\"int\",\"logicalType\":\"time-millis\"}},"
                    + "{\"name\":\"tus\",\"type\":{\"type\":\"long\",\"logicalType\":\"time-micros\"}},"
                    + "{\"name\":\"tsms\",\"type\":{\"type\":\"long\",\"logicalType\":\"timestamp-millis\"}},"
                    + "{\"name\":\"tsus\",\"type\":{\"type\":\"long\",\"logicalType\":\"timestamp-micros\"}},"
                    + "{\"name\":\"ltsms\",\"type\":{\"type\":\"long\",\"logicalType\":\"local-timestamp-millis\"}},"
                    + "{\"name\":\"ltsus\",\"type\":[\"null\",{\"type\":\"long\",\"logicalType\":\"local-timestamp-micros\"}]},"
                    + "{\"name\":\"tags\",\"type\":{\"type\":\"array\",\"items\":\"string\"}},"
                    + "{\"name\":\"attrs\",\"type\":{\"type\":\"map\",\"values\":\"long\"}},"
                    + "{\"name\":\"address\",\"type\":{\"type\":\"record\",\"name\":\"Address\",\"fields\":["
                    + "  {\"name\":\"city\",\"type\":\"string\"},{\"name\":\"zip\",\"type\":\"int\"}]}},"
                    + "{\"name\":\"previous\",\"type\":[\"null\",\"Address\"]}"
                    + "]}";

    private AvroJobRecords() {}

    /** Record number {@code i}, in Avro's raw generic form. */
    static GenericRecord record(Schema schema, long i) {
        Conversions.DecimalConversion decimals = new Conversions.DecimalConversion();
        Schema amount = schema.getField("amount").schema();
        Schema big = schema.getField("big").schema().getTypes().get(1);
        Schema address = schema.getField("address").schema();
        GenericRecord r = new GenericData.Record(schema);
        r.put("id", i);
        r.put("name", new Utf8("name-" + i));
        r.put("note", i % 3 == 0 ? null : "note " + i);
        r.put(
                "color",
                new GenericData.EnumSymbol(
                        schema.getField("color").schema(), new String[] {"RED", "GREEN", "BLUE"}[(int) (i % 3)]));
        r.put(
                "amount",
                decimals.toBytes(BigDecimal.valueOf(i * 100_003 - 5_000_000, 2), amount, amount.getLogicalType()));
        r.put(
                "big",
                i % 4 == 0
                        ? null
                        : decimals.toFixed(
                                new BigDecimal("123456789012345678901234.567891").subtract(BigDecimal.valueOf(i)),
                                big,
                                big.getLogicalType()));
        r.put(
                "fx",
                new GenericData.Fixed(
                        schema.getField("fx").schema(),
                        ByteBuffer.allocate(4).putInt((int) i * 7919).array()));
        r.put("day", 19_000 + (int) i);
        r.put("tms", (int) (i * 1_234_567 % 86_400_000));
        r.put("tus", i * 1_234_567_891L % 86_400_000_000L);
        r.put("tsms", BASE_MS + i * 1_001);
        // microseconds, one of them a microsecond before 1970
        r.put("tsus", i == 1 ? -1L : BASE_US + i * 1_000_001);
        r.put("ltsms", BASE_MS - i);
        r.put("ltsus", i % 5 == 0 ? null : BASE_US - i * 7);
        r.put("tags", Arrays.asList(new Utf8("t" + i), "u" + i));
        Map<String, Long> attrs = new LinkedHashMap<>();
        attrs.put("a", i);
        attrs.put("b", -i);
        r.put("attrs", attrs);
        r.put("address", address(address, "city-" + i, (int) i));
        r.put("previous", i % 2 == 0 ? null : address(address, "old-" + i, (int) -i));
        return r;
    }

    private static GenericRecord address(Schema schema, String city, int zip) {
        GenericRecord a = new GenericData.Record(schema);
        a.put("city", city);
        a.put("zip", zip);
        return a;
    }

    /** Makes the records on the task, parsing the schema there with the job's Avro. */
    static final class MakeRecords extends RichMapFunction<Long, GenericRecord> {
        private static final long serialVersionUID = 1L;

        private final String schemaJson;
        private transient Schema schema;

        MakeRecords(String schemaJson) {
            this.schemaJson = schemaJson;
        }

        @Override
        public void open(OpenContext openContext) {
            schema = new Schema.Parser().parse(schemaJson);
        }

        @Override
        public GenericRecord map(Long i) {
            return record(schema, i);
        }
    }
}

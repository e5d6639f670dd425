package io.sluice.runtime.adapt;

import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;

/**
 * The adapter from Avro {@link GenericRecord}s to rows, with the job's own Avro (any version from
 * 1.10 on); the framework bundles no Avro.
 *
 * <p>Avro types to Flink types: record → {@code ROW}; {@code boolean, int, long, float, double} →
 * {@code BOOLEAN, INT, BIGINT, FLOAT, DOUBLE}; {@code string} and {@code enum} → {@code STRING};
 * {@code bytes} and {@code fixed} → {@code BYTES}; {@code decimal} → {@code DECIMAL(p, s)}; {@code
 * date} → {@code DATE}; {@code time-millis} and {@code time-micros} → {@code TIME(3)}; {@code
 * timestamp-millis} and {@code local-timestamp-millis} → {@code TIMESTAMP(3)}; {@code
 * timestamp-micros} and {@code local-timestamp-micros} → {@code TIMESTAMP(6)} (and {@code -nanos}
 * → {@code TIMESTAMP(9)}); array → {@code ARRAY}; map → {@code MAP<STRING, ...>}; a union of
 * {@code null} and one type → that type, nullable. Every other type is NOT NULL.
 *
 * <p>Values are read at the precision the schema declares: a {@code timestamp-micros} long is
 * microseconds, never taken for milliseconds, and keeps them (a {@code time-micros} value keeps
 * milliseconds: Flink's {@code TIME} holds no more). Values that Avro's logical type conversions
 * made ({@code BigDecimal}, {@code LocalDate}, {@code LocalTime}, {@code Instant}, {@code
 * LocalDateTime}, {@code UUID}) are taken as well as the raw ones.
 *
 * <p>This is the only framework class whose signatures name Avro, so that no other class fails to
 * link where Avro is absent; its one method hands the schema on as text. Nothing of Avro is Java
 * serialized: the adapter carries the schema's JSON and each task parses it with the job's Avro.
 *
 * <p>Where the cluster's own class path has another Avro than the job (an unshaded {@code
 * flink-sql-avro} in {@code lib/}, say), the JVM cannot link the job's call of a framework method
 * whose signature names {@code Schema} (its loader constraints fail with a {@code LinkageError}):
 * there, pass the schema as text, {@code RowAdapters.forAvroSchema(schema.toString())}, which
 * converts with the job's Avro all the same.
 */
public final class AvroAdapters {

    private AvroAdapters() {}

    /**
     * The adapter for records of {@code schema}, a record schema.
     *
     * @throws IllegalArgumentException if the schema is not a record or has a type with no row
     *     equivalent (a union of several non-null types, a recursive record)
     */
    public static RowAdapter<GenericRecord> forSchema(Schema schema) {
        // only Object's methods on the schema: this class must not link to Avro itself, which
        // its own loader (Flink's lib/) may not see. The schema's loader is the job's Avro.
        Object s = schema;
        if (s == null) {
            throw new NullPointerException("schema");
        }
        return RowAdapters.forAvroSchema(s.toString(), s.getClass().getClassLoader());
    }
}

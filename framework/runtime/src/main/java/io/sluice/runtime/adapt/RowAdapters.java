package io.sluice.runtime.adapt;

import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.MultisetType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.StructuredType;
import org.apache.flink.table.types.utils.TypeConversions;
import org.apache.flink.types.Row;

import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * Makes {@link RowAdapter}s from a job's record types to the rows of a Sluice sink.
 *
 * <ul>
 *   <li>{@link #forRow(DataType)}: Flink {@link Row}s of a row data type;
 *   <li>{@link #forPojo(Class)}: POJOs, their data type derived from the class as the Table API
 *       derives it ({@code @DataTypeHint} on fields works), or given ({@link #forPojo(Class,
 *       DataType)});
 *   <li>{@link AvroAdapters#forSchema}: Avro {@code GenericRecord}s of a schema, with the job's Avro;
 *       {@link #forAvroSchema(String)} takes the schema as JSON instead.
 * </ul>
 *
 * <p>Rows and POJOs convert with Flink's own {@code DataStructureConverters}, the converters of the
 * Table API, so every type the Table API can bridge works here as it does there.
 */
public final class RowAdapters {

    private RowAdapters() {}

    /**
     * Flink {@link Row}s of {@code dataType}, a {@code ROW} data type (e.g. {@code DataTypes.ROW(
     * DataTypes.FIELD("id", DataTypes.BIGINT()), ...)}). The rows may be positional or named; each
     * field's conversion class is the one the data type declares (e.g. {@code LocalDateTime} for
     * {@code TIMESTAMP} by default).
     *
     * @throws IllegalArgumentException if {@code dataType} is not a row type
     */
    public static RowAdapter<Row> forRow(DataType dataType) {
        Objects.requireNonNull(dataType, "dataType");
        if (!(dataType.getLogicalType() instanceof RowType)) {
            throw new IllegalArgumentException("Not a ROW data type: " + dataType);
        }
        return structured(dataType, "Row");
    }

    /** Flink {@link Row}s of {@code rowType}, with each field's default conversion class. */
    public static RowAdapter<Row> forRow(RowType rowType) {
        return forRow(TypeConversions.fromLogicalToDataType(rowType));
    }

    /**
     * POJOs of {@code type}, with the data type the Table API derives from the class: public
     * fields, or private ones with getters and setters; {@code @DataTypeHint} for what cannot be
     * derived (a {@code BigDecimal}'s precision, say).
     *
     * @throws org.apache.flink.table.api.ValidationException if the data type cannot be derived
     */
    public static <T> RowAdapter<T> forPojo(Class<T> type) {
        Objects.requireNonNull(type, "type");
        return forPojo(type, PojoDataTypes.of(type));
    }

    /**
     * POJOs of {@code type}, with the structured data type given, e.g. {@code DataTypes.STRUCTURED(
     * Order.class, DataTypes.FIELD("id", DataTypes.BIGINT()), ...)}.
     *
     * @throws IllegalArgumentException if {@code dataType} is not a structured type
     */
    public static <T> RowAdapter<T> forPojo(Class<T> type, DataType dataType) {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(dataType, "dataType");
        LogicalType logical = dataType.getLogicalType();
        if (!(logical instanceof StructuredType)) {
            throw new IllegalArgumentException("Not a structured data type for " + type.getName() + ": " + dataType);
        }
        return structured(
                dataType.getConversionClass() == type ? dataType : dataType.bridgedTo(type), type.getSimpleName());
    }

    /**
     * Avro {@code GenericRecord}s (or any {@code IndexedRecord}) of the schema whose JSON is {@code
     * schemaJson}, converted with the job's own Avro. The same as {@link AvroAdapters#forSchema},
     * and unlike it callable whatever Avro the cluster's class path holds besides the job's. The
     * row type is derived here, so the job's Avro must be visible to this thread (its context
     * class loader, as in a job's {@code main}, or the framework's).
     *
     * @throws IllegalArgumentException if the schema is not a record or has a type with no row
     *     equivalent (a union of several non-null types, say)
     */
    public static <T> RowAdapter<T> forAvroSchema(String schemaJson) {
        return forAvroSchema(schemaJson, null);
    }

    static <T> RowAdapter<T> forAvroSchema(String schemaJson, ClassLoader avroLoader) {
        Objects.requireNonNull(schemaJson, "schemaJson");
        AvroConverterSpec spec = new AvroConverterSpec(schemaJson);
        // converting once here checks the schema and gives the row type the sink is built for
        RowType rowType = spec.create(avroLoader).rowType();
        return new RowAdapter<>(rowType, "Avro record", spec);
    }

    private static <T> RowAdapter<T> structured(DataType dataType, String description) {
        RowType rowType = (RowType) asRows(dataType.getLogicalType());
        return new RowAdapter<>(rowType, description, new StructureConverterSpec(dataType, rowType));
    }

    /**
     * The type with every structured type replaced by the row type of its attributes: both are
     * {@code RowData} inside, and formats know rows, not a job's classes.
     */
    static LogicalType asRows(LogicalType type) {
        if (type instanceof StructuredType) {
            StructuredType structured = (StructuredType) type;
            List<RowType.RowField> fields = structured.getAttributes().stream()
                    .map(a -> new RowType.RowField(
                            a.getName(), asRows(a.getType()), a.getDescription().orElse(null)))
                    .collect(Collectors.toList());
            return new RowType(structured.isNullable(), fields);
        }
        if (type instanceof RowType) {
            RowType row = (RowType) type;
            List<RowType.RowField> fields = row.getFields().stream()
                    .map(f -> new RowType.RowField(
                            f.getName(), asRows(f.getType()), f.getDescription().orElse(null)))
                    .collect(Collectors.toList());
            return new RowType(row.isNullable(), fields);
        }
        if (type instanceof ArrayType) {
            return new ArrayType(type.isNullable(), asRows(((ArrayType) type).getElementType()));
        }
        if (type instanceof MapType) {
            MapType map = (MapType) type;
            return new MapType(type.isNullable(), asRows(map.getKeyType()), asRows(map.getValueType()));
        }
        if (type instanceof MultisetType) {
            return new MultisetType(type.isNullable(), asRows(((MultisetType) type).getElementType()));
        }
        return type;
    }
}

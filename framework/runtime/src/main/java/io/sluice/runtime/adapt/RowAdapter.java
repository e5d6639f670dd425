package io.sluice.runtime.adapt;

import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.typeutils.ResultTypeQueryable;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;

import java.util.Objects;

/**
 * A map function from a job's records to the {@link RowData} of a Sluice sink, with the {@link
 * RowType} of those rows. Make one with {@link RowAdapters} (or {@link AvroAdapters} for Avro),
 * build the sink for {@link #rowType()}, and put the adapter in front of it:
 *
 * <pre>{@code
 * RowAdapter<GenericRecord> adapter = AvroAdapters.forSchema(schema);
 * SluiceSink sink = SluiceSink.forAdapter(adapter).withTarget("filesystem")...build();
 * adapter.apply(records).sinkTo(sink);   // or: records.map(adapter).sinkTo(sink)
 * }</pre>
 *
 * <p>The adapter reports its output type itself ({@link ResultTypeQueryable}), so {@code
 * .returns(...)} is not needed. What it carries into the job graph is a recipe of plain values
 * (a Flink {@code DataType}, an Avro schema as JSON); each task makes the converter from it in
 * {@link #open} with the job's class loader, or on the first record if the adapter is called
 * outside an operator.
 *
 * @param <T> the job's record type
 */
public final class RowAdapter<T> extends RichMapFunction<T, RowData> implements ResultTypeQueryable<RowData> {

    private static final long serialVersionUID = 1L;

    private final RowType rowType;
    private final String description;
    private final ConverterSpec spec;

    /** Made per task from {@link #spec}; holds the job's classes, so never serialized. */
    private transient RecordConverter converter;

    RowAdapter(RowType rowType, String description, ConverterSpec spec) {
        this.rowType = Objects.requireNonNull(rowType);
        this.description = Objects.requireNonNull(description);
        this.spec = Objects.requireNonNull(spec);
    }

    /** The type of the rows this adapter produces: the row type to build the sink for. */
    public RowType rowType() {
        return rowType;
    }

    @Override
    public TypeInformation<RowData> getProducedType() {
        return InternalTypeInfo.of(rowType);
    }

    @Override
    public void open(OpenContext openContext) {
        // the user-code class loader is the job's: its Avro, its POJO classes
        converter = spec.create(getRuntimeContext().getUserCodeClassLoader());
    }

    /**
     * Converts one record.
     *
     * @throws NullPointerException if {@code record} is null (a stream has no null records)
     * @throws IllegalArgumentException if the record does not fit the row type, naming the field
     */
    @Override
    public RowData map(T record) {
        if (record == null) {
            throw new NullPointerException("A null record cannot become a row (" + description + ")");
        }
        if (converter == null) {
            // called outside an operator (or before open): the thread's loader is the best guess
            converter = spec.create(Thread.currentThread().getContextClassLoader());
        }
        return converter.convert(record);
    }

    /**
     * Maps {@code input} through this adapter, with the input's parallelism so that the adapter
     * chains to the operator that made the records and they never cross the network as the job's
     * type. Chained operators still copy each record with its type's serializer unless object
     * reuse is on ({@code env.getConfig().enableObjectReuse()}): give a stream of Avro records a
     * proper type (flink-avro's {@code GenericRecordAvroTypeInfo}, with the job's Avro) or turn
     * object reuse on, else Flink falls back to Kryo for them.
     */
    public SingleOutputStreamOperator<RowData> apply(DataStream<T> input) {
        SingleOutputStreamOperator<RowData> rows = input.map(this).name("To RowData: " + description);
        if (input.getParallelism() > 0) {
            rows.setParallelism(input.getParallelism());
        }
        return rows;
    }

    @Override
    public String toString() {
        return "RowAdapter[" + description + " -> " + rowType.asSummaryString() + "]";
    }
}

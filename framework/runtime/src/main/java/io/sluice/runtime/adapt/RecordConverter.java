package io.sluice.runtime.adapt;

import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

/**
 * Converts one record of a job's type into a row. Made on the task by a {@link RowAdapter} and
 * never serialized, so it may hold the job's classes (an Avro schema, a Flink converter).
 *
 * <p>Public only because implementations may live in another class loader (see {@code
 * JobClassBridge}), where package-private access does not reach; not an API for users.
 */
public interface RecordConverter {

    /** The type of the rows {@link #convert} returns. */
    RowType rowType();

    /**
     * The row of {@code record}, a new object each time (the writer may buffer it).
     *
     * @throws IllegalArgumentException if the record does not fit the row type; the message names
     *     the field
     */
    RowData convert(Object record);
}

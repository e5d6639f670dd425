package io.sluice.spi.format;

import io.sluice.spi.Experimental;

import org.apache.flink.api.common.serialization.BulkWriter;
import org.apache.flink.table.data.RowData;

/**
 * A bulk writer that says how much heap its open file holds: the buffers of rows not yet in the
 * file (a row group, a stripe) and what it keeps per column. The writer memory budget of file
 * targets ({@code sink.writer.memory-budget}) adds up these estimates over a subtask's open files
 * and rolls the largest when the sum is over; a bulk writer that is not one counts nothing.
 *
 * @since 2.5.0
 */
@Experimental
public interface BufferingBulkWriter extends BulkWriter<RowData> {

    /**
     * An estimate, in bytes, of the heap this writer holds for its file now. Called after the
     * first rows of a file and then every few rows, on the task's thread: it should take no more
     * than a walk over the writer's columns.
     */
    long heapBytes();
}

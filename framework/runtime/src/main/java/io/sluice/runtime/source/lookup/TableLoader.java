package io.sluice.runtime.source.lookup;

import org.apache.flink.table.data.RowData;

import java.io.IOException;
import java.io.Serializable;
import java.util.function.Consumer;

/**
 * Reads a whole table for a temporal join's cache, on a TaskManager, as often as the cache asks.
 * What travels in the job graph is the source's descriptor only: each load finds the plugin's
 * parts in the registry of the JVM it runs in, under the plugin's class loader, and closes them.
 */
public interface TableLoader extends Serializable {

    /**
     * Reads every row of the table, as it is now, into {@code rows}: rows of the table source's
     * produced type (after projection push-down), read with the filters pushed into it. A row may
     * be an object the reader reuses for the next one: whoever keeps it copies it.
     *
     * @throws IOException if the table cannot be read; its messages never show a secret option value
     */
    void load(Consumer<RowData> rows) throws IOException;
}

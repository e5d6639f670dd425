package io.sluice.runtime.source.lookup;

import io.sluice.runtime.plugin.PluginLifecycle;

import org.apache.flink.table.data.RowData;
import org.apache.flink.table.functions.FunctionContext;
import org.apache.flink.table.functions.LookupFunction;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.util.clock.SystemClock;

import java.time.Duration;
import java.util.Collection;
import java.util.Objects;

/**
 * The lookup side of a temporal join of a Sluice table (Flink's synchronous {@link
 * LookupFunction}): each join subtask loads the whole table into its own {@link LookupCache} when
 * it opens, answers every lookup from there, and loads the table again once the reload interval
 * has passed (in the lookup that finds it passed, as upstream Hive's lookup does).
 *
 * <p>It holds a {@link TableLoader} (the source's descriptor) and the key columns; the plugin's
 * parts are found on the TaskManager, and the function stays attached to the {@link
 * PluginLifecycle} while it is open, as the sources' readers are.
 */
public final class SluiceLookupFunction extends LookupFunction {

    private static final long serialVersionUID = 1L;

    /** Wait before the second attempt of the first load; twice that before the third. */
    private static final Duration FIRST_LOAD_RETRY_DELAY = Duration.ofSeconds(5);

    private final String table;
    private final TableLoader loader;
    private final RowType rowType;
    private final int[] keyColumns;
    private final Duration reloadInterval;

    private transient LookupCache cache;
    private transient PluginLifecycle.Attachment attachment;

    /**
     * @param table the table's name, for logs and errors
     * @param rowType the rows the loader reads: the table source's produced type
     * @param keyColumns positions in {@code rowType} of the join key, in the order Flink hands keys
     * @param reloadInterval how long one load serves
     */
    SluiceLookupFunction(String table, TableLoader loader, RowType rowType, int[] keyColumns, Duration reloadInterval) {
        this.table = Objects.requireNonNull(table);
        this.loader = Objects.requireNonNull(loader);
        this.rowType = Objects.requireNonNull(rowType);
        this.keyColumns = keyColumns.clone();
        this.reloadInterval = Objects.requireNonNull(reloadInterval);
    }

    @Override
    public void open(FunctionContext context) throws Exception {
        super.open(context);
        // Flink sets the job's class loader as the task thread's context class loader around open
        attachment = PluginLifecycle.attach(null);
        try {
            cache = new LookupCache(
                    table,
                    loader,
                    new LookupKeys(rowType, keyColumns),
                    rowType,
                    reloadInterval,
                    SystemClock.getInstance(),
                    FIRST_LOAD_RETRY_DELAY);
            cache.registerMetrics(context.getMetricGroup().addGroup("cache"));
            cache.loadFirst();
        } catch (RuntimeException e) {
            attachment.close();
            attachment = null;
            throw e;
        }
    }

    @Override
    public Collection<RowData> lookup(RowData keyRow) {
        return cache.lookup(keyRow);
    }

    @Override
    public void close() throws Exception {
        cache = null;
        if (attachment != null) {
            attachment.close();
            attachment = null;
        }
        super.close();
    }

    /** How long one load serves. */
    public Duration reloadInterval() {
        return reloadInterval;
    }

    @Override
    public String toString() {
        return "SluiceLookupFunction{table=" + table + ", keys=" + java.util.Arrays.toString(keyColumns)
                + ", reloadInterval=" + reloadInterval + "}";
    }
}

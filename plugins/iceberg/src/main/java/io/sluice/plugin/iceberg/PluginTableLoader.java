package io.sluice.plugin.iceberg;

import org.apache.flink.configuration.ReadableConfig;
import org.apache.iceberg.Table;
import org.apache.iceberg.flink.TableLoader;

import java.io.IOException;

/**
 * An upstream {@link TableLoader} over this plugin's own catalog loading ({@link CatalogTable}),
 * for upstream classes that load their table themselves (the continuous split planner). Closing
 * it closes the catalog it opened.
 *
 * <p>{@link TableLoader} is {@code Serializable} for upstream's sources; this one is never
 * serialized (Sluice hands Flink only payloads), so the options are kept as given.
 */
final class PluginTableLoader implements TableLoader {

    private static final long serialVersionUID = 1L;

    private final transient ReadableConfig options;
    private transient CatalogTable table;

    PluginTableLoader(ReadableConfig options) {
        this.options = options;
    }

    @Override
    public void open() {
        if (table == null) {
            table = CatalogTable.load(options);
        }
    }

    @Override
    public boolean isOpen() {
        return table != null;
    }

    @Override
    public Table loadTable() {
        if (table == null) {
            throw new IllegalStateException("Table loader not opened");
        }
        return table.table();
    }

    /** A loader of the same table, not opened: upstream opens its clones itself. */
    @Override
    @SuppressWarnings("MethodDoesntCallSuperMethod")
    public TableLoader clone() {
        return new PluginTableLoader(options);
    }

    @Override
    public void close() throws IOException {
        if (table != null) {
            CatalogTable opened = table;
            table = null;
            opened.close();
        }
    }
}

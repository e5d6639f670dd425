package io.sluice.plugin.iceberg.it;

import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A real Hadoop catalog that counts the loads of each table: the back end of the REST catalog
 * server of a test ({@code catalog-impl}), so that what a job's sink asks of its catalog, through
 * the REST API and across the plugin's class loader, is counted in the test's JVM. A load of a
 * table that does not exist counts too.
 */
public class CountingCatalog extends HadoopCatalog {

    private static final Map<String, AtomicLong> LOADS = new ConcurrentHashMap<>();

    @Override
    public Table loadTable(TableIdentifier identifier) {
        LOADS.computeIfAbsent(identifier.toString(), k -> new AtomicLong()).incrementAndGet();
        return super.loadTable(identifier);
    }

    /** Loads per table ({@code db.table}) since the last {@link #reset}, in name order. */
    public static Map<String, Long> loads() {
        Map<String, Long> loads = new TreeMap<>();
        LOADS.forEach((table, n) -> loads.put(table, n.get()));
        return loads;
    }

    public static long totalLoads() {
        return LOADS.values().stream().mapToLong(AtomicLong::get).sum();
    }

    public static void reset() {
        LOADS.clear();
    }
}

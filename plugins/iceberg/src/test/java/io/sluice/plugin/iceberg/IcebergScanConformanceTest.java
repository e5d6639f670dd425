package io.sluice.plugin.iceberg;

import io.sluice.spi.source.ScanSourceFactory;
import io.sluice.testkit.ScanSourceConformance;
import io.sluice.testkit.TestSinkContext;

import org.apache.flink.table.data.RowData;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The iceberg scan source against Sluice's conformance kit: table {@code db.t} of a Hadoop catalog
 * in the check's directory, created and appended to by the iceberg target (one snapshot with one
 * data file per commit), so a bounded read's split holds several files and resuming crosses them.
 * Continuous reads start with a table scan ({@code TABLE_SCAN_THEN_INCREMENTAL}): upstream's
 * default strategy leaves the latest snapshot to the second plan, a start the kit does not check.
 */
class IcebergScanConformanceTest extends ScanSourceConformance {

    /** The table of each check, by warehouse: its fixture numbers the target's commits. */
    private final Map<String, ScanFixture> tables = new HashMap<>();

    @Override
    protected ScanSourceFactory sourceFactory() {
        return new IcebergScanSourceFactory();
    }

    @Override
    protected Map<String, String> createTable(Path dir) {
        TestSinkContext sink = IcebergSinks.hadoop(dir, ROW_TYPE).build();
        // the target creates the table from the sink's row type: the kit's columns
        tables.put(dir.toUri().toString(), new ScanFixture(sink));
        return TestSourceContext.hadoop(dir, ROW_TYPE).rawOptions();
    }

    @Override
    protected void append(Map<String, String> table, List<RowData> rows) throws Exception {
        tables.get(table.get("warehouse")).commit(rows);
    }

    @Override
    protected Map<String, String> continuousOptions() {
        return Map.of("streaming", "true", "starting-strategy", "TABLE_SCAN_THEN_INCREMENTAL");
    }

    @Override
    protected Map<String, String> invalidOptions() {
        return Map.of("max-planning-snapshot-count", "0");
    }
}

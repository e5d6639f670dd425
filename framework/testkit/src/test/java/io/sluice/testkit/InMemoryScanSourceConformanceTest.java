package io.sluice.testkit;

import io.sluice.spi.source.ScanSourceFactory;

import org.apache.flink.table.data.RowData;

import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * The kit against the correct in-memory scan source, reading continuously from the earliest
 * commit: every check passes. (The latest-commit start is run by {@link
 * ConformanceKitCatchesBrokenScanSourcesTest}.)
 */
class InMemoryScanSourceConformanceTest extends ScanSourceConformance {

    @Override
    protected ScanSourceFactory sourceFactory() {
        return new InMemoryScanSourceFactory(InMemoryScanSourceFactory.Defect.NONE);
    }

    @Override
    protected Map<String, String> createTable(Path dir) {
        return InMemoryScanSourceFactory.createTable();
    }

    @Override
    protected void append(Map<String, String> table, List<RowData> rows) {
        InMemoryScanSourceFactory.append(table, rows);
    }

    @Override
    protected Map<String, String> continuousOptions() {
        return Collections.singletonMap(InMemoryScanSourceFactory.CONTINUOUS, "true");
    }

    @Override
    protected Map<String, String> invalidOptions() {
        return Collections.singletonMap(InMemoryScanSourceFactory.START, "yesterday");
    }
}

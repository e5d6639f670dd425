package com.example.sluice.sorting;

import io.sluice.spi.compact.FileCompactorFactory;
import io.sluice.testkit.FileCompactorConformance;

import java.util.Collections;
import java.util.Map;

/** The example compactor against Sluice's conformance kit: rows are kept, their order is not. */
class SortedLinesCompactorConformanceTest extends FileCompactorConformance {

    @Override
    protected FileCompactorFactory compactorFactory() {
        return new SortedLinesCompactorFactory();
    }

    @Override
    protected boolean preservesOrder() {
        return false;
    }

    @Override
    protected Map<String, String> invalidOptions() {
        return Collections.singletonMap("compaction.sorted-lines.max-unit-size", "0b");
    }
}

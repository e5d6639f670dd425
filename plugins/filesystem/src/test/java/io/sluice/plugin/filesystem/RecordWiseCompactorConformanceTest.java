package io.sluice.plugin.filesystem;

import io.sluice.spi.compact.FileCompactorFactory;
import io.sluice.testkit.FileCompactorConformance;

/** The built-in {@code record-wise} compactor against the framework's conformance kit. */
class RecordWiseCompactorConformanceTest extends FileCompactorConformance {

    @Override
    protected FileCompactorFactory compactorFactory() {
        return new RecordWiseFileCompactorFactory();
    }
}

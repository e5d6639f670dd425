package io.sluice.plugin.filesystem;

import io.sluice.spi.compact.FileCompactorFactory;
import io.sluice.testkit.FileCompactorConformance;

/** The built-in {@code concat} compactor against the framework's conformance kit. */
class ConcatCompactorConformanceTest extends FileCompactorConformance {

    @Override
    protected FileCompactorFactory compactorFactory() {
        return new ConcatFileCompactorFactory();
    }
}

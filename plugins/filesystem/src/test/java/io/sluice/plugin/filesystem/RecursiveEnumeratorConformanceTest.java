package io.sluice.plugin.filesystem;

import io.sluice.spi.source.FileEnumeratorFactory;
import io.sluice.testkit.FileEnumeratorConformance;

/**
 * {@code recursive} against the conformance kit: it lists every visible file under the path, so
 * the kit's default {@code prepare} (every file it wrote is expected) applies. It has no options.
 */
class RecursiveEnumeratorConformanceTest extends FileEnumeratorConformance {

    @Override
    protected FileEnumeratorFactory enumeratorFactory() {
        return new RecursiveEnumeratorFactory();
    }
}

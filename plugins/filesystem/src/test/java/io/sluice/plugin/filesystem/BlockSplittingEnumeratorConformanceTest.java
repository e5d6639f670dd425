package io.sluice.plugin.filesystem;

import io.sluice.spi.source.FileEnumeratorFactory;
import io.sluice.testkit.FileEnumeratorConformance;

/**
 * {@code block-splitting} against the conformance kit. The local file system reports one block
 * per file, so here every file is one split; the kit's coverage checks hold for the block splits
 * of HDFS or S3 all the same. It has no options.
 */
class BlockSplittingEnumeratorConformanceTest extends FileEnumeratorConformance {

    @Override
    protected FileEnumeratorFactory enumeratorFactory() {
        return new BlockSplittingEnumeratorFactory();
    }
}

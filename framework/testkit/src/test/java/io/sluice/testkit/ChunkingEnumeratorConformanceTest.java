package io.sluice.testkit;

import io.sluice.spi.source.FileEnumeratorFactory;

import java.util.Collections;
import java.util.Map;

/**
 * The kit against a correct enumerator that cuts files into many splits: every check passes, and
 * the coverage checks run over files of one and of many splits.
 */
class ChunkingEnumeratorConformanceTest extends FileEnumeratorConformance {

    @Override
    protected FileEnumeratorFactory enumeratorFactory() {
        return new ChunkingEnumeratorFactory(ChunkingEnumeratorFactory.Defect.NONE);
    }

    @Override
    protected Map<String, String> options() {
        // the 70,000-byte file becomes 70 splits, the 1,000-byte file exactly one
        return Collections.singletonMap(ChunkingEnumeratorFactory.CHUNK_SIZE, "1000");
    }

    @Override
    protected Map<String, String> invalidOptions() {
        return Collections.singletonMap(ChunkingEnumeratorFactory.CHUNK_SIZE, "0");
    }
}

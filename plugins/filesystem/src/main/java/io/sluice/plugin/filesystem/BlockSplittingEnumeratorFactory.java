package io.sluice.plugin.filesystem;

import io.sluice.partfiles.VisibleFiles;
import io.sluice.spi.source.FileEnumeratorFactory;
import io.sluice.spi.source.SourceContext;

import org.apache.flink.connector.file.src.enumerate.BlockSplittingRecursiveEnumerator;
import org.apache.flink.connector.file.src.enumerate.FileEnumerator;
import org.pf4j.Extension;

/**
 * {@code block-splitting}: every visible file under the paths, cut into one split per file system
 * block so several readers share a large file; compressed files stay whole.
 */
@Extension
public final class BlockSplittingEnumeratorFactory implements FileEnumeratorFactory {

    private static final String[] NOT_SPLITTABLE = {".gz", ".gzip", ".deflate", ".bz2", ".xz", ".zst", ".zstd"};

    @Override
    public String identifier() {
        return "block-splitting";
    }

    @Override
    public FileEnumerator create(SourceContext context) {
        return new BlockSplittingRecursiveEnumerator(new VisibleFiles(), NOT_SPLITTABLE);
    }
}

package io.sluice.plugin.filesystem;

import io.sluice.partfiles.VisibleFiles;
import io.sluice.spi.source.FileEnumeratorFactory;
import io.sluice.spi.source.SourceContext;

import org.apache.flink.connector.file.src.enumerate.FileEnumerator;
import org.apache.flink.connector.file.src.enumerate.NonSplittingRecursiveEnumerator;
import org.pf4j.Extension;

/** {@code recursive}: every visible file under the paths, one split per file. */
@Extension
public final class RecursiveEnumeratorFactory implements FileEnumeratorFactory {

    @Override
    public String identifier() {
        return "recursive";
    }

    @Override
    public FileEnumerator create(SourceContext context) {
        return new NonSplittingRecursiveEnumerator(new VisibleFiles());
    }
}

package io.sluice.spi.source;

import io.sluice.spi.SluiceFactory;

import org.apache.flink.connector.file.src.enumerate.FileEnumerator;

/**
 * Creates {@link FileEnumerator}s: which files under the source's paths are read, and how they are
 * cut into splits. Selected by {@code source.enumerator}; a third party ships its own (for example
 * one that reads only the files a manifest lists) in a plugin.
 *
 * <p>The enumerator runs in the source's split enumerator on the JobManager, once for a bounded
 * read and every {@code source.monitor-interval} for a continuous one; it must list every file
 * that is there at the time (the framework skips those it has read before) and must never list
 * hidden or in-progress files (names starting with {@code .} or {@code _}); {@link
 * SourceContext#boundedness()} says which of the two reads it serves. Splits must carry the
 * file's modification time and size. It is called from one thread at a time and may throw {@link
 * java.io.IOException}, which fails the enumeration with a message naming the path.
 */
public interface FileEnumeratorFactory extends SluiceFactory {

    /**
     * Creates an enumerator for one source.
     *
     * @throws IllegalArgumentException for invalid options, naming the option and the value
     */
    FileEnumerator create(SourceContext context);
}

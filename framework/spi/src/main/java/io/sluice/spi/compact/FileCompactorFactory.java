package io.sluice.spi.compact;

import io.sluice.spi.SluiceFactory;

/**
 * Creates the {@link FileCompactor} that merges the small files of a sink with compaction on. A
 * user chooses one by its identifier (option {@code compaction.compactor}); the built-in ones are
 * {@code concat} (bytes, for row formats) and {@code record-wise} (rows, for every readable
 * format). A third party ships its own as an extension in a plugin.
 *
 * <p>Called on the committer's task; the compactor is used by that task's thread only.
 */
public interface FileCompactorFactory extends SluiceFactory {

    /**
     * Checks that this compactor can merge files of the sink's format, before the job starts.
     *
     * @throws IllegalArgumentException naming the compactor, the format and what to use instead
     */
    default void validate(CompactorContext context) {}

    /** Creates the compactor. Invalid options are an {@link IllegalArgumentException} naming them. */
    FileCompactor createCompactor(CompactorContext context);
}

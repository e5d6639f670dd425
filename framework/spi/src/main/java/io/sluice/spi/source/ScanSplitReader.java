package io.sluice.spi.source;

import io.sluice.spi.Payload;

import java.io.Closeable;
import java.io.IOException;

/**
 * Reads splits of a scan source on a TaskManager, one at a time (the framework closes a split's
 * rows before it opens the next), as rows of the source's {@link SourceContext#rowType()}. Closed
 * when the source subtask ends.
 */
@io.sluice.spi.Experimental
public interface ScanSplitReader extends Closeable {

    /**
     * Opens a split, resuming where a checkpoint left it.
     *
     * @param split the payload of a {@link PlannedSplit}
     * @param offset the {@link SplitRows#offset()} reached, 0 for a split read from its start
     * @param recordsToSkip the {@link SplitRows#recordsToSkip()} reached, 0 from the start
     * @throws IOException if the split cannot be opened; the framework adds the split's
     *     description to the message
     */
    SplitRows open(Payload split, long offset, long recordsToSkip) throws IOException;
}

package io.sluice.spi.compact;

import java.io.IOException;
import java.io.OutputStream;

/**
 * The one file a compaction unit becomes. A compactor uses either {@link #stream()} or {@link
 * #rows()}, not both, and closes neither: the framework finishes the file after {@link
 * FileCompactor#compact} returns.
 */
public interface CompactionOutput {

    /** The output file's bytes, to write the inputs' bytes to. */
    OutputStream stream() throws IOException;

    /** The output file as rows, written with the sink's format (encoder or bulk writer). */
    RowWriter rows() throws IOException;
}

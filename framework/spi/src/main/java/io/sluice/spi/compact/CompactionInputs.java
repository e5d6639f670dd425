package io.sluice.spi.compact;

import org.apache.flink.core.fs.Path;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;

/** The files of one compaction unit, all of the same bucket and format, complete and immutable. */
public interface CompactionInputs {

    /** The files, in the order they were written. */
    List<Path> files();

    /** Opens a file's bytes. The caller closes the stream. */
    InputStream open(Path file) throws IOException;

    /** Reads a file's rows with the sink's format. The caller closes the reader. */
    RowReader readRows(Path file) throws IOException;
}

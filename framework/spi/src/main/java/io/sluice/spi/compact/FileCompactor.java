package io.sluice.spi.compact;

import java.io.IOException;

/**
 * Merges the input files of one compaction unit into one output file, either byte by byte ({@link
 * CompactionOutput#stream()}) or row by row ({@link CompactionInputs#readRows} and {@link
 * CompactionOutput#rows()}).
 *
 * <p>A compactor only reads and writes: where the inputs are, when the output becomes visible, and
 * that a unit retried after a failure never publishes twice, is the framework's and the target's
 * business. Whatever the compactor writes is discarded if it throws.
 *
 * <p>A committer may call {@link #compact} for several units of one commit at the same time, on
 * different threads ({@code compaction.parallelism}, {@link SinkCompaction#parallelism()}): a
 * compactor keeps no state between units, or guards what it shares.
 */
public interface FileCompactor {

    /** Writes the content of every input, in order, to the output. */
    void compact(CompactionInputs inputs, CompactionOutput output) throws IOException;

    /**
     * Whether the compactor must run on every unit, also a unit of a single file. By default it
     * need not: a single file is published as it is, without being read, because merging one file
     * changes nothing for a compactor that copies its records. A compactor that transforms records
     * (removes duplicates, drops or rewrites records) says yes, or its transformation is skipped for
     * every partition that had only one small file at a checkpoint.
     *
     * @since 2.0.0
     */
    default boolean mustSeeEveryUnit() {
        return false;
    }
}

package io.sluice.runtime.source.scan;

import io.sluice.runtime.state.Envelope;

import org.apache.flink.connector.file.src.FileSourceSplit;
import org.apache.flink.connector.file.src.util.CheckpointedPosition;
import org.apache.flink.core.fs.Path;

import javax.annotation.Nullable;

import java.util.Objects;

/**
 * A split of a scan source: the plugin's planned split in an {@link Envelope}, its description
 * for messages, and how far a reader got. It is a {@link FileSourceSplit} so that Flink's file
 * source reader, with its checkpointed positions and split fetching, reads scan splits exactly as
 * it reads files; the path is only a name ({@code /scan-split/<id>}) and nothing opens it.
 */
public final class ScanSourceSplit extends FileSourceSplit {

    private static final long serialVersionUID = 1L;

    /** Longest description kept: it is for messages, and is written to state with writeUTF (64 KB at most). */
    static final int MAX_DESCRIPTION = 1000;

    private final String description;
    private final Envelope split;

    ScanSourceSplit(String id, String description, Envelope split, @Nullable CheckpointedPosition position) {
        super(
                id,
                new Path("/scan-split/" + id),
                0,
                split.payload().bytes().length,
                0,
                split.payload().bytes().length,
                new String[0],
                position);
        this.description = Objects.requireNonNull(description).length() <= MAX_DESCRIPTION
                ? description
                : description.substring(0, MAX_DESCRIPTION) + "...";
        this.split = split;
    }

    /** What the split reads, as the plugin described it. */
    public String description() {
        return description;
    }

    /** The plugin's split. */
    public Envelope split() {
        return split;
    }

    @Override
    public ScanSourceSplit updateWithCheckpointedPosition(@Nullable CheckpointedPosition position) {
        return new ScanSourceSplit(splitId(), description, split, position);
    }

    @Override
    public String toString() {
        return "ScanSourceSplit{" + splitId() + ": " + description + ", position="
                + getReaderPosition().orElse(null) + "}";
    }
}

package io.sluice.spi.source;

import io.sluice.spi.Payload;

import javax.annotation.Nullable;

import java.util.Collections;
import java.util.List;
import java.util.Objects;

/** What one call of a {@link ScanPlanner} found: splits to read, and the position after them. */
@io.sluice.spi.Experimental
public final class ScanPlan {

    private final List<PlannedSplit> splits;

    @Nullable
    private final Payload position;

    /**
     * @param splits the splits, in the order they should be read
     * @param position the position after these splits. {@code null} only when a first plan
     *     made later would read everything this one would have: the framework hands a null
     *     position back as a first plan ({@code plan(null)}), so a read that starts after the
     *     latest commit must return a position (standing for "the empty table") or it would skip
     *     what is committed in between
     */
    public ScanPlan(List<PlannedSplit> splits, @Nullable Payload position) {
        this.splits = Collections.unmodifiableList(Objects.requireNonNull(splits, "splits"));
        this.position = position;
    }

    public List<PlannedSplit> splits() {
        return splits;
    }

    @Nullable
    public Payload position() {
        return position;
    }
}

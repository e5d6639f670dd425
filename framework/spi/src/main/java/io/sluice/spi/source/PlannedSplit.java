package io.sluice.spi.source;

import io.sluice.spi.Payload;

import java.util.Objects;

/**
 * One unit of reading work a {@link ScanPlanner} hands out: the plugin's serialized split (for
 * Iceberg, a combined scan task with its delete files) and a short description the framework puts
 * in error messages and logs (the data files, say).
 */
@io.sluice.spi.Experimental
public final class PlannedSplit {

    private final String description;
    private final Payload payload;

    public PlannedSplit(String description, Payload payload) {
        this.description = Objects.requireNonNull(description, "description");
        this.payload = Objects.requireNonNull(payload, "payload");
    }

    /** What the split reads, for people: error messages and logs. */
    public String description() {
        return description;
    }

    /** The plugin's serialized split, given back to {@link ScanSplitReader#open}. */
    public Payload payload() {
        return payload;
    }

    @Override
    public String toString() {
        return "PlannedSplit{" + description + ", " + payload + "}";
    }
}

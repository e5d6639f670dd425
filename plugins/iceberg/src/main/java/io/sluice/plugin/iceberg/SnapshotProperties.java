package io.sluice.plugin.iceberg;

import org.apache.flink.configuration.ReadableConfig;
import org.apache.iceberg.SnapshotUpdate;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * The user's properties for the summary of every snapshot the sink commits (option {@code
 * snapshot-properties}, Iceberg's {@code snapshotProperties}). The {@code flink.*} keys are the
 * sink's record of what it committed ({@link CommittedCheckpoints}); a user value there would break
 * the exactly-once check, so they are refused.
 */
final class SnapshotProperties {

    private final Map<String, String> properties;

    private SnapshotProperties(Map<String, String> properties) {
        this.properties = properties;
    }

    /**
     * @throws IllegalArgumentException if a key is reserved for the sink
     */
    static SnapshotProperties of(ReadableConfig options) {
        Map<String, String> given = new TreeMap<>(
                options.getOptional(IcebergOptions.SNAPSHOT_PROPERTIES).orElse(Collections.emptyMap()));
        for (String key : given.keySet()) {
            if (key.startsWith("flink.")) {
                throw new IllegalArgumentException("Invalid '" + IcebergOptions.SNAPSHOT_PROPERTIES.key() + "': key '"
                        + key + "' is reserved, the sink records its commits under 'flink.*' keys");
            }
        }
        return new SnapshotProperties(Collections.unmodifiableMap(given));
    }

    /** Sets the properties on a commit's summary. */
    void applyTo(SnapshotUpdate<?> commit) {
        properties.forEach(commit::set);
    }

    Map<String, String> asMap() {
        return properties;
    }
}

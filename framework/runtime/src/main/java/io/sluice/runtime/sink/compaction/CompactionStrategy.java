package io.sluice.runtime.sink.compaction;

import io.sluice.runtime.config.SluiceOptions;
import io.sluice.runtime.sink.SluiceSinkBuilder;

import org.apache.flink.configuration.MemorySize;

import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * When a sink compacts its files, for {@link SluiceSinkBuilder#enableCompaction}: as soon as the
 * waiting files of a bucket add up to the size threshold, and at least every n checkpoints, as
 * Flink's {@code FileCompactStrategy}. The threshold is also the size compacted files aim for.
 * Kept as the options it stands for ({@code compaction.file-size}, {@code compaction.checkpoints}).
 */
public final class CompactionStrategy implements Serializable {

    private static final long serialVersionUID = 1L;

    private final Map<String, String> options;

    private CompactionStrategy(Map<String, String> options) {
        this.options = options;
    }

    public static Builder builder() {
        return new Builder();
    }

    public Map<String, String> options() {
        return options;
    }

    /** Builds a {@link CompactionStrategy}; unset parts keep the option defaults. */
    public static final class Builder {
        private final LinkedHashMap<String, String> options = new LinkedHashMap<>();

        private Builder() {}

        /** Compact a bucket's waiting files once they add up to this size; also the target size. */
        public Builder withSizeThreshold(MemorySize size) {
            options.put(SluiceOptions.COMPACTION_FILE_SIZE.key(), size.toString());
            return this;
        }

        /** Compact every bucket's waiting files every {@code n} checkpoints; 0: by size only. */
        public Builder withCompactionEveryCheckpoints(int n) {
            options.put(SluiceOptions.COMPACTION_CHECKPOINTS.key(), String.valueOf(n));
            return this;
        }

        public CompactionStrategy build() {
            return new CompactionStrategy(new LinkedHashMap<>(options));
        }
    }
}

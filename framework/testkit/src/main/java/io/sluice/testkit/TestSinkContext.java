package io.sluice.testkit;

import io.sluice.spi.ExtensionLookup;
import io.sluice.spi.compact.FileCompactor;
import io.sluice.spi.compact.SinkCompaction;
import io.sluice.spi.sink.SinkContext;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.table.types.logical.RowType;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A {@link SinkContext} for calling a target's writer and committer directly in a test, without
 * the framework: built with {@link #builder(RowType)}, immutable, and copied with another subtask
 * by {@link #forSubtask}. Compaction is offered (off) when the test says the target takes part in
 * it, as the framework offers it; asking for its compactor is an error, since the kit runs none.
 */
public final class TestSinkContext implements SinkContext {

    private final RowType rowType;
    private final List<String> partitionKeys;
    private final List<String> primaryKey;
    private final Map<String, String> options;
    private final ExtensionLookup extensions;
    private final String jobId;
    private final int subtask;
    private final int subtasks;
    private final boolean overwrite;
    private final boolean offersCompaction;

    private TestSinkContext(Builder b, int subtask, int subtasks) {
        this.rowType = b.rowType;
        this.partitionKeys = Collections.unmodifiableList(new ArrayList<>(b.partitionKeys));
        this.primaryKey = Collections.unmodifiableList(new ArrayList<>(b.primaryKey));
        this.options = Collections.unmodifiableMap(new LinkedHashMap<>(b.options));
        this.extensions = b.extensions;
        this.jobId = b.jobId;
        this.subtask = subtask;
        this.subtasks = subtasks;
        this.overwrite = b.overwrite;
        this.offersCompaction = b.offersCompaction;
        this.builder = b;
    }

    private final Builder builder;

    public static Builder builder(RowType rowType) {
        return new Builder(rowType);
    }

    /** The same sink, as seen by another subtask. */
    public TestSinkContext forSubtask(int index, int count) {
        return new TestSinkContext(builder, index, count);
    }

    @Override
    public RowType rowType() {
        return rowType;
    }

    @Override
    public List<String> partitionKeys() {
        return partitionKeys;
    }

    @Override
    public ReadableConfig options() {
        return Configuration.fromMap(options);
    }

    @Override
    public Map<String, String> rawOptions() {
        return options;
    }

    @Override
    public String jobId() {
        return jobId;
    }

    @Override
    public int subtaskIndex() {
        return subtask;
    }

    @Override
    public int numberOfSubtasks() {
        return subtasks;
    }

    @Override
    public MetricGroup metricGroup() {
        return UnregisteredMetricsGroup.createSinkWriterMetricGroup();
    }

    @Override
    public ExtensionLookup extensions() {
        return extensions;
    }

    @Override
    public Optional<SinkCompaction> compaction() {
        if (!offersCompaction) {
            return Optional.empty();
        }
        return Optional.of(new SinkCompaction() {
            @Override
            public boolean enabled() {
                return false;
            }

            @Override
            public FileCompactor compactor() {
                throw new IllegalStateException("This TestSinkContext runs no compaction");
            }
        });
    }

    @Override
    public List<String> primaryKey() {
        return primaryKey;
    }

    @Override
    public boolean overwrite() {
        return overwrite;
    }

    /** Builds a {@link TestSinkContext}: subtask 0 of 1, a fixed job id, no extensions unless given. */
    public static final class Builder {
        private final RowType rowType;
        private List<String> partitionKeys = Collections.emptyList();
        private List<String> primaryKey = Collections.emptyList();
        private final Map<String, String> options = new LinkedHashMap<>();
        private ExtensionLookup extensions = TestSourceContext.NO_EXTENSIONS;
        private String jobId = "00000000000000000000000000000001";
        private boolean overwrite;
        private boolean offersCompaction;

        private Builder(RowType rowType) {
            this.rowType = rowType;
        }

        public Builder partitionKeys(List<String> keys) {
            this.partitionKeys = keys;
            return this;
        }

        public Builder primaryKey(List<String> columns) {
            this.primaryKey = columns;
            return this;
        }

        public Builder option(String key, String value) {
            options.put(key, value);
            return this;
        }

        public Builder options(Map<String, String> all) {
            options.putAll(all);
            return this;
        }

        public Builder extensions(ExtensionLookup lookup) {
            this.extensions = lookup;
            return this;
        }

        public Builder jobId(String id) {
            this.jobId = id;
            return this;
        }

        public Builder overwrite(boolean replace) {
            this.overwrite = replace;
            return this;
        }

        /** Offers the framework's compaction (switched off), as to a target that supports it. */
        public Builder offersCompaction(boolean offered) {
            this.offersCompaction = offered;
            return this;
        }

        public TestSinkContext build() {
            return new TestSinkContext(this, 0, 1);
        }
    }
}

package io.sluice.testkit;

import io.sluice.spi.ExtensionLookup;
import io.sluice.spi.compact.FileCompactor;
import io.sluice.spi.compact.SinkCompaction;
import io.sluice.spi.sink.SinkContext;
import io.sluice.spi.sink.WriterLineage;

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
 * it, as the framework offers it; asking for its compactor is an error, since the kit runs none,
 * unless the test hands one over ({@link Builder#compactsWith}), which also switches it on. A
 * context is changed by deriving another: {@link #toBuilder()}, then build.
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
    private final boolean inputGroupedByPartition;
    private final boolean offersCompaction;
    private final FileCompactor compactor;
    private final Configuration jobConfiguration;
    private final WriterLineage writerLineage;

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
        this.inputGroupedByPartition = b.inputGroupedByPartition;
        this.offersCompaction = b.offersCompaction || b.compactor != null;
        this.compactor = b.compactor;
        this.jobConfiguration = Configuration.fromMap(b.jobOptions);
        this.writerLineage = b.writerLineage;
        this.builder = b.copy();
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
                return compactor != null;
            }

            @Override
            public FileCompactor compactor() {
                if (compactor == null) {
                    throw new IllegalStateException("This TestSinkContext runs no compaction");
                }
                return compactor;
            }

            /** The option {@code compaction.parallelism} of the context's options, else 1. */
            @Override
            public int parallelism() {
                return Integer.parseInt(rawOptions().getOrDefault("compaction.parallelism", "1"));
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

    @Override
    public boolean inputGroupedByPartition() {
        return inputGroupedByPartition;
    }

    @Override
    public ReadableConfig jobConfiguration() {
        return jobConfiguration;
    }

    @Override
    public Optional<WriterLineage> writerLineage() {
        return Optional.ofNullable(writerLineage);
    }

    /** A builder holding everything this context holds, to derive another context from it. */
    public Builder toBuilder() {
        return builder.copy().subtask(subtask, subtasks);
    }

    /** Builds a {@link TestSinkContext}: subtask 0 of 1, a fixed job id, no extensions unless given. Reusable: each build is a snapshot. */
    public static final class Builder {
        private RowType rowType;
        private List<String> partitionKeys = Collections.emptyList();
        private List<String> primaryKey = Collections.emptyList();
        private final Map<String, String> options = new LinkedHashMap<>();
        private ExtensionLookup extensions = TestSourceContext.NO_EXTENSIONS;
        private String jobId = "00000000000000000000000000000001";
        private boolean overwrite;
        private boolean inputGroupedByPartition;
        private boolean offersCompaction;
        private FileCompactor compactor;
        private final Map<String, String> jobOptions = new LinkedHashMap<>();
        private int subtask;
        private int subtasks = 1;
        private WriterLineage writerLineage;

        private Builder(RowType rowType) {
            this.rowType = rowType;
        }

        private Builder copy() {
            Builder b = new Builder(rowType);
            b.partitionKeys = partitionKeys;
            b.primaryKey = primaryKey;
            b.options.putAll(options);
            b.extensions = extensions;
            b.jobId = jobId;
            b.overwrite = overwrite;
            b.inputGroupedByPartition = inputGroupedByPartition;
            b.offersCompaction = offersCompaction;
            b.compactor = compactor;
            b.jobOptions.putAll(jobOptions);
            b.subtask = subtask;
            b.subtasks = subtasks;
            b.writerLineage = writerLineage;
            return b;
        }

        /** Replaces the row type given to {@link TestSinkContext#builder}. */
        public Builder rowType(RowType type) {
            this.rowType = type;
            return this;
        }

        public Builder partitionKeys(String... keys) {
            return partitionKeys(java.util.Arrays.asList(keys));
        }

        public Builder primaryKey(String... columns) {
            return primaryKey(java.util.Arrays.asList(columns));
        }

        /** Removes an option set before, e.g. one a plugin's test helper sets for every context. */
        public Builder withoutOption(String key) {
            options.remove(key);
            return this;
        }

        /** Sets an option of the job's (the SQL session's) configuration, {@link SinkContext#jobConfiguration}. */
        public Builder jobOption(String key, String value) {
            jobOptions.put(key, value);
            return this;
        }

        /** Which of how many parallel subtasks the built context is; 0 of 1 unless set. */
        public Builder subtask(int index, int count) {
            if (index < 0 || index >= count) {
                throw new IllegalArgumentException("Subtask " + index + " of " + count);
            }
            this.subtask = index;
            this.subtasks = count;
            return this;
        }

        /** Switches compaction on, with this compactor, as the framework does when {@code auto-compaction} is on. */
        public Builder compactsWith(FileCompactor compactor) {
            this.compactor = compactor;
            return this;
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

        /** Rows come grouped by partition, as a BATCH SQL job's whose planner sorted them. */
        public Builder inputGroupedByPartition(boolean grouped) {
            this.inputGroupedByPartition = grouped;
            return this;
        }

        /** Offers the framework's compaction (switched off), as to a target that supports it. */
        public Builder offersCompaction(boolean offered) {
            this.offersCompaction = offered;
            return this;
        }

        /** The writer's lineage, as the framework gives one to each writer subtask; none unless set. */
        public Builder writerLineage(WriterLineage lineage) {
            this.writerLineage = lineage;
            return this;
        }

        public TestSinkContext build() {
            return new TestSinkContext(this, subtask, subtasks);
        }
    }
}

package io.sluice.plugin.iceberg;

import io.sluice.spi.ExtensionLookup;
import io.sluice.spi.SluiceFactory;
import io.sluice.spi.sink.SinkContext;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.table.types.logical.RowType;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A {@link SinkContext} for unit tests: a Hadoop catalog in a local warehouse, options as strings. */
final class TestSinkContext implements SinkContext {

    static final String JOB = "0000000000000000000000000000000a";

    private final Map<String, String> options = new LinkedHashMap<>();
    private final RowType rowType;
    private List<String> partitionKeys = Collections.emptyList();
    private int subtask;
    private List<String> primaryKey = Collections.emptyList();
    private boolean overwrite;

    private TestSinkContext(RowType rowType) {
        this.rowType = rowType;
    }

    /** Table {@code db.t} of a Hadoop catalog in {@code warehouse}, rows of {@code rowType}. */
    static TestSinkContext hadoop(Path warehouse, RowType rowType) {
        return new TestSinkContext(rowType)
                .set("catalog-type", "hadoop")
                .set("warehouse", warehouse.toUri().toString())
                .set("catalog-database", "db")
                .set("catalog-table", "t");
    }

    TestSinkContext set(String key, String value) {
        options.put(key, value);
        return this;
    }

    TestSinkContext remove(String key) {
        options.remove(key);
        return this;
    }

    TestSinkContext partitionKeys(String... keys) {
        partitionKeys = Arrays.asList(keys);
        return this;
    }

    TestSinkContext primaryKey(String... columns) {
        primaryKey = Arrays.asList(columns);
        return this;
    }

    TestSinkContext overwrite(boolean overwrite) {
        this.overwrite = overwrite;
        return this;
    }

    TestSinkContext subtask(int index) {
        subtask = index;
        return this;
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
    public List<String> primaryKey() {
        return primaryKey;
    }

    @Override
    public boolean overwrite() {
        return overwrite;
    }

    @Override
    public ReadableConfig options() {
        return Configuration.fromMap(options);
    }

    @Override
    public Map<String, String> rawOptions() {
        return Collections.unmodifiableMap(options);
    }

    @Override
    public String jobId() {
        return JOB;
    }

    @Override
    public int subtaskIndex() {
        return subtask;
    }

    @Override
    public int numberOfSubtasks() {
        return 2;
    }

    @Override
    public MetricGroup metricGroup() {
        return new UnregisteredMetricsGroup();
    }

    @Override
    public ExtensionLookup extensions() {
        return new ExtensionLookup() {
            @Override
            public <T extends SluiceFactory> T find(Class<T> type, String identifier) {
                throw new IllegalArgumentException("no extensions in unit tests");
            }

            @Override
            public List<String> identifiers(Class<? extends SluiceFactory> type) {
                return Collections.emptyList();
            }
        };
    }

    private final org.apache.flink.configuration.Configuration jobConfiguration = new org.apache.flink.configuration.Configuration();

    /** Sets an option of the job's (session's) configuration. */
    TestSinkContext setJob(String key, String value) {
        jobConfiguration.setString(key, value);
        return this;
    }

    @Override
    public ReadableConfig jobConfiguration() {
        return jobConfiguration;
    }
}

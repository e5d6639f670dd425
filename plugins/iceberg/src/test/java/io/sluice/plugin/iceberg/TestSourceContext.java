package io.sluice.plugin.iceberg;

import io.sluice.spi.ExtensionLookup;
import io.sluice.spi.Payload;
import io.sluice.spi.SluiceFactory;
import io.sluice.spi.source.SourceContext;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.types.logical.RowType;

import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/** A {@link SourceContext} for unit tests: table {@code db.t} of a Hadoop catalog, options as strings. */
final class TestSourceContext implements SourceContext {

    private final Map<String, String> options = new LinkedHashMap<>();
    private final Configuration jobConfiguration = new Configuration();
    private final RowType rowType;
    private Payload pushedFilters;
    private Long pushedLimit;

    private TestSourceContext(RowType rowType) {
        this.rowType = rowType;
    }

    /** Table {@code db.t} of a Hadoop catalog in {@code warehouse}, rows of {@code rowType}. */
    static TestSourceContext hadoop(Path warehouse, RowType rowType) {
        return new TestSourceContext(rowType)
                .set("catalog-type", "hadoop")
                .set("warehouse", warehouse.toUri().toString())
                .set("catalog-database", "db")
                .set("catalog-table", "t");
    }

    TestSourceContext set(String key, String value) {
        options.put(key, value);
        return this;
    }

    /** Sets the filters the source pushed (as {@link IcebergScanSourceFactory#pushFilters} made them). */
    TestSourceContext pushedFilters(Optional<Payload> filters) {
        pushedFilters = filters.orElse(null);
        return this;
    }

    @Override
    public Optional<Payload> pushedFilters() {
        return Optional.ofNullable(pushedFilters);
    }

    /** Sets the query's row limit the source was given (limit push-down). */
    TestSourceContext pushedLimit(long limit) {
        pushedLimit = limit;
        return this;
    }

    @Override
    public OptionalLong pushedLimit() {
        return pushedLimit == null ? OptionalLong.empty() : OptionalLong.of(pushedLimit);
    }

    /** Sets an option of the job's (session's) configuration. */
    TestSourceContext setJob(String key, String value) {
        jobConfiguration.setString(key, value);
        return this;
    }

    @Override
    public RowType rowType() {
        return rowType;
    }

    @Override
    public List<String> partitionKeys() {
        return Collections.emptyList();
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
    public ReadableConfig jobConfiguration() {
        return jobConfiguration;
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
}

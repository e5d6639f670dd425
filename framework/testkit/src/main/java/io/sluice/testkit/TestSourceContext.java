package io.sluice.testkit;

import io.sluice.spi.ExtensionLookup;
import io.sluice.spi.SluiceFactory;
import io.sluice.spi.source.SourceContext;

import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.types.logical.RowType;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A {@link SourceContext} for calling a source extension (enumerator, format, scan source)
 * directly in a test, without the framework or plugin loading: the options the test gives, a row
 * type and partition keys, an {@link ExtensionLookup} that finds nothing unless the test supplies
 * one, and a job configuration, empty unless the test supplies one. The read is bounded unless
 * {@link #continuous()} makes it continuous.
 */
public final class TestSourceContext implements SourceContext {

    /** One string column {@code line}: enough for an enumerator, which does not read rows. */
    public static final RowType DEFAULT_ROW_TYPE =
            (RowType) DataTypes.ROW(DataTypes.FIELD("line", DataTypes.STRING())).getLogicalType();

    /**
     * Finds no extension: the kit loads no plugins, and an enumerator that needs another plugin's
     * extension should say so with the same exception the framework throws.
     */
    public static final ExtensionLookup NO_EXTENSIONS = new ExtensionLookup() {
        @Override
        public <T extends SluiceFactory> T find(Class<T> type, String identifier) {
            throw new IllegalArgumentException("No " + type.getSimpleName() + " '" + identifier
                    + "': this TestSourceContext offers no other plugins' extensions");
        }

        @Override
        public List<String> identifiers(Class<? extends SluiceFactory> type) {
            return Collections.emptyList();
        }
    };

    private final RowType rowType;
    private final List<String> partitionKeys;
    private final Map<String, String> rawOptions;
    private final ReadableConfig options;
    private final ExtensionLookup extensions;
    private final ReadableConfig jobConfiguration;
    private final boolean lookup;
    private final Boundedness boundedness;

    /** A context with the given options, {@link #DEFAULT_ROW_TYPE}, no partition keys, no extensions. */
    public TestSourceContext(Map<String, String> options) {
        this(DEFAULT_ROW_TYPE, Collections.emptyList(), options, NO_EXTENSIONS);
    }

    /** A context with everything given but the job configuration, which is empty. */
    public TestSourceContext(
            RowType rowType, List<String> partitionKeys, Map<String, String> options, ExtensionLookup extensions) {
        this(rowType, partitionKeys, options, extensions, new Configuration());
    }

    /**
     * A context with everything given, the job configuration too: where a source looks for read
     * options that are not among its own (as upstream connectors read {@code connector.*} keys).
     */
    public TestSourceContext(
            RowType rowType,
            List<String> partitionKeys,
            Map<String, String> options,
            ExtensionLookup extensions,
            ReadableConfig jobConfiguration) {
        this(rowType, partitionKeys, options, extensions, jobConfiguration, false, Boundedness.BOUNDED);
    }

    private TestSourceContext(
            RowType rowType,
            List<String> partitionKeys,
            Map<String, String> options,
            ExtensionLookup extensions,
            ReadableConfig jobConfiguration,
            boolean lookup,
            Boundedness boundedness) {
        this.lookup = lookup;
        this.boundedness = boundedness;
        this.rowType = rowType;
        this.partitionKeys = Collections.unmodifiableList(partitionKeys);
        // copied, so a test changing its map afterwards does not change what the extension saw
        this.rawOptions = Collections.unmodifiableMap(new LinkedHashMap<>(options));
        this.options = Configuration.fromMap(this.rawOptions);
        this.extensions = extensions;
        this.jobConfiguration = jobConfiguration;
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
        return options;
    }

    @Override
    public Map<String, String> rawOptions() {
        return rawOptions;
    }

    @Override
    public ExtensionLookup extensions() {
        return extensions;
    }

    @Override
    public ReadableConfig jobConfiguration() {
        return jobConfiguration;
    }

    /**
     * This context as the framework gives it to a temporal join's read of the table ({@link
     * SourceContext#lookup()} true, bounded), for a scan source whose options mean something else
     * there.
     *
     * @since 2.2.0
     */
    public TestSourceContext forLookup() {
        return new TestSourceContext(
                rowType, partitionKeys, rawOptions, extensions, jobConfiguration, true, Boundedness.BOUNDED);
    }

    @Override
    public boolean lookup() {
        return lookup;
    }

    /**
     * This context for a continuous read ({@link SourceContext#boundedness()} {@link
     * Boundedness#CONTINUOUS_UNBOUNDED}, as the framework gives it when {@code
     * source.monitor-interval} is set), everything else the same: for an enumerator that plans a
     * repeated listing differently, or refuses one.
     *
     * @since 2.10.0
     */
    public TestSourceContext continuous() {
        return new TestSourceContext(
                rowType,
                partitionKeys,
                rawOptions,
                extensions,
                jobConfiguration,
                false,
                Boundedness.CONTINUOUS_UNBOUNDED);
    }

    @Override
    public Boundedness boundedness() {
        return boundedness;
    }
}

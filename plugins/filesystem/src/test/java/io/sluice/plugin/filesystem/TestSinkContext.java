package io.sluice.plugin.filesystem;

import io.sluice.partfiles.testing.BulkLinesFormatFactory;
import io.sluice.partfiles.testing.LinesFormatFactory;
import io.sluice.partfiles.testing.PartFileTesting;
import io.sluice.spi.ExtensionLookup;
import io.sluice.spi.SluiceFactory;
import io.sluice.spi.compact.FileCompactor;
import io.sluice.spi.compact.SinkCompaction;
import io.sluice.spi.compact.FileCompactorFactory;
import io.sluice.spi.format.BulkWritingFormat;
import io.sluice.spi.format.Formats;
import io.sluice.spi.sink.SinkContext;

import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.table.types.logical.RowType;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A {@link SinkContext} for tests: options in a Flink {@link Configuration}, and an {@link
 * ExtensionLookup} holding this plugin's own factories plus the test formats {@code lines} and
 * {@code bulk-lines}.
 */
final class TestSinkContext implements SinkContext, ExtensionLookup {

    /** One nullable STRING column {@code line}. */
    static final RowType LINE = PartFileTesting.LINE;

    final LinesFormatFactory lines = new LinesFormatFactory();
    final BulkLinesFormatFactory bulkLines = new BulkLinesFormatFactory();

    private final Configuration options = new Configuration();
    private final Map<Class<?>, Map<String, SluiceFactory>> factories = new LinkedHashMap<>();
    private RowType rowType = LINE;
    private List<String> partitionKeys = Collections.emptyList();
    private int subtask;

    private TestSinkContext() {
        register(new FileSystemTargetFactory(), new DateTimeBucketAssignerFactory(), new BasePathBucketAssignerFactory(),
                new PartitionBucketAssignerFactory(), new DefaultRollingPolicyFactory(),
                new OnCheckpointRollingPolicyFactory(), new SuccessFileCommitPolicyFactory(), new ConcatFileCompactorFactory(),
                new RecordWiseFileCompactorFactory(), lines, bulkLines);
    }

    /** A sink writing {@code format} under {@code path}. */
    static TestSinkContext of(java.nio.file.Path path, String format) {
        return new TestSinkContext().set("path", path.toString()).set("format", format);
    }

    TestSinkContext set(String key, String value) {
        options.set(ConfigOptions.key(key).stringType().noDefaultValue(), value);
        return this;
    }

    TestSinkContext rowType(RowType type) {
        this.rowType = type;
        return this;
    }

    TestSinkContext partitionKeys(String... keys) {
        this.partitionKeys = Arrays.asList(keys);
        return this;
    }

    TestSinkContext subtask(int index) {
        this.subtask = index;
        return this;
    }

    void register(SluiceFactory... all) {
        for (SluiceFactory f : all) {
            registerAs(f, f.getClass());
        }
    }

    /** Under every SPI interface the factory implements, also those its interfaces extend (format capabilities). */
    private void registerAs(SluiceFactory f, Class<?> type) {
        for (Class<?> spi : type.getInterfaces()) {
            if (SluiceFactory.class.isAssignableFrom(spi) && spi != SluiceFactory.class) {
                factories.computeIfAbsent(spi, t -> new TreeMap<>()).put(f.identifier(), f);
                registerAs(f, spi);
            }
        }
    }

    // ---- SinkContext

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
        return options.toMap();
    }

    @Override
    public String jobId() {
        return "00000000000000000000000000000001";
    }

    @Override
    public int subtaskIndex() {
        return subtask;
    }

    @Override
    public int numberOfSubtasks() {
        return Math.max(1, subtask + 1);
    }

    @Override
    public MetricGroup metricGroup() {
        return new UnregisteredMetricsGroup();
    }

    @Override
    public ExtensionLookup extensions() {
        return this;
    }

    /** {@code INSERT OVERWRITE}, when the test sets {@code test.overwrite} = {@code true}. */
    @Override
    public boolean overwrite() {
        return options.toMap().getOrDefault("test.overwrite", "false").equals("true");
    }

    /** On with {@code auto-compaction}; the compactor {@code compaction.compactor} names, by default as the framework chooses it. */
    @Override
    public Optional<SinkCompaction> compaction() {
        return Optional.of(new SinkCompaction() {
            @Override
            public boolean enabled() {
                return options.toMap().getOrDefault("auto-compaction", "false").equals("true");
            }

            @Override
            public FileCompactor compactor() {
                String format = options.toMap().get("format");
                boolean bulk = format != null && Formats.offers(TestSinkContext.this, BulkWritingFormat.class, format);
                String name = options.toMap().getOrDefault("compaction.compactor", bulk ? "record-wise" : "concat");
                return find(FileCompactorFactory.class, name).createCompactor(null);
            }
        });
    }

    // ---- ExtensionLookup

    @Override
    public <T extends SluiceFactory> T find(Class<T> type, String identifier) {
        SluiceFactory f = factories.getOrDefault(type, Collections.emptyMap()).get(identifier);
        if (f == null) {
            throw new IllegalArgumentException("No " + type.getSimpleName() + " '" + identifier + "'; available: "
                    + identifiers(type));
        }
        return type.cast(f);
    }

    @Override
    public List<String> identifiers(Class<? extends SluiceFactory> type) {
        return new ArrayList<>(factories.getOrDefault(type, Collections.emptyMap()).keySet());
    }
}

package io.sluice.runtime.sink;

import io.sluice.runtime.config.SluiceOptions;
import io.sluice.spi.ExtensionLookup;
import io.sluice.spi.partition.CommitPolicy;
import io.sluice.spi.partition.CommitPolicyFactory;
import io.sluice.spi.partition.PartitionCommitContext;
import io.sluice.spi.partition.PartitionPaths;
import io.sluice.spi.partition.PartitionTimeExtractor;
import io.sluice.spi.partition.PartitionTimeExtractorFactory;
import io.sluice.spi.sink.SinkContext;

import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.core.fs.Path;

import java.time.DateTimeException;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;

/**
 * Decides when a partition is finished ({@code sink.partition-commit.trigger}, {@code .delay},
 * {@code .watermark-time-zone}) and runs the configured commit policies on it. Plain logic, driven
 * by {@link PartitionCommitOperator}.
 */
final class PartitionCommitter {

    enum Trigger { PROCESS_TIME, PARTITION_TIME }

    private final Trigger trigger;
    private final long delayMillis;
    private final ZoneId watermarkZone;
    private final List<CommitPolicy> policies;
    private final PartitionTimeExtractor extractor; // only for partition-time
    private final Path basePath;

    /** @throws IllegalArgumentException naming the option for any invalid value */
    PartitionCommitter(SinkContext context) {
        ReadableConfig options = context.options();
        this.trigger = parseTrigger(options.get(SluiceOptions.PARTITION_COMMIT_TRIGGER));
        this.delayMillis = options.get(SluiceOptions.PARTITION_COMMIT_DELAY).toMillis();
        String zone = options.get(SluiceOptions.PARTITION_COMMIT_WATERMARK_TIME_ZONE);
        try {
            this.watermarkZone = ZoneId.of(zone);
        } catch (DateTimeException e) {
            throw new IllegalArgumentException("Invalid '" + SluiceOptions.PARTITION_COMMIT_WATERMARK_TIME_ZONE.key()
                    + "' '" + zone + "': not a time zone id such as 'UTC' or 'Asia/Shanghai'", e);
        }
        this.policies = createPolicies(options, context);
        this.extractor = trigger == Trigger.PARTITION_TIME ? createExtractor(options, context) : null;
        String path = options.getOptional(org.apache.flink.configuration.ConfigOptions.key("path").stringType().noDefaultValue()).orElse(null);
        this.basePath = path == null ? null : new Path(path);
    }

    /** Whether any policy is configured; without one there is nothing to commit. */
    static boolean isConfigured(ReadableConfig options) {
        return options.getOptional(SluiceOptions.PARTITION_COMMIT_POLICY_KIND).isPresent();
    }

    private static Trigger parseTrigger(String value) {
        switch (value) {
            case "process-time":
                return Trigger.PROCESS_TIME;
            case "partition-time":
                return Trigger.PARTITION_TIME;
            default:
                throw new IllegalArgumentException("Invalid '" + SluiceOptions.PARTITION_COMMIT_TRIGGER.key() + "' '"
                        + value + "': expected 'process-time' or 'partition-time'");
        }
    }

    private static List<CommitPolicy> createPolicies(ReadableConfig options, SinkContext context) {
        List<CommitPolicy> policies = new ArrayList<>();
        String kinds = options.getOptional(SluiceOptions.PARTITION_COMMIT_POLICY_KIND).orElse("");
        ExtensionLookup extensions = context.extensions();
        for (String kind : kinds.split(",")) {
            kind = kind.trim();
            if (kind.isEmpty()) {
                continue;
            }
            if (kind.equals("custom")) {
                String classes = options.getOptional(SluiceOptions.PARTITION_COMMIT_POLICY_CLASS).orElseThrow(() ->
                        new IllegalArgumentException("'" + SluiceOptions.PARTITION_COMMIT_POLICY_KIND.key()
                                + "' 'custom' needs '" + SluiceOptions.PARTITION_COMMIT_POLICY_CLASS.key() + "'"));
                for (String name : classes.split(",")) {
                    policies.add(findByNameOrClass(extensions, CommitPolicyFactory.class, name.trim(),
                            SluiceOptions.PARTITION_COMMIT_POLICY_CLASS.key()).create(context));
                }
            } else {
                policies.add(findByNameOrClass(extensions, CommitPolicyFactory.class, kind,
                        SluiceOptions.PARTITION_COMMIT_POLICY_KIND.key()).create(context));
            }
        }
        return policies;
    }

    private static PartitionTimeExtractor createExtractor(ReadableConfig options, SinkContext context) {
        String kind = options.get(SluiceOptions.PARTITION_TIME_EXTRACTOR_KIND);
        if (kind.equals("default")) {
            return new DefaultPartitionTimeExtractor(
                    options.getOptional(SluiceOptions.PARTITION_TIME_EXTRACTOR_TIMESTAMP_PATTERN).orElse(null),
                    options.get(SluiceOptions.PARTITION_TIME_EXTRACTOR_TIMESTAMP_FORMATTER));
        }
        if (kind.equals("custom")) {
            String name = options.getOptional(SluiceOptions.PARTITION_TIME_EXTRACTOR_CLASS).orElseThrow(() ->
                    new IllegalArgumentException("'" + SluiceOptions.PARTITION_TIME_EXTRACTOR_KIND.key()
                            + "' 'custom' needs '" + SluiceOptions.PARTITION_TIME_EXTRACTOR_CLASS.key() + "'"));
            return findByNameOrClass(context.extensions(), PartitionTimeExtractorFactory.class, name,
                    SluiceOptions.PARTITION_TIME_EXTRACTOR_CLASS.key()).create(context);
        }
        throw new IllegalArgumentException("Invalid '" + SluiceOptions.PARTITION_TIME_EXTRACTOR_KIND.key() + "' '"
                + kind + "': expected 'default' or 'custom'");
    }

    /** Finds an extension by identifier, or by the class name of the plugin's factory. */
    private static <T extends io.sluice.spi.SluiceFactory> T findByNameOrClass(
            ExtensionLookup extensions, Class<T> type, String name, String option) {
        for (String id : extensions.identifiers(type)) {
            T factory = extensions.find(type, id);
            Object inner = factory instanceof io.sluice.runtime.plugin.wrap.PluginBound
                    ? ((io.sluice.runtime.plugin.wrap.PluginBound) factory).unwrap() : factory;
            if (id.equals(name) || inner.getClass().getName().equals(name)) {
                return factory;
            }
        }
        throw new IllegalArgumentException("Invalid '" + option + "' '" + name + "': no " + type.getSimpleName()
                + " with that identifier or class; available: " + extensions.identifiers(type));
    }

    /** Whether the partition, first written at {@code creationTime}, is finished now. */
    boolean isReady(String partition, long creationTime, long now, long watermark) {
        if (trigger == Trigger.PROCESS_TIME) {
            return now >= creationTime + delayMillis;
        }
        if (watermark == Long.MIN_VALUE) {
            return false;
        }
        LinkedHashMap<String, String> spec = PartitionPaths.spec(partition);
        LocalDateTime time = extractor.extract(new ArrayList<>(spec.keySet()), new ArrayList<>(spec.values()));
        long partitionMillis = time.atZone(watermarkZone).toInstant().toEpochMilli();
        return watermark >= partitionMillis + delayMillis;
    }

    /** Runs every policy on the partition. */
    void commit(String partition, long checkpointId) throws Exception {
        LinkedHashMap<String, String> spec = PartitionPaths.spec(partition);
        Path location = basePath == null ? new Path(partition) : new Path(basePath, partition);
        PartitionCommitContext ctx = new PartitionCommitContext() {
            @Override
            public String partitionId() {
                return partition;
            }

            @Override
            public LinkedHashMap<String, String> partitionSpec() {
                return new LinkedHashMap<>(spec);
            }

            @Override
            public Path partitionLocation() {
                return location;
            }

            @Override
            public long checkpointId() {
                return checkpointId;
            }
        };
        for (CommitPolicy policy : policies) {
            policy.commit(ctx);
        }
    }
}

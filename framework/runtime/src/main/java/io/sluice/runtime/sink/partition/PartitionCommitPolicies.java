package io.sluice.runtime.sink.partition;

import io.sluice.runtime.config.SluiceOptions;
import io.sluice.runtime.plugin.Extensions;
import io.sluice.spi.ExtensionLookup;
import io.sluice.spi.partition.CommitPolicy;
import io.sluice.spi.partition.CommitPolicyFactory;
import io.sluice.spi.partition.PartitionCommitContext;
import io.sluice.spi.partition.PartitionPaths;
import io.sluice.spi.sink.SinkContext;
import io.sluice.spi.sink.TargetCommitter;

import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.core.fs.Path;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;

/**
 * The commit policies of a sink ({@code sink.partition-commit.policy.kind}, {@code .class}), run
 * in order on a finished partition whose files are already visible.
 */
public final class PartitionCommitPolicies implements AutoCloseable {

    private final List<CommitPolicy> policies;
    private final String target;

    /** @throws IllegalArgumentException naming the option for an unknown policy */
    public PartitionCommitPolicies(SinkContext context) {
        this.policies = create(context.options(), context);
        this.target = context.options().getOptional(SluiceOptions.TARGET).orElse("?");
    }

    /** Whether any policy is configured; without one, partitions need no tracking at all. */
    public static boolean isConfigured(ReadableConfig options) {
        return options.getOptional(SluiceOptions.PARTITION_COMMIT_POLICY_KIND)
                .map(kinds -> !kinds.trim().isEmpty())
                .orElse(false);
    }

    private static List<CommitPolicy> create(ReadableConfig options, SinkContext context) {
        List<CommitPolicy> policies = new ArrayList<>();
        String kinds =
                options.getOptional(SluiceOptions.PARTITION_COMMIT_POLICY_KIND).orElse("");
        ExtensionLookup extensions = context.extensions();
        for (String kind : kinds.split(",")) {
            kind = kind.trim();
            if (kind.isEmpty()) {
                continue;
            }
            if (kind.equals("custom")) {
                String classes = options.getOptional(SluiceOptions.PARTITION_COMMIT_POLICY_CLASS)
                        .orElseThrow(() -> new IllegalArgumentException(
                                "'" + SluiceOptions.PARTITION_COMMIT_POLICY_KIND.key() + "' 'custom' needs '"
                                        + SluiceOptions.PARTITION_COMMIT_POLICY_CLASS.key() + "'"));
                for (String name : classes.split(",")) {
                    policies.add(Extensions.byNameOrClass(
                                    extensions,
                                    CommitPolicyFactory.class,
                                    name.trim(),
                                    SluiceOptions.PARTITION_COMMIT_POLICY_CLASS.key())
                            .create(context));
                }
            } else {
                policies.add(Extensions.byNameOrClass(
                                extensions,
                                CommitPolicyFactory.class,
                                kind,
                                SluiceOptions.PARTITION_COMMIT_POLICY_KIND.key())
                        .create(context));
            }
        }
        return policies;
    }

    /** Runs every policy on the partition, whose files {@code committer} has made visible. */
    public void commit(String partition, long checkpointId, TargetCommitter committer) throws Exception {
        LinkedHashMap<String, String> spec = PartitionPaths.spec(partition);
        PartitionCommitContext context = new PartitionCommitContext() {
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
                try {
                    return committer
                            .partitionLocation(partition)
                            .orElseThrow(() -> new IllegalStateException("Target '" + target
                                    + "' has no partition directories: a commit policy of '"
                                    + SluiceOptions.PARTITION_COMMIT_POLICY_KIND.key() + "' asked for the location of"
                                    + " partition '" + partition + "'"));
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }

            @Override
            public List<Path> visibleFiles() throws IOException {
                return committer.visibleFiles(partition);
            }

            @Override
            public long checkpointId() {
                return checkpointId;
            }
        };
        for (CommitPolicy policy : policies) {
            policy.commit(context);
        }
    }

    /** Closes every policy, all of them even when one fails. */
    @Override
    public void close() throws Exception {
        Exception failure = null;
        for (CommitPolicy policy : policies) {
            try {
                policy.close();
            } catch (Exception e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}

package io.sluice.it.chaos.hive;

import io.sluice.spi.partition.CommitPolicy;
import io.sluice.spi.partition.CommitPolicyFactory;
import io.sluice.spi.sink.SinkContext;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;

/**
 * Test plugin: the hive plugin's {@code metastore} policy, reached through the extension lookup
 * ({@code 'sink.partition-commit.policy.kind' = 'chaos-metastore,success-file'}), that fails once
 * inside the policy: the {@code chaos.policy.fail-at}-th partition it is asked to commit fails
 * after its files are visible (the number of visible files goes into the {@code policy-failed}
 * marker) and before the real policy adds it to the metastore. Every call is recorded in
 * {@code policy-calls} as {@code <partition> <checkpoint> <visible files>}. Without the option it
 * never fails.
 */
@org.pf4j.Extension
public class ChaosMetastorePolicyFactory implements CommitPolicyFactory {

    @Override
    public String identifier() {
        return "chaos-metastore";
    }

    @Override
    public CommitPolicy create(SinkContext context) {
        CommitPolicy metastore = context.extensions()
                .find(CommitPolicyFactory.class, "metastore")
                .create(context);
        Path markers = Paths.get(context.options().get(ChaosHiveTargetFactory.MARKER_DIR));
        int failAt = context.options()
                .getOptional(ChaosHiveTargetFactory.FAIL_AT_PARTITION)
                .orElse(Integer.MAX_VALUE);
        return partition -> {
            int visible = partition.visibleFiles().size();
            Path calls = markers.resolve("policy-calls");
            List<String> earlier = Files.exists(calls) ? Files.readAllLines(calls) : List.of();
            boolean seen = earlier.stream().anyMatch(l -> l.startsWith(partition.partitionId() + " "));
            long distinctBefore = earlier.stream()
                    .map(l -> l.substring(0, l.indexOf(' ')))
                    .distinct()
                    .count();
            ChaosHiveTargetFactory.append(
                    calls, partition.partitionId() + " " + partition.checkpointId() + " " + visible);
            if (!seen
                    && distinctBefore + 1 >= failAt
                    && ChaosHiveTargetFactory.claim(
                            markers.resolve("policy-failed"), partition.partitionId() + " " + visible)) {
                throw new IOException("chaos: injected failure in the metastore policy of partition '"
                        + partition.partitionId() + "' after its " + visible + " files are visible, before it"
                        + " is added (checkpoint " + partition.checkpointId() + ")");
            }
            metastore.commit(partition);
        };
    }
}

package io.sluice.it.chaos;

import io.sluice.spi.partition.CommitPolicy;
import io.sluice.spi.partition.CommitPolicyFactory;
import io.sluice.spi.sink.SinkContext;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * Test plugin: a commit policy ({@code 'sink.partition-commit.policy.class' = 'chaos-failing-policy'})
 * that fails once, the first time a partition is committed after its files became visible, and
 * records every partition it commits; a marker file under {@code chaos.marker-dir} remembers the
 * failure across restarts. Put after {@code success-file} in the policy kinds, it fails between
 * the two policies of one partition.
 */
@org.pf4j.Extension
public class ChaosCommitPolicyFactory implements CommitPolicyFactory {

    @Override
    public String identifier() {
        return "chaos-failing-policy";
    }

    @Override
    public CommitPolicy create(SinkContext context) {
        Path markers = Paths.get(context.options().get(ChaosTargetFactory.MARKER_DIR));
        return partition -> {
            Path marker = markers.resolve("policy-failed");
            if (!Files.exists(marker)) {
                Files.createDirectories(markers);
                try {
                    Files.createFile(marker);
                } catch (FileAlreadyExistsException another) {
                    return;
                }
                throw new IOException("chaos: injected failure in the commit policy of partition '"
                        + partition.partitionId() + "' (checkpoint " + partition.checkpointId() + ")");
            }
        };
    }
}

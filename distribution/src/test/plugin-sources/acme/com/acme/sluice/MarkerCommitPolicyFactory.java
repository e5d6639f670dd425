package com.acme.sluice;

import io.sluice.spi.partition.CommitPolicy;
import io.sluice.spi.partition.CommitPolicyFactory;
import io.sluice.spi.sink.SinkContext;

import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;

import java.nio.charset.StandardCharsets;

/**
 * A third party's commit policy: writes {@code _ACME} with the partition's values and the
 * checkpoint that committed it into each finished partition.
 */
@org.pf4j.Extension
public class MarkerCommitPolicyFactory implements CommitPolicyFactory {

    @Override
    public String identifier() {
        return "acme-marker";
    }

    @Override
    public CommitPolicy create(SinkContext context) {
        return partition -> {
            Path marker = new Path(partition.partitionLocation(), "_ACME");
            try (org.apache.flink.core.fs.FSDataOutputStream out =
                    FileSystem.get(marker.toUri()).create(marker, FileSystem.WriteMode.OVERWRITE)) {
                out.write((partition.partitionSpec() + " checkpoint=" + partition.checkpointId())
                        .getBytes(StandardCharsets.UTF_8));
            }
        };
    }
}

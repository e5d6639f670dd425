package io.sluice.spi.partition;

import org.apache.flink.core.fs.Path;

import java.io.IOException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;

/** The partition a {@link CommitPolicy} is asked to commit. */
public interface PartitionCommitContext {

    /** The partition id: the bucket id, for Hive-style directories {@code k1=v1/k2=v2}. */
    String partitionId();

    /** Partition keys and (unescaped) values in key order; empty if the id is not {@code k=v}. */
    LinkedHashMap<String, String> partitionSpec();

    /**
     * Where the partition's files are, as the target says ({@link
     * io.sluice.spi.sink.TargetCommitter#partitionLocation}).
     *
     * @throws IllegalStateException naming the target if it has no partition directories
     */
    Path partitionLocation();

    /**
     * The data files readers of the partition see after this commit, as the target lists them
     * ({@link io.sluice.spi.sink.TargetCommitter#visibleFiles}): those of earlier commits too, so
     * a policy that records them is idempotent.
     *
     * @since 2.0.0
     */
    default List<Path> visibleFiles() throws IOException {
        return Collections.emptyList();
    }

    /** The checkpoint whose commit made the partition's newest files visible. */
    long checkpointId();
}

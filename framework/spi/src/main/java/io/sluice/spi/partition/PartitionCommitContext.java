package io.sluice.spi.partition;

import org.apache.flink.core.fs.Path;

import java.util.LinkedHashMap;

/** The partition a {@link CommitPolicy} is asked to commit. */
public interface PartitionCommitContext {

    /** The partition id: the bucket id, for Hive-style directories {@code k1=v1/k2=v2}. */
    String partitionId();

    /** Partition keys and (unescaped) values in key order; empty if the id is not {@code k=v}. */
    LinkedHashMap<String, String> partitionSpec();

    /** Where the partition's files are. */
    Path partitionLocation();

    /** The checkpoint whose commit made the partition's newest files visible. */
    long checkpointId();
}

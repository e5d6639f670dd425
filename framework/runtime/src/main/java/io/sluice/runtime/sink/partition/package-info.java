/**
 * Partition commit, as Flink's filesystem connector does it: {@link
 * io.sluice.runtime.sink.partition.PartitionCommitTrigger} decides when a partition is finished
 * ({@code sink.partition-commit.trigger}, with {@code DefaultPartitionTimeExtractor} or a plugin's
 * {@code PartitionTimeExtractor}) and {@link io.sluice.runtime.sink.partition.PartitionCommitPolicies}
 * runs the policies on it once its files are visible.
 *
 * <p>The trigger is public for the commit aggregator ({@code sink.commit}) and for validation
 * ({@code SinkValidation}), the policies for the committer as well; the default time extractor stays
 * package-private.
 */
package io.sluice.runtime.sink.partition;

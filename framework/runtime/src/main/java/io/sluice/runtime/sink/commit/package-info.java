/**
 * What a checkpoint commits: {@link io.sluice.runtime.sink.commit.CommitAggregator}, the
 * parallelism-1 operator behind the writers that gathers a checkpoint's committables into one
 * (holding back files a partition trigger or compaction still waits for) and commits it when the
 * checkpoint completes, and {@link io.sluice.runtime.sink.commit.SluiceCommitter}, which hands
 * them to the target's committer and then runs the partition commit policies.
 *
 * <p>Both classes are public because {@code SluiceSink} (in {@code io.sluice.runtime.sink}) builds
 * them; their constructors take framework types only. The operator state names and the handover
 * layout ({@code readPending}, {@code pendingState}) stay package-private, checked by the migration
 * test next to them. No class name of this package is in any state: operator state is bytes written
 * by {@code SimpleVersionedSerialization} and Flink's own tuple serializer.
 */
package io.sluice.runtime.sink.commit;

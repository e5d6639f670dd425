/**
 * Compaction of small files before they are published: {@link
 * io.sluice.runtime.sink.compaction.CompactionStrategy} is what a builder is given ({@code
 * SluiceSinkBuilder.enableCompaction}), {@link io.sluice.runtime.sink.compaction.CompactionPlanner}
 * decides in the commit aggregator which waiting files of a bucket become a unit, and {@link
 * io.sluice.runtime.sink.compaction.CompactorChoice} picks the {@code FileCompactorFactory} that runs
 * a unit ({@code compaction.compactor}).
 *
 * <p>The strategy is API; the planner and the choice are public only for the aggregator ({@code
 * sink.commit}), {@code SinkValidation} and {@code TaskSinkContext}. The planner's constructor, {@code
 * waitingFiles()}, {@code State} and {@code StateSerializer} are public for the aggregator's migration
 * test ({@code sink.commit.CommitAggregatorStateMigrationTest}, kept unchanged), which checks the bytes
 * the aggregator keeps; the serializer writes version and bytes only, no class name.
 */
package io.sluice.runtime.sink.compaction;

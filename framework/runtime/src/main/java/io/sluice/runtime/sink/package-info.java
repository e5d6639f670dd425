/**
 * The exactly-once sink: {@link io.sluice.runtime.sink.SluiceSink}, one Flink Sink V2 for every
 * target, its builders ({@link io.sluice.runtime.sink.SluiceSinkBuilder} for file targets,
 * from {@code SluiceSink.forRowData}/{@code forAdapter}; {@link io.sluice.runtime.sink.TableSinkBuilder}
 * for table targets, from {@code TableSinkBuilder.forRowData}/{@code forAdapted}), the {@link io.sluice.runtime.sink.SinkDescriptor}
 * they and SQL plan with {@link io.sluice.runtime.sink.SinkPlanner}, its validation
 * ({@link io.sluice.runtime.sink.SinkValidation}) and the
 * writer side ({@code SluiceSinkWriter}, {@code ChangeKeySelector}).
 *
 * <p>The rest of the pipeline has a package per concept: {@link io.sluice.runtime.sink.commit}
 * (what a checkpoint commits), {@link io.sluice.runtime.sink.partition} (when a partition is
 * finished and what then runs) and {@link io.sluice.runtime.sink.compaction} (merging small files
 * before they are published). {@link io.sluice.runtime.sink.TaskSinkContext} and
 * {@link io.sluice.runtime.sink.FailFast} are public only because the committer and the aggregator
 * in {@code sink.commit} use them; they are framework internals, not API.
 */
package io.sluice.runtime.sink;

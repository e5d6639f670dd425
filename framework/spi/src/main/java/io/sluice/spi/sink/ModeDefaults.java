package io.sluice.spi.sink;

import io.sluice.spi.Experimental;

import java.util.Map;

/**
 * Options a sink of a target takes when its own options name none, by the job's mode. Upstream's
 * connectors default some options by mode, as Flink's Hive sink runs {@code
 * sink.partition-commit.policy.kind} {@code metastore,success-file} in BATCH and refuses a
 * STREAMING write into a partitioned table that names no policy. Offered through {@link
 * TargetFactory#modeDefaults()}.
 *
 * @since 3.0.0 ({@code TargetFactory.modeDefaults(SinkContext, boolean)} before)
 */
@Experimental
public interface ModeDefaults {

    /**
     * The defaults for a job of bounded input (BATCH) or of unbounded input (STREAMING). Asked on
     * the client, once the job's mode is known (after {@link TargetFactory#validate}); the
     * framework adds the keys the sink does not set and checks the options again.
     *
     * @param bounded whether the sink's input is bounded, the job then running in BATCH
     * @return options by key, which the framework adds only where the sink names none
     * @throws IllegalArgumentException naming the option the sink must set in this mode
     */
    Map<String, String> defaults(SinkContext context, boolean bounded);
}

package io.sluice.testshared;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;

import java.time.Duration;

/**
 * The MiniCluster of the tests that fail a job on purpose and check that every record arrives
 * once: one TaskManager with {@code slots} slots for the whole class (Flink's {@link
 * MiniClusterExtension}, which this extension runs), and {@link #restartingEnvironment}s that
 * checkpoint and restart a failed job from its last checkpoint, a few times, soon.
 *
 * <pre>{@code
 * @RegisterExtension
 * static final FailoverCluster CLUSTER = new FailoverCluster(4);
 * ...
 * StreamExecutionEnvironment env = CLUSTER.restartingEnvironment(PARALLELISM, 100);
 * }</pre>
 */
public final class FailoverCluster
        implements BeforeAllCallback, BeforeEachCallback, AfterEachCallback, AfterAllCallback, ParameterResolver {

    /** Restarts a failed job: enough for one injected failure and a retry of the restart itself. */
    public static final int RESTART_ATTEMPTS = 3;

    public static final Duration RESTART_DELAY = Duration.ofMillis(200);

    private final MiniClusterExtension cluster;

    public FailoverCluster(int slots) {
        this.cluster = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                .setNumberTaskManagers(1)
                .setNumberSlotsPerTaskManager(slots)
                .build());
    }

    /**
     * An environment on this cluster with {@code parallelism}, a checkpoint every {@code
     * checkpointMillis} and a fixed-delay restart strategy ({@link #RESTART_ATTEMPTS} attempts,
     * {@link #RESTART_DELAY} apart).
     */
    public StreamExecutionEnvironment restartingEnvironment(int parallelism, long checkpointMillis) {
        Configuration conf = new Configuration();
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, RESTART_ATTEMPTS);
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, RESTART_DELAY);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(parallelism);
        env.enableCheckpointing(checkpointMillis);
        return env;
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        cluster.beforeAll(context);
    }

    @Override
    public void beforeEach(ExtensionContext context) throws Exception {
        cluster.beforeEach(context);
    }

    @Override
    public void afterEach(ExtensionContext context) throws Exception {
        cluster.afterEach(context);
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        cluster.afterAll(context);
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context)
            throws ParameterResolutionException {
        return cluster.supportsParameter(parameter, context);
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context)
            throws ParameterResolutionException {
        return cluster.resolveParameter(parameter, context);
    }
}

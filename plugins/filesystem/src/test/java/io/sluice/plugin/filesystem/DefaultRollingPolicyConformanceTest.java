package io.sluice.plugin.filesystem;

import io.sluice.spi.sink.RollingPolicyFactory;
import io.sluice.testkit.RollingPolicyConformance;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/** The built-in {@code default} rolling policy against the framework's conformance kit, with small thresholds. */
class DefaultRollingPolicyConformanceTest extends RollingPolicyConformance {

    @Override
    protected RollingPolicyFactory policyFactory() {
        return new DefaultRollingPolicyFactory();
    }

    @Override
    protected Map<String, String> options() {
        return Map.of(
                "sink.rolling-policy.file-size",
                "1kb",
                "sink.rolling-policy.rollover-interval",
                "10 min",
                "sink.rolling-policy.inactivity-interval",
                "1 min");
    }

    @Override
    protected Long partSizeLimit() {
        return 1024L;
    }

    @Override
    protected Duration rolloverInterval() {
        return Duration.ofMinutes(10);
    }

    @Override
    protected Duration inactivityInterval() {
        return Duration.ofMinutes(1);
    }

    @Override
    protected List<Map<String, String>> invalidOptions() {
        return List.of(
                Map.of("sink.rolling-policy.file-size", "0b"),
                Map.of("sink.rolling-policy.rollover-interval", "0 s"),
                Map.of("sink.rolling-policy.inactivity-interval", "0 ms"),
                Map.of("sink.rolling-policy.file-size", "big"));
    }
}

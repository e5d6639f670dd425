package io.sluice.plugin.filesystem;

import io.sluice.spi.sink.RollingPolicyFactory;
import io.sluice.testkit.RollingPolicyConformance;

import java.time.Duration;

/** The built-in {@code default} rolling policy against the framework's conformance kit, with its default thresholds. */
class DefaultRollingPolicyDefaultsConformanceTest extends RollingPolicyConformance {

    @Override
    protected RollingPolicyFactory policyFactory() {
        return new DefaultRollingPolicyFactory();
    }

    @Override
    protected Long partSizeLimit() {
        return 128L << 20;
    }

    @Override
    protected Duration rolloverInterval() {
        return Duration.ofMinutes(30);
    }

    @Override
    protected Duration inactivityInterval() {
        return Duration.ofMinutes(30);
    }
}

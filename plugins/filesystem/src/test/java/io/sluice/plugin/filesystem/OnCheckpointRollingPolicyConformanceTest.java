package io.sluice.plugin.filesystem;

import io.sluice.spi.sink.RollingPolicyFactory;
import io.sluice.testkit.RollingPolicyConformance;

/** The built-in {@code on-checkpoint} rolling policy against the framework's conformance kit. */
class OnCheckpointRollingPolicyConformanceTest extends RollingPolicyConformance {

    @Override
    protected RollingPolicyFactory policyFactory() {
        return new OnCheckpointRollingPolicyFactory();
    }

    @Override
    protected boolean rollsOnEveryCheckpoint() {
        return true;
    }
}

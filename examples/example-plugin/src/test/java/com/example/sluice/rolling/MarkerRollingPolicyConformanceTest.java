package com.example.sluice.rolling;

import io.sluice.spi.sink.RollingPolicyFactory;
import io.sluice.testkit.RollingPolicyConformance;

import java.util.List;
import java.util.Map;

/** The example rolling policy against Sluice's conformance kit, opening groups at lines starting with '#'. */
class MarkerRollingPolicyConformanceTest extends RollingPolicyConformance {

    @Override
    protected RollingPolicyFactory policyFactory() {
        return new MarkerRollingPolicyFactory();
    }

    @Override
    protected Map<String, String> options() {
        return Map.of("sink.rolling-policy.marker.column", "line", "sink.rolling-policy.marker.prefix", "#");
    }

    @Override
    protected List<Map<String, String>> invalidOptions() {
        return List.of(
                Map.of("sink.rolling-policy.marker.column", "nope", "sink.rolling-policy.marker.prefix", "#"),
                Map.of("sink.rolling-policy.marker.column", "line", "sink.rolling-policy.marker.prefix", ""));
    }
}

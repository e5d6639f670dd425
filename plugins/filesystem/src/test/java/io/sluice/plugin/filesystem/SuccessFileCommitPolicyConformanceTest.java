package io.sluice.plugin.filesystem;

import io.sluice.spi.partition.CommitPolicyFactory;
import io.sluice.testkit.CommitPolicyConformance;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** The built-in {@code success-file} commit policy against the framework's conformance kit, with a marker of its own name. */
class SuccessFileCommitPolicyConformanceTest extends CommitPolicyConformance {

    private static final String NAME = "sink.partition-commit.success-file.name";

    @Override
    protected CommitPolicyFactory policyFactory() {
        return new SuccessFileCommitPolicyFactory();
    }

    @Override
    protected Map<String, String> options(Path table) {
        return Map.of(NAME, "_DONE");
    }

    @Override
    protected List<Map<String, String>> invalidOptions() {
        return List.of(Map.of(NAME, ""), Map.of(NAME, "a/b"), Map.of(NAME, ".."), Map.of(NAME, "x:y"));
    }
}

package io.sluice.testkit;

import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

/** Runs a conformance class through the JUnit launcher, to see which of its checks fail. */
final class ConformanceRuns {

    private ConformanceRuns() {}

    /**
     * Runs {@code testClass} and returns the names of the checks that failed.
     *
     * @param allChecks every check of the kit: all must have run, so that a failure of discovery
     *     does not pass for "nothing failed"
     */
    static Set<String> failedChecks(Class<?> testClass, String... allChecks) {
        return checks(testClass, TestExecutionResult.Status.FAILED, allChecks);
    }

    /** Runs {@code testClass} and returns the names of the checks that were skipped (an assumption failed). */
    static Set<String> skippedChecks(Class<?> testClass, String... allChecks) {
        return checks(testClass, TestExecutionResult.Status.ABORTED, allChecks);
    }

    private static Set<String> checks(Class<?> testClass, TestExecutionResult.Status status, String... allChecks) {
        Set<String> failed = new TreeSet<>();
        Set<String> finished = new TreeSet<>();
        LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
                .selectors(selectClass(testClass))
                .build();
        LauncherFactory.create().execute(request, new TestExecutionListener() {
            @Override
            public void executionFinished(TestIdentifier id, TestExecutionResult result) {
                if (id.isTest() && id.getSource().orElse(null) instanceof MethodSource) {
                    String method = ((MethodSource) id.getSource().get()).getMethodName();
                    finished.add(method);
                    if (result.getStatus() == status) {
                        failed.add(method);
                    }
                }
            }
        });
        assertThat(finished).as("checks run on %s", testClass.getSimpleName()).containsExactlyInAnyOrder(allChecks);
        return failed;
    }
}

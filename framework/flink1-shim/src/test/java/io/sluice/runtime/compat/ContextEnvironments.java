package io.sluice.runtime.compat;

import org.apache.flink.streaming.util.TestStreamEnvironment;
import org.apache.flink.test.util.TestEnvironment;

/**
 * The context environments Flink's {@code MiniClusterExtension} installs for a test, for Flink
 * 1.x: the DataSet API's and the DataStream API's. A test that submits to another cluster
 * (a remote environment) must unset both, as Flink refuses a remote environment while either is set.
 */
public final class ContextEnvironments {

    private ContextEnvironments() {}

    /** Unsets the MiniCluster's context environments of this thread, so a remote environment can be created. */
    public static void unset() {
        TestEnvironment.unsetAsContext();
        TestStreamEnvironment.unsetAsContext();
    }
}

package io.sluice.runtime.compat;

import org.apache.flink.streaming.util.TestStreamEnvironment;

/**
 * The context environment Flink's {@code MiniClusterExtension} installs for a test, for Flink 2:
 * the DataStream API's only (the DataSet API and its {@code TestEnvironment} are gone). A test
 * that submits to another cluster (a remote environment) must unset it first.
 */
public final class ContextEnvironments {

    private ContextEnvironments() {}

    /** Unsets the MiniCluster's context environment of this thread, so a remote environment can be created. */
    public static void unset() {
        TestStreamEnvironment.unsetAsContext();
    }
}

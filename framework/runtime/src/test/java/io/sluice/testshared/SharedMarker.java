package io.sluice.testshared;

/**
 * A class both on the framework's (test) classpath and, as a different copy, inside a test
 * plugin: which copy a plugin gets shows whether {@code io.sluice.testshared.} is parent-first.
 */
public final class SharedMarker {

    private SharedMarker() {}

    /** {@code framework} here; the plugin's copy answers {@code plugin}. */
    public static String origin() {
        return "framework";
    }
}

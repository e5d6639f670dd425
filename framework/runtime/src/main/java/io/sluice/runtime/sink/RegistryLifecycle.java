package io.sluice.runtime.sink;

import io.sluice.runtime.plugin.PluginRegistry;

import org.apache.flink.util.UserCodeClassLoader;

/**
 * Ties the plugin registries to the life of the job's class loader when the framework was shipped
 * inside a job jar instead of Flink's {@code lib/}: then each job has its own registries, and the
 * release hook closes them (stops plugins, closes their loaders) so repeated jobs on one
 * TaskManager do not leak metaspace. When the framework sits in {@code lib/}, registries live as
 * long as the JVM and nothing is registered.
 */
final class RegistryLifecycle {

    private RegistryLifecycle() {}

    static void attach(UserCodeClassLoader userCode) {
        if (userCode == null) {
            return;
        }
        if (RegistryLifecycle.class.getClassLoader() == userCode.asClassLoader()) {
            userCode.registerReleaseHookIfAbsent("sluice-plugin-registries", PluginRegistry::closeAll);
        }
    }
}

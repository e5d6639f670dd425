package io.sluice.plugin.formats.delimited;

import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.util.SimpleUserCodeClassLoader;
import org.apache.flink.util.UserCodeClassLoader;

/**
 * What a {@link SerializationSchema} or {@link DeserializationSchema} opens with inside this
 * plugin: the plugin's own class loader (it sees the plugin's libraries, and Flink's through the
 * parent-first prefixes) and no metrics, since neither an encoder nor a stream reader has an
 * operator metric group to report to.
 */
final class PluginInitializationContext
        implements SerializationSchema.InitializationContext, DeserializationSchema.InitializationContext {

    @Override
    public MetricGroup getMetricGroup() {
        return new UnregisteredMetricsGroup();
    }

    @Override
    public UserCodeClassLoader getUserCodeClassLoader() {
        // the CSV and JSON schemas register no release hooks, so the simple implementation,
        // which ignores them, is enough
        return SimpleUserCodeClassLoader.create(PluginInitializationContext.class.getClassLoader());
    }
}

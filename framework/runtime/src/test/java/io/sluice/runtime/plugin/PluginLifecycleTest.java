package io.sluice.runtime.plugin;

import org.junit.jupiter.api.Test;

import java.net.URL;
import java.net.URLClassLoader;

import static org.assertj.core.api.Assertions.assertThat;

/** The framework on the JVM's class path (lib/, tests) attaches nothing; closing twice counts once. */
class PluginLifecycleTest {

    @Test
    void onTheJvmsClassPathNothingIsAttached() {
        assertThat(PluginLifecycle.inJobJar(null)).isFalse();
        assertThat(PluginLifecycle.inJobJar(PluginLifecycle.class.getClassLoader()))
                .isFalse();
        assertThat(PluginLifecycle.inJobJar(new URLClassLoader(new URL[0], PluginLifecycle.class.getClassLoader())))
                .isFalse();
        int before = PluginLifecycle.attached();
        PluginLifecycle.Attachment attachment = PluginLifecycle.attach(null);
        assertThat(attachment).isSameAs(PluginLifecycle.Attachment.NONE);
        assertThat(PluginLifecycle.attached()).isEqualTo(before);
        attachment.close();
        attachment.close();
        assertThat(PluginLifecycle.attached()).isEqualTo(before);
    }
}

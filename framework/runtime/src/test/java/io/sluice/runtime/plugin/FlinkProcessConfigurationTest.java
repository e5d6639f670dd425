package io.sluice.runtime.plugin;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The plugins directory from a Flink process's own configuration: a {@code config.yaml} shaped
 * like Flink 1.20's default (a nested {@code env.java.opts.all} block for the JDK 17 flags) with
 * Sluice's key added at the top level, as the README's install step says.
 */
class FlinkProcessConfigurationTest {

    @TempDir
    Path conf;

    private void configYaml(String sluiceLine) throws Exception {
        Files.write(
                conf.resolve("config.yaml"),
                String.join(
                                "\n",
                                "env:",
                                "  java:",
                                "    opts:",
                                "      all: --add-opens=java.base/java.lang=ALL-UNNAMED --add-opens=java.base/java.util=ALL-UNNAMED",
                                "jobmanager:",
                                "  rpc:",
                                "    address: localhost",
                                sluiceLine,
                                "")
                        .getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void theKeyNextToFlinksNestedDefaultsIsRead() throws Exception {
        configYaml("sluice.plugins.dir: /opt/sluice/sluice-plugins");
        assertThat(FlinkProcessConfiguration.load(conf.toString(), null))
                .containsEntry("sluice.plugins.dir", "/opt/sluice/sluice-plugins")
                // and Flink's own JDK 17 flags are still there: nothing of Sluice's went into them
                .containsEntry(
                        "env.java.opts.all",
                        "--add-opens=java.base/java.lang=ALL-UNNAMED --add-opens=java.base/java.util=ALL-UNNAMED");
    }

    @Test
    void withoutFlinkConfDirTheEntryPointsConfigDirArgumentIsUsed() throws Exception {
        configYaml("sluice.plugins.dir: /srv/p");
        String command = "org.apache.flink.runtime.taskexecutor.TaskManagerRunner --configDir " + conf
                + " -D taskmanager.resource-id=tm-1";
        assertThat(FlinkProcessConfiguration.load(null, command)).containsEntry("sluice.plugins.dir", "/srv/p");
        assertThat(FlinkProcessConfiguration.load(
                        "", "org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint -c " + conf))
                .containsEntry("sluice.plugins.dir", "/srv/p");
    }

    @Test
    void noConfigurationIsEmpty() throws Exception {
        assertThat(FlinkProcessConfiguration.load(null, "org.apache.maven.surefire.booter.ForkedBooter x y"))
                .isEmpty();
        assertThat(FlinkProcessConfiguration.load(conf.resolve("missing").toString(), null))
                .isEmpty();
        // a directory without Flink's configuration file
        assertThat(FlinkProcessConfiguration.load(conf.toString(), null)).isEmpty();
    }
}

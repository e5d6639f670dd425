package io.sluice.it;

import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A third party builds a plugin outside Sluice's tree, from a pom of a dozen lines that inherits
 * {@code sluice-plugin-parent}, with nothing but Sluice's published artifacts (the parent poms and
 * the SPI jar, copied into a fresh local repository as a Maven repository would serve them) and
 * the libraries any Maven build has; the zip it gets loads from a plugins directory and its format
 * writes a table in a job.
 */
class ExternalPluginBuildIT {

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(2)
                    .build());

    @TempDir
    Path tmp;

    @Test
    void aPluginBuiltOutsideTheTreeFromThePublishedParentLoadsAndRunsInAJob() throws Exception {
        String version = System.getProperty("sluice.test.version");
        Path reactor = Paths.get(System.getProperty("sluice.test.reactor")).toRealPath();
        Path repo = tmp.resolve("repo");
        publish(repo, "sluice-parent", reactor.resolve("pom.xml"), null);
        publish(repo, "sluice-plugin-parent", reactor.resolve("framework/plugin-parent/pom.xml"), null);
        publish(
                repo,
                "sluice-spi",
                reactor.resolve("framework/spi/pom.xml"),
                reactor.resolve("framework/spi/target/sluice-spi-" + version + ".jar"));

        Path project = tmp.resolve("shout-format");
        copyProject(project, version);
        Path settings = tmp.resolve("settings.xml");
        // every other artifact from the build's own local repository, served as a remote one: no network
        Files.writeString(
                settings,
                "<settings><localRepository>" + repo + "</localRepository><mirrors><mirror>"
                        + "<id>build-repository</id><mirrorOf>*</mirrorOf><url>"
                        + Paths.get(System.getProperty("sluice.test.local-repo"))
                                .toUri() + "</url></mirror></mirrors></settings>");
        Path log = tmp.resolve("build.log");
        Process build = new ProcessBuilder("mvn", "-B", "-s", settings.toString(), "package", "-DskipTests")
                .directory(project.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        assertThat(build.waitFor(10, TimeUnit.MINUTES))
                .as("the plugin build finishes")
                .isTrue();
        assertThat(build.exitValue()).as("the plugin build:\n%s", tail(log)).isZero();

        Path zip = project.resolve("target/shout-format-1.0.0-plugin.zip");
        assertThat(zip).exists();
        Path plugins = tmp.resolve("plugins");
        TestDistribution.copyTree(TestDistribution.pluginsDir(), plugins);
        unzip(zip, plugins.resolve("shout"));
        assertThat(Files.readString(plugins.resolve("shout/plugin.properties")))
                .contains("plugin.id=shout")
                .contains("plugin.requires=^");
        assertThat(plugins.resolve("shout/lib/shout-format-1.0.0.jar")).exists();

        Path out = tmp.resolve("out");
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        tEnv.executeSql("CREATE TABLE t (word STRING) WITH ('connector' = 'sluice', 'target' = 'filesystem', "
                + "'path' = '" + out + "', 'format' = 'shout', 'sluice.plugins.dir' = '" + plugins + "')");
        tEnv.executeSql("INSERT INTO t VALUES ('sluice'), ('plugins'), ('über')")
                .await();
        assertThat(CommittedFiles.lines(out)).containsExactlyInAnyOrder("SLUICE", "PLUGINS", "ÜBER");
    }

    /** Puts a pom (and jar) where a Maven repository has them: io/sluice/<artifact>/<version>/. */
    private static void publish(Path repo, String artifact, Path pom, Path jar) throws IOException {
        String version = System.getProperty("sluice.test.version");
        Path dir = repo.resolve("io/sluice/" + artifact + "/" + version);
        Files.createDirectories(dir);
        Files.copy(pom, dir.resolve(artifact + "-" + version + ".pom"), StandardCopyOption.REPLACE_EXISTING);
        if (jar != null) {
            assertThat(jar).as("the reactor's %s jar", artifact).exists();
            Files.copy(jar, dir.resolve(artifact + "-" + version + ".jar"), StandardCopyOption.REPLACE_EXISTING);
        }
    }

    private static void copyProject(Path project, String version) throws Exception {
        Path template = Paths.get(ExternalPluginBuildIT.class
                        .getResource("/external-plugin/pom.xml")
                        .toURI())
                .getParent();
        TestDistribution.copyTree(template, project);
        Path pom = project.resolve("pom.xml");
        Files.writeString(pom, Files.readString(pom).replace("@sluice.version@", version));
    }

    private static void unzip(Path zip, Path to) throws IOException {
        try (ZipInputStream in = new ZipInputStream(Files.newInputStream(zip))) {
            for (ZipEntry e; (e = in.getNextEntry()) != null; ) {
                Path target = to.resolve(e.getName()).normalize();
                assertThat(target.startsWith(to))
                        .as("zip entry %s", e.getName())
                        .isTrue();
                if (e.isDirectory()) {
                    Files.createDirectories(target);
                } else {
                    Files.createDirectories(target.getParent());
                    Files.copy((InputStream) in, target, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }

    private static String tail(Path log) throws IOException {
        try (Stream<String> lines = Files.lines(log, StandardCharsets.UTF_8)) {
            List<String> all = lines.collect(Collectors.toList());
            return String.join("\n", all.subList(Math.max(0, all.size() - 60), all.size()));
        }
    }
}

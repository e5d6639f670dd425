package io.sluice.it;

import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Tag;
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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A third party builds a plugin outside Sluice's tree, from the pom docs/writing-a-plugin.md shows (it inherits
 * {@code sluice-plugin-parent}, has a version of its own and runs the testkit's format checks),
 * with nothing but Sluice's published artifacts (the parent poms, the SPI, the testkit and what the
 * testkit needs, copied into a fresh local repository as a Maven repository would serve them) and
 * the libraries any Maven build has; the kit's tests run, and the zip it gets loads from a plugins
 * directory and its format writes a table in a job.
 */
@Tag("both-lines")
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
        // the kit's runtime and its shim are those of this build's Flink line; the plugin's build
        // picks the same line from the published parent (-Dflink2 on 2.x, as for Sluice's own build)
        boolean flink2 = !TestDistribution.flinkLine().startsWith("1.");
        for (String module : List.of("testkit", "runtime", flink2 ? "flink2-shim" : "flink1-shim")) {
            publish(
                    repo,
                    "sluice-" + module,
                    reactor.resolve("framework/" + module + "/pom.xml"),
                    reactor.resolve("framework/" + module + "/target/sluice-" + module + "-" + version + ".jar"));
        }

        Path project = tmp.resolve("shout-format");
        copyProject(project, reactor.resolve("docs").resolve("writing-a-plugin.md"), version);
        Path settings = tmp.resolve("settings.xml");
        // every other artifact from the build's own local repository, served as a remote one: no network
        Files.writeString(
                settings,
                "<settings><localRepository>" + repo + "</localRepository><mirrors><mirror>"
                        + "<id>build-repository</id><mirrorOf>*</mirrorOf><url>"
                        + Paths.get(System.getProperty("sluice.test.local-repo"))
                                .toUri() + "</url></mirror></mirrors></settings>");
        Path log = tmp.resolve("build.log");
        List<String> command = new ArrayList<>(List.of("mvn", "-B", "-s", settings.toString(), "package"));
        if (flink2) {
            command.add("-Dflink2");
        }
        Process build = new ProcessBuilder(command)
                .directory(project.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        assertThat(build.waitFor(10, TimeUnit.MINUTES))
                .as("the plugin build finishes")
                .isTrue();
        assertThat(build.exitValue()).as("the plugin build:\n%s", tail(log)).isZero();

        // the kit's checks ran in the plugin's own build, against Sluice's runtime, not one of the plugin's version
        assertThat(Files.readString(
                        project.resolve("target/surefire-reports/TEST-com.acme.shout.ShoutFormatConformanceTest.xml")))
                .contains("tests=\"")
                .doesNotContain("tests=\"0\"")
                .contains("failures=\"0\"")
                .contains("errors=\"0\"");
        Path zip = project.resolve("target/shout-format-3.4.5-plugin.zip");
        assertThat(zip).exists();
        Path plugins = tmp.resolve("plugins");
        TestDistribution.copyTree(TestDistribution.pluginsDir(), plugins);
        unzip(zip, plugins.resolve("shout"));
        assertThat(Files.readString(plugins.resolve("shout/plugin.properties")))
                .contains("plugin.id=shout")
                .contains("plugin.version=3.4.5")
                .contains("plugin.requires=^")
                .endsWith("\n");
        assertThat(plugins.resolve("shout/lib/shout-format-3.4.5.jar")).exists();
        try (Stream<Path> lib = Files.list(plugins.resolve("shout/lib"))) {
            assertThat(lib.map(p -> p.getFileName().toString()))
                    .as("test-scoped kit and runtime stay out of the zip")
                    .containsExactly("shout-format-3.4.5.jar");
        }

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

    /**
     * The project's sources from the test resources and its pom from docs/writing-a-plugin.md, the
     * first xml block of the page that inherits the plugin parent, so the documented pom is the one
     * that is built; only the parent's version becomes this build's.
     */
    private static void copyProject(Path project, Path page, String version) throws Exception {
        Path template = Paths.get(
                ExternalPluginBuildIT.class.getResource("/external-plugin").toURI());
        TestDistribution.copyTree(template, project);
        String text = Files.readString(page);
        Matcher block = Pattern.compile("```xml\n(<project>.*?</project>\n)```", Pattern.DOTALL)
                .matcher(text);
        String pom = null;
        for (int from = 0; block.find(from); from = block.end()) {
            if (block.group(1).contains("<artifactId>sluice-plugin-parent</artifactId>")) {
                pom = block.group(1);
                break;
            }
        }
        assertThat(pom).as("the documented pom of a third party's plugin").isNotNull();
        assertThat(pom.lines().count()).as("the documented pom stays short").isLessThanOrEqualTo(16);
        Files.writeString(
                project.resolve("pom.xml"),
                pom.replaceFirst(
                        "(<artifactId>sluice-plugin-parent</artifactId><version>)[^<]+(</version>)",
                        "$1" + Matcher.quoteReplacement(version) + "$2"));
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

package io.sluice.plugin.hive;

import io.sluice.testservers.hive.StandaloneMetastore;

import org.junit.jupiter.api.Test;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The test metastore server ({@link StandaloneMetastore}, whose class path the test-servers module
 * {@code sluice-test-servers-hive-metastore} resolves on its own) runs on this plugin's libraries:
 * the same jars in the same order (hive-exec's bundle overlaps the jars after it), so a version
 * changed in one pom and not in the other fails here rather than in a remote-metastore IT.
 */
class MetastoreServerClassPathTest {

    @Test
    void theServerRunsOnThePluginsOwnLibraries() throws IOException {
        List<String> plugin = jarNames(MetastoreServerClassPathTest.class, "plugin-libraries.classpath");
        List<String> server = jarNames(StandaloneMetastore.class, StandaloneMetastore.CLASSPATH_RESOURCE);

        assertThat(plugin).contains("hive-exec-3.1.3.jar", "datanucleus-core-4.1.17.jar");
        assertThat(server).containsExactlyElementsOf(plugin);
    }

    private static List<String> jarNames(Class<?> next, String resource) throws IOException {
        try (InputStream in = next.getResourceAsStream(resource)) {
            assertThat(in)
                    .as("resource %s next to %s", resource, next.getName())
                    .isNotNull();
            String path = new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
            return Arrays.stream(path.split(File.pathSeparator))
                    .map(jar -> Paths.get(jar).getFileName().toString())
                    .collect(Collectors.toList());
        }
    }
}

package io.sluice.it;

import io.sluice.runtime.config.SluiceOptions;
import io.sluice.runtime.plugin.PluginRegistry;
import io.sluice.runtime.plugin.PluginSettings;
import io.sluice.spi.SluiceFactory;
import io.sluice.spi.catalog.TargetCatalogFactory;
import io.sluice.spi.compact.FileCompactorFactory;
import io.sluice.spi.format.FormatFactory;
import io.sluice.spi.partition.CommitPolicyFactory;
import io.sluice.spi.partition.PartitionTimeExtractorFactory;
import io.sluice.spi.sink.BucketAssignerFactory;
import io.sluice.spi.sink.RollingPolicyFactory;
import io.sluice.spi.sink.TargetFactory;
import io.sluice.spi.source.FileEnumeratorFactory;
import io.sluice.spi.source.ScanSourceFactory;
import io.sluice.testservers.readme.ReadmeJavaExamples;

import org.apache.flink.configuration.ConfigOption;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The documentation is part of what ships: the README stays short, every page links only to files
 * of the repository (and to headings that exist), and every option a plugin of the distribution
 * declares is on its plugin's page, every framework option on the SQL page. A new option without a
 * line in the docs fails here, naming the option and the page.
 */
@Tag("both-lines")
class DocumentationIT {

    private static final Pattern LINK = Pattern.compile("\\[[^\\]]*\\]\\(([^)\\s]+)\\)");
    private static final Pattern HEADING = Pattern.compile("^#{1,6} (.*)$");

    /** The page that documents each plugin's options. */
    private static final Map<String, String> PAGE_OF_PLUGIN = Map.of(
            "filesystem", "docs/filesystem.md",
            "formats", "docs/formats.md",
            "iceberg", "docs/iceberg.md",
            "hive", "docs/hive.md");

    private static final List<Class<? extends SluiceFactory>> FACTORY_TYPES = List.of(
            TargetFactory.class,
            TargetCatalogFactory.class,
            FormatFactory.class,
            ScanSourceFactory.class,
            FileEnumeratorFactory.class,
            FileCompactorFactory.class,
            BucketAssignerFactory.class,
            RollingPolicyFactory.class,
            CommitPolicyFactory.class,
            PartitionTimeExtractorFactory.class);

    private final Path root = Paths.get(System.getProperty(ReadmeJavaExamples.REACTOR))
            .toAbsolutePath()
            .normalize();

    @Test
    void theReadmeIsWhatANewcomerNeedsFirst() throws IOException {
        List<String> readme = Files.readAllLines(root.resolve("README.md"));
        assertThat(readme.size()).as("lines of README.md").isLessThan(150);
        assertThat(String.join("\n", readme))
                .as("the README's two commands, on Flink 1.20 and on 2.1")
                .contains("mvn -B -q install -DskipTests && distribution/target/sluice-")
                .contains("mvn -B verify\n")
                .contains("mvn -B -q verify -DskipTests -Dflink2 && distribution/target/sluice-")
                .contains("mvn -B verify -Dflink2\n");
        // the staged distribution of this build's line is the one its command runs
        assertThat(String.join("\n", readme))
                .as("the README's quickstart command of Flink " + TestDistribution.flinkLine())
                .contains("distribution/target/" + TestDistribution.home().getFileName() + "/bin/sluice sql -f ");
    }

    @Test
    void everyPageLinksOnlyToFilesAndHeadingsOfTheRepository() throws IOException {
        List<Path> pages = new ArrayList<>(ReadmeJavaExamples.pages(root));
        pages.add(root.resolve("ARCHITECTURE.md"));
        List<String> broken = new ArrayList<>();
        for (Path page : pages) {
            for (String target : links(page)) {
                if (target.startsWith("http:") || target.startsWith("https:") || target.startsWith("mailto:")) {
                    broken.add(root.relativize(page) + ": a link outside the repository: " + target);
                    continue;
                }
                String file = target.contains("#") ? target.substring(0, target.indexOf('#')) : target;
                String anchor = target.contains("#") ? target.substring(target.indexOf('#') + 1) : null;
                Path linked =
                        file.isEmpty() ? page : page.getParent().resolve(file).normalize();
                if (!linked.startsWith(root) || !Files.exists(linked)) {
                    broken.add(root.relativize(page) + ": no file " + target);
                } else if (anchor != null
                        && linked.toString().endsWith(".md")
                        && !anchors(linked).contains(anchor)) {
                    broken.add(root.relativize(page) + ": no heading #" + anchor + " in " + root.relativize(linked));
                }
            }
        }
        assertThat(broken).as("broken links").isEmpty();
    }

    @Test
    void everyOptionOfEveryPluginIsOnItsPage() throws IOException {
        PluginRegistry registry = PluginRegistry.get(PluginSettings.of(TestDistribution.pluginsDir()));
        List<String> missing = new ArrayList<>();
        int checked = 0;
        for (Class<? extends SluiceFactory> type : FACTORY_TYPES) {
            for (String identifier : registry.identifiers(type)) {
                String plugin = registry.pluginOf(type, identifier);
                String page = PAGE_OF_PLUGIN.get(plugin);
                if (page == null) {
                    missing.add("plugin " + plugin + " has no page");
                    continue;
                }
                String text = Files.readString(root.resolve(page));
                SluiceFactory factory = registry.find(type, identifier);
                Set<ConfigOption<?>> options = new HashSet<>(factory.requiredOptions());
                options.addAll(factory.optionalOptions());
                for (ConfigOption<?> option : options) {
                    checked++;
                    if (!documents(text, option.key(), type == FormatFactory.class ? identifier : null)) {
                        missing.add(page + " misses option '" + option.key() + "' of " + type.getSimpleName() + " '"
                                + identifier + "' (plugin " + plugin + ")");
                    }
                }
            }
        }
        String sql = Files.readString(root.resolve("docs/sql.md"));
        for (ConfigOption<?> option : SluiceOptions.all()) {
            checked++;
            if (!documents(sql, option.key(), null)) {
                missing.add("docs/sql.md misses the framework's option '" + option.key() + "'");
            }
        }
        assertThat(checked).as("options checked").isGreaterThan(100);
        assertThat(new TreeSet<>(missing))
                .as("options the documentation misses")
                .isEmpty();
    }

    /** The key in backticks (quoted or not), as the option tables have it; a format's also with its prefix. */
    private static boolean documents(String page, String key, String format) {
        List<String> keys = format == null ? List.of(key) : List.of(key, format + "." + key);
        return keys.stream().anyMatch(k -> page.contains("`" + k + "`") || page.contains("`'" + k + "'"));
    }

    private static List<String> links(Path page) throws IOException {
        List<String> links = new ArrayList<>();
        boolean fenced = false;
        for (String line : Files.readAllLines(page)) {
            if (line.startsWith("```")) {
                fenced = !fenced;
                continue;
            }
            if (fenced) {
                continue;
            }
            Matcher m = LINK.matcher(line);
            while (m.find()) {
                links.add(m.group(1));
            }
        }
        return links;
    }

    /** The anchors of a page's headings, made as GitHub makes them. */
    private static Set<String> anchors(Path page) throws IOException {
        Set<String> anchors = new HashSet<>();
        boolean fenced = false;
        for (String line : Files.readAllLines(page)) {
            if (line.startsWith("```")) {
                fenced = !fenced;
                continue;
            }
            Matcher m = HEADING.matcher(line);
            if (!fenced && m.matches()) {
                anchors.add(m.group(1)
                        .trim()
                        .toLowerCase(Locale.ROOT)
                        .replaceAll("[^\\p{L}\\p{N}_\\- ]", "")
                        .replace(' ', '-'));
            }
        }
        return anchors;
    }
}

package io.sluice.it;

import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A directory table Sluice wrote on one Flink line takes Sluice's appends on the other (issue 33,
 * item 5). {@code src/test/resources/cross-line/<line>/filesystem/<format>} is a table partitioned
 * by {@code region}, in Parquet and in csv, with success files, written by Sluice on Flink {@code
 * <line>}: two STREAMING SQL jobs with checkpoints, rows 1-3 and 4-6, each row named after the line
 * (written by {@link #writeThisLinesTable}). The test copies the other line's table to a temporary
 * directory, appends rows 11-13 with a job on this line and reads the directory back without
 * Sluice (parquet-java, plain text): the other line's files are there byte for byte, next to this
 * line's, every row once, a success file in each partition, nothing in progress, nothing written
 * next to the table.
 *
 * <p>To write this line's tables again: {@code mvn verify -pl distribution
 * -Dit.test=CrossLineFileSystemTableIT#writeThisLinesTable* -Dsluice.cross-line.write=true} (with
 * {@code -Dflink2 -am} for Flink 2), then check the directories in.
 */
@Tag("both-lines")
class CrossLineFileSystemTableIT {

    static final String WRITE_PROPERTY = "sluice.cross-line.write";

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(2)
                    .build());

    @TempDir
    Path tmp;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"parquet", "csv"})
    void theOtherLinesTableTakesThisLinesAppend(String format) throws Exception {
        Path table = tmp.resolve("t");
        Path checkedIn = checkedInTable(otherLine(), format);
        copyTree(checkedIn, table);
        Map<String, byte[]> before = files(table);
        assertThat(before.keySet())
                .as("the other line's table")
                .anyMatch(f -> f.startsWith("region=eu/") && !f.endsWith("_SUCCESS"))
                .anyMatch(f -> f.startsWith("region=us/") && !f.endsWith("_SUCCESS"));
        assertThat(rows(table, format)).containsExactlyInAnyOrderElementsOf(rows(otherLine(), 1, 6));

        TableEnvironment tEnv = streaming();
        tEnv.executeSql(sluiceTable(table, format));
        tEnv.executeSql("INSERT INTO t VALUES " + values(thisLine(), 11, 13)).await();

        List<String> expected = new ArrayList<>(rows(otherLine(), 1, 6));
        expected.addAll(rows(thisLine(), 11, 13));
        assertThat(rows(table, format)).containsExactlyInAnyOrderElementsOf(expected);
        Map<String, byte[]> after = files(table);
        before.forEach((name, bytes) -> {
            if (!name.endsWith("_SUCCESS")) {
                assertThat(after.get(name)).as("%s of the other line", name).isEqualTo(bytes);
            }
        });
        assertThat(CommittedFiles.visible(table))
                .hasSizeGreaterThan(CommittedFiles.visible(checkedIn).size());
        assertThat(CommittedFiles.named(table, "_SUCCESS"))
                .extracting(p -> table.relativize(p).toString())
                .containsExactlyInAnyOrder("region=eu/_SUCCESS", "region=us/_SUCCESS");
        assertThat(CommittedFiles.inProgress(table)).isEmpty();
        try (Stream<Path> siblings = Files.list(tmp)) {
            assertThat(siblings.map(p -> p.getFileName().toString()))
                    .as("nothing written next to the table's path")
                    .containsExactly("t");
        }
    }

    /**
     * Writes this line's tables into {@code src/test/resources/cross-line/<line>/filesystem/<format>}
     * (replacing what is there), with {@code -Dsluice.cross-line.write=true}.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"parquet", "csv"})
    @EnabledIfSystemProperty(named = WRITE_PROPERTY, matches = "true")
    void writeThisLinesTable(String format) throws Exception {
        Path table = tmp.resolve("t");
        TableEnvironment tEnv = streaming();
        tEnv.executeSql(sluiceTable(table, format));
        tEnv.executeSql("INSERT INTO t VALUES " + values(thisLine(), 1, 3)).await();
        tEnv.executeSql("INSERT INTO t VALUES " + values(thisLine(), 4, 6)).await();
        assertThat(rows(table, format)).containsExactlyInAnyOrderElementsOf(rows(thisLine(), 1, 6));
        assertThat(CommittedFiles.inProgress(table)).isEmpty();

        Path to = Paths.get("src", "test", "resources", "cross-line", thisLine(), "filesystem", format);
        deleteTree(to);
        copyTree(table, to);
    }

    /** The line this build runs on: 1.20 or 2.1. */
    static String thisLine() {
        return TestDistribution.flinkLine();
    }

    static String otherLine() {
        return thisLine().equals("1.20") ? "2.1" : "1.20";
    }

    private static Path checkedInTable(String line, String format) throws URISyntaxException {
        String resource = "cross-line/" + line + "/filesystem/" + format;
        URL url = CrossLineFileSystemTableIT.class.getClassLoader().getResource(resource);
        if (url == null) {
            throw new IllegalStateException("No table written on Flink " + line + " at " + resource + ": run "
                    + "writeThisLinesTable on that line with -D" + WRITE_PROPERTY + "=true");
        }
        return Paths.get(url.toURI());
    }

    private static TableEnvironment streaming() {
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        tEnv.getConfig().set("parallelism.default", "2");
        // exactly-once with checkpoints; the rows are few, the end of input commits them
        tEnv.getConfig().set("execution.checkpointing.interval", "1 s");
        return tEnv;
    }

    private static String sluiceTable(Path table, String format) {
        return "CREATE TABLE t (id BIGINT, name STRING, region STRING) PARTITIONED BY (region) WITH ("
                + "'connector' = 'sluice', 'target' = 'filesystem', "
                + "'sluice.plugins.dir' = '" + TestDistribution.pluginsDir() + "', "
                + "'path' = '" + table + "', 'format' = '" + format + "', "
                + "'sink.partition-commit.policy.kind' = 'success-file')";
    }

    /** The rows under {@code table} as {@code id|name|region}, read without Sluice. */
    private static List<String> rows(Path table, String format) {
        List<String> rows = new ArrayList<>();
        for (Path file : CommittedFiles.visible(table)) {
            String region = file.getParent().getFileName().toString().substring("region=".length());
            if (format.equals("parquet")) {
                rows.addAll(CommittedFiles.parquetFile(
                        file, g -> g.getLong("id", 0) + "|" + g.getString("name", 0) + "|" + region));
            } else {
                try {
                    for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                        String[] fields = line.split(",", -1);
                        assertThat(fields).as("%s: %s", file, line).hasSize(2);
                        rows.add(fields[0] + "|" + unquoted(fields[1]) + "|" + region);
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }
        return rows;
    }

    /** A csv field without the quotes Flink's csv format puts around text with spaces. */
    private static String unquoted(String field) {
        return field.length() >= 2 && field.startsWith("\"") && field.endsWith("\"")
                ? field.substring(1, field.length() - 1)
                : field;
    }

    /** Rows {@code from..to} as written on {@code line}: {@code id|written on <line>|eu or us}. */
    private static List<String> rows(String line, int from, int to) {
        return IntStream.rangeClosed(from, to)
                .mapToObj(i -> i + "|written on " + line + "|" + region(i))
                .collect(Collectors.toList());
    }

    private static String values(String line, int from, int to) {
        return IntStream.rangeClosed(from, to)
                .mapToObj(i -> "(" + i + ", 'written on " + line + "', '" + region(i) + "')")
                .collect(Collectors.joining(", "));
    }

    private static String region(int i) {
        return i % 2 == 0 ? "us" : "eu";
    }

    /** Every file under {@code root} by its relative path, with its bytes. */
    private static Map<String, byte[]> files(Path root) throws IOException {
        Map<String, byte[]> files = new TreeMap<>();
        try (Stream<Path> all = Files.walk(root)) {
            for (Path f : (Iterable<Path>) all.filter(Files::isRegularFile)::iterator) {
                files.put(root.relativize(f).toString(), Files.readAllBytes(f));
            }
        }
        return files;
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> all = Files.walk(from)) {
            for (Path f : (Iterable<Path>) all.filter(Files::isRegularFile)::iterator) {
                Path target = to.resolve(from.relativize(f).toString());
                Files.createDirectories(target.getParent());
                Files.copy(f, target);
            }
        }
    }

    private static void deleteTree(Path root) throws IOException {
        if (Files.exists(root)) {
            try (Stream<Path> all = Files.walk(root)) {
                for (Path p : (Iterable<Path>) all.sorted(Comparator.reverseOrder())::iterator) {
                    Files.delete(p);
                }
            }
        }
    }
}

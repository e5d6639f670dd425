package io.sluice.plugin.filesystem;

import io.sluice.partfiles.PartFileNames;
import io.sluice.spi.PathNames;
import io.sluice.spi.sink.CommitRequest;
import io.sluice.spi.sink.TargetCommitter;
import io.sluice.spi.sink.TargetWriter;
import io.sluice.testkit.TestSinkContext;

import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

import static io.sluice.partfiles.testing.PartFileTesting.at;
import static io.sluice.partfiles.testing.PartFileTesting.files;
import static io.sluice.partfiles.testing.PartFileTesting.request;
import static io.sluice.partfiles.testing.PartFileTesting.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Name by name: the options of the filesystem target that become part of a path are checked by
 * {@code validate} (the client, before a job starts), and the committer refuses to touch a file
 * outside the table's base path whatever it is handed.
 *
 * <p>Decisions: a part file prefix must not start with {@code .} or {@code _} (its files would be
 * hidden from every reader), may be empty (names start with {@code -}, as Flink's FileSink allows);
 * a suffix may be anything inside one name ({@code .csv}, {@code ..}); a success file may be
 * hidden ({@code _SUCCESS}, {@code .done}) or not; partition columns must not start with {@code _}
 * or {@code .}; their values may be anything (they are escaped).
 */
class PathOptionsTest {

    @TempDir
    Path tmp;

    private final FileSystemTargetFactory target = new FileSystemTargetFactory();

    private TestSinkContext.Builder context() {
        return FileSystemSinks.of(tmp.resolve("t"), "lines");
    }

    private void assertRejected(TestSinkContext ctx, String option, String value) {
        assertThatThrownBy(() -> target.validate(ctx))
                .as("'%s' = '%s'", option, value)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'" + option + "'")
                .hasMessageContaining("'" + PathNames.escape(value) + "'");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "..",
                "../x",
                "../../orders/x",
                "a/b",
                "/abs",
                "\\",
                "a\\b",
                ":",
                "a:b",
                "nul\u0000",
                "bell\u0007",
                "new\nline",
                ".",
                ".hidden",
                "_tmp"
            })
    void rejectedPrefixes(String prefix) {
        assertRejected(context().option("sink.part-file.prefix", prefix).build(), "sink.part-file.prefix", prefix);
    }

    @ParameterizedTest
    @ValueSource(strings = {"/../x", "a/b", "/", "\\", ":", ".c:sv", "nul\u0000", "\t"})
    void rejectedSuffixes(String suffix) {
        assertRejected(context().option("sink.part-file.suffix", suffix).build(), "sink.part-file.suffix", suffix);
    }

    @Test
    void prefixAndSuffixMustLeaveRoomForTheInProgressName() {
        int room = PathNames.MAX_NAME_BYTES - PartFileNames.DECORATION_BYTES;
        assertThatCode(() -> target.validate(context()
                        .option("sink.part-file.prefix", "p".repeat(room))
                        .build()))
                .doesNotThrowAnyException();
        String tooLong = "p".repeat(room + 1);
        assertRejected(context().option("sink.part-file.prefix", tooLong).build(), "sink.part-file.prefix", tooLong);
        assertRejected(
                context()
                        .option("sink.part-file.prefix", "p")
                        .option("sink.part-file.suffix", "ü".repeat(room / 2))
                        .build(),
                "sink.part-file.suffix",
                "ü".repeat(room / 2));
        assertThatThrownBy(() -> target.validate(context()
                        .option("sink.part-file.prefix", "x".repeat(300))
                        .build()))
                .hasMessageContaining(room + " bytes");
    }

    @ParameterizedTest
    @ValueSource(strings = {"part", "my-prefix", "", "ü日本", "a b", "50%", "a=b", "p.q", "-"})
    void acceptedPrefixes(String prefix) {
        assertThatCode(() -> target.validate(context()
                        .option("sink.part-file.prefix", prefix)
                        .option("sink.part-file.suffix", ".csv")
                        .build()))
                .doesNotThrowAnyException();
    }

    @ParameterizedTest
    @ValueSource(strings = {"part", "", "a b", "ü", "-", "p.q"})
    void namesOfTwoWritersAreDistinctFilesInTheBucketWhateverTheAcceptedPrefixAndSuffix(String prefix)
            throws Exception {
        for (String suffix : new String[] {"", ".csv", "..", "."}) {
            Path base = tmp.resolve("w");
            TestSinkContext ctx = context()
                    .option("path", base.toString())
                    .option("sink.part-file.prefix", prefix)
                    .option("sink.part-file.suffix", suffix)
                    .option("sink.rolling-policy.kind", "on-checkpoint")
                    .build();
            target.validate(ctx);
            try (TargetWriter first = target.createWriter(ctx, Collections.emptyList());
                    TargetWriter second = target.createWriter(ctx.forSubtask(1, 2), Collections.emptyList());
                    TargetCommitter committer = target.createCommitter(ctx)) {
                first.write(row("one"), at(0));
                second.write(row("two"), at(0));
                java.util.List<io.sluice.spi.sink.PendingCommit> pending =
                        new java.util.ArrayList<>(first.prepareCommit(true));
                pending.addAll(second.prepareCommit(true));
                committer.commit(request(1, pending));
            }
            // both rows, in two files directly in the base path (no file elsewhere under tmp)
            Map<String, String> files = files(tmp);
            assertThat(files)
                    .as("prefix '%s', suffix '%s'", prefix, suffix)
                    .hasSize(2)
                    .allSatisfy((name, content) -> assertThat(name)
                            .matches("w/[^/]+")
                            .startsWith("w/" + prefix)
                            .endsWith(suffix));
            assertThat(files.values()).containsExactlyInAnyOrder("one\n", "two\n");
            org.apache.flink.util.FileUtils.deleteDirectory(base.toFile());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"", ".csv", ".", "..", "-x", ".tar.gz"})
    void acceptedSuffixes(String suffix) {
        assertThatCode(() -> target.validate(
                        context().option("sink.part-file.suffix", suffix).build()))
                .doesNotThrowAnyException();
    }

    @ParameterizedTest
    @ValueSource(strings = {"/tmp/t/../orders", "file:///tmp/./t", "../t"})
    void rejectedPaths(String path) {
        assertRejected(context().option("path", path).build(), "path", path);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "'..'",
                "'../'yyyy",
                "yyyy'/../'MM",
                "'/'yyyy",
                "yyyy'/'",
                "yyyy'//'MM",
                "HH:mm",
                "'_'yyyy",
                "'.'yyyy",
                "yyyy'\\'MM"
            })
    void rejectedDateTimeFormats(String pattern) {
        assertRejected(
                context()
                        .option("sink.bucket-assigner", "date-time")
                        .option("sink.bucket-assigner.date-time.format", pattern)
                        .build(),
                "sink.bucket-assigner.date-time.format",
                pattern);
    }

    @ParameterizedTest
    @ValueSource(strings = {"yyyy-MM-dd--HH", "yyyy/MM/dd", "'year='yyyy/'month='MM", "yyyy.MM.dd"})
    void acceptedDateTimeFormats(String pattern) {
        assertThatCode(() -> target.validate(context()
                        .option("sink.bucket-assigner", "date-time")
                        .option("sink.bucket-assigner.date-time.format", pattern)
                        .build()))
                .doesNotThrowAnyException();
    }

    @ParameterizedTest
    @ValueSource(strings = {"..", "../x", "a/b", "\\", "a\\b", ":", "a:b", "", "nul\u0000", "esc\u001B", "."})
    void rejectedSuccessFileNames(String name) {
        TestSinkContext ctx = context()
                .option("sink.partition-commit.success-file.name", name)
                .build();
        assertThatThrownBy(() -> new SuccessFileCommitPolicyFactory().create(ctx))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'sink.partition-commit.success-file.name'")
                .hasMessageContaining("'" + PathNames.escape(name) + "'");
    }

    @Test
    void successFileNamesOver255BytesAreRejected() {
        String name = "_" + "ü".repeat(128);
        TestSinkContext ctx = context()
                .option("sink.partition-commit.success-file.name", name)
                .build();
        assertThatThrownBy(() -> new SuccessFileCommitPolicyFactory().create(ctx))
                .hasMessageContaining("'sink.partition-commit.success-file.name' '" + name + "'")
                .hasMessageContaining("257 bytes");
    }

    @ParameterizedTest
    @ValueSource(strings = {"_SUCCESS", ".done", "DONE", "_started.marker", "ü"})
    void acceptedSuccessFileNames(String name) {
        assertThatCode(() -> new SuccessFileCommitPolicyFactory()
                        .create(context()
                                .option("sink.partition-commit.success-file.name", name)
                                .build()))
                .doesNotThrowAnyException();
    }

    @Test
    void partitionColumnsThatReadersWouldHideAreRejected() {
        for (String key : new String[] {"_dt", ".dt", "__x"}) {
            TestSinkContext ctx =
                    context().rowType(rowOf(key)).partitionKeys(key).build();
            assertThatThrownBy(() -> target.validate(ctx))
                    .as(key)
                    .hasMessageContaining("Partition column '" + key + "'")
                    .hasMessageContaining("hidden");
        }
        String longKey = "k".repeat(250);
        assertThatThrownBy(() -> target.validate(
                        context().rowType(rowOf(longKey)).partitionKeys(longKey).build()))
                .hasMessageContaining("Partition column '" + longKey + "'")
                .hasMessageContaining("bytes");
        assertRejected(
                context()
                        .partitionKeys("line")
                        .option("partition.default-name", "")
                        .build(),
                "partition.default-name",
                "");
    }

    @Test
    void partitionColumnsWithOtherNamesAreAccepted() {
        for (String key : new String[] {"d_t", "a=b", "x/y", "..", "ü"}) {
            assertThatCode(() -> target.validate(
                            context().rowType(rowOf(key)).partitionKeys(key).build()))
                    .as(key)
                    .doesNotThrowAnyException();
        }
    }

    @Test
    void anOverwriteOfFilesOutsideTheTableDeletesAndPublishesNothing() throws Exception {
        // a neighbouring table with a committed file
        Path orders = tmp.resolve("orders");
        Files.createDirectories(orders);
        Files.write(orders.resolve("part-0"), "order\n".getBytes(StandardCharsets.UTF_8));
        Path table = tmp.resolve("t");
        Files.createDirectories(table);
        Files.write(table.resolve("part-1"), "row\n".getBytes(StandardCharsets.UTF_8));
        Map<String, String> before = files(tmp);

        // a writer of the neighbour hands its files to the committer of 't' (what a bad prefix did)
        TestSinkContext writes = FileSystemSinks.of(orders, "lines").build();
        TestSinkContext commits =
                FileSystemSinks.of(table, "lines").overwrite(true).build();
        try (TargetWriter writer = target.createWriter(writes, Collections.emptyList());
                TargetCommitter committer = target.createCommitter(commits)) {
            writer.write(row("new"), at(0));
            CommitRequest request = request(1, writer.prepareCommit(true));
            assertThatThrownBy(() -> committer.commit(request))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining(orders.toString())
                    .hasMessageContaining("not under the table's 'path'");
        }
        assertThat(visibleFiles(tmp)).isEqualTo(visible(before));
    }

    private static RowType rowOf(String partitionColumn) {
        return RowType.of(
                new LogicalType[] {new VarCharType(VarCharType.MAX_LENGTH), new VarCharType(VarCharType.MAX_LENGTH)},
                new String[] {"line", partitionColumn});
    }

    private static Map<String, String> visible(Map<String, String> files) {
        Map<String, String> v = new TreeMap<>();
        files.forEach((k, val) -> {
            if (!k.contains("/.") && !k.startsWith(".")) {
                v.put(k, val);
            }
        });
        return v;
    }

    private static Map<String, String> visibleFiles(Path root) throws IOException {
        return visible(files(root));
    }
}

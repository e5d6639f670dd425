package io.sluice.plugin.filesystem;

import io.sluice.partfiles.testing.LinesFormatFactory;
import io.sluice.spi.partition.PartitionPaths;
import io.sluice.spi.sink.PendingCommit;
import io.sluice.spi.sink.TargetCommitter;
import io.sluice.spi.sink.TargetWriter;
import io.sluice.testkit.TestSinkContext;

import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.DateType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimeType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static io.sluice.partfiles.testing.PartFileTesting.T0;
import static io.sluice.partfiles.testing.PartFileTesting.at;
import static io.sluice.partfiles.testing.PartFileTesting.commit;
import static io.sluice.partfiles.testing.PartFileTesting.hidden;
import static io.sluice.partfiles.testing.PartFileTesting.parent;
import static io.sluice.partfiles.testing.PartFileTesting.row;
import static io.sluice.partfiles.testing.PartFileTesting.visible;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Proves which directory each row lands in for the date-time, base-path and partition assigners, and that bad assigner options are rejected by name. */
class BucketAssignerTest {

    private static final long HOUR = 3_600_000L;

    @TempDir
    Path tmp;

    private final FileSystemTargetFactory target = new FileSystemTargetFactory();

    // ---------------------------------------------------------------- date-time

    @Test
    void dateTimeDefaultsToHourlyBucketsInTheJvmTimeZone() throws Exception {
        Path base = tmp.resolve("out");
        TestSinkContext ctx = FileSystemSinks.of(base, "lines")
                .option("sink.bucket-assigner", "date-time")
                .build();
        Map<String, String> dirs = writeAndCommit(ctx, base, List.of(row("a"), row("b")), List.of(T0, T0 + HOUR));

        DateTimeFormatter hourly = DateTimeFormatter.ofPattern("yyyy-MM-dd--HH").withZone(ZoneId.systemDefault());
        assertThat(dirs)
                .containsExactlyInAnyOrderEntriesOf(Map.of(
                        hourly.format(Instant.ofEpochMilli(T0)), "a\n",
                        hourly.format(Instant.ofEpochMilli(T0 + HOUR)), "b\n"));
    }

    @Test
    void dateTimeInUtcNamesTheHourOfTheProcessingTime() throws Exception {
        Path base = tmp.resolve("out");
        TestSinkContext ctx = FileSystemSinks.of(base, "lines")
                .option("sink.bucket-assigner", "date-time")
                .option("sink.bucket-assigner.date-time.time-zone", "UTC")
                .build();
        Map<String, String> dirs =
                writeAndCommit(ctx, base, List.of(row("a"), row("b"), row("c")), List.of(T0, T0 + 1000, T0 + HOUR));
        // T0 = 2024-03-05T07:08:09.010Z
        assertThat(dirs)
                .containsExactlyInAnyOrderEntriesOf(Map.of("2024-03-05--07", "a\nb\n", "2024-03-05--08", "c\n"));
    }

    @Test
    void dateTimeWithCustomFormatAndTimeZone() throws Exception {
        Path base = tmp.resolve("out");
        TestSinkContext ctx = FileSystemSinks.of(base, "lines")
                .option("sink.bucket-assigner", "date-time")
                .option("sink.bucket-assigner.date-time.format", "'dt='yyyyMMdd/'hour='HH")
                .option("sink.bucket-assigner.date-time.time-zone", "Asia/Seoul")
                .build();
        Map<String, String> dirs = writeAndCommit(ctx, base, List.of(row("a"), row("b")), List.of(T0, T0 + 17 * HOUR));
        // 07:08 UTC is 16:08 in Seoul; 17 hours later is 09:08 on the next day
        assertThat(dirs)
                .containsExactlyInAnyOrderEntriesOf(Map.of("dt=20240305/hour=16", "a\n", "dt=20240306/hour=09", "b\n"));
    }

    @Test
    void dateTimeRejectsABadTimeZoneNamingOptionAndValue() {
        TestSinkContext ctx = FileSystemSinks.of(tmp.resolve("out"), "lines")
                .option("sink.bucket-assigner", "date-time")
                .option("sink.bucket-assigner.date-time.time-zone", "Mars/Olympus_Mons")
                .build();
        assertThatThrownBy(() -> new DateTimeBucketAssignerFactory().create(ctx))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("sink.bucket-assigner.date-time.time-zone")
                .hasMessageContaining("Mars/Olympus_Mons");
        assertThatThrownBy(() -> target.validate(ctx))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("sink.bucket-assigner.date-time.time-zone");
    }

    @Test
    void dateTimeRejectsABadPatternNamingOptionAndValue() {
        for (String pattern : List.of("yyyy-MM-dd--HH{", "bbbb", "yyyy-MM-dd 'unterminated")) {
            TestSinkContext ctx = FileSystemSinks.of(tmp.resolve("out"), "lines")
                    .option("sink.bucket-assigner", "date-time")
                    .option("sink.bucket-assigner.date-time.format", pattern)
                    .build();
            assertThatThrownBy(() -> target.validate(ctx))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("sink.bucket-assigner.date-time.format")
                    .hasMessageContaining(pattern);
        }
    }

    // ---------------------------------------------------------------- base-path

    @Test
    void basePathPutsEveryFileDirectlyUnderThePath() throws Exception {
        Path base = tmp.resolve("out");
        TestSinkContext ctx = FileSystemSinks.of(base, "lines")
                .option("sink.bucket-assigner", "base-path")
                .build();
        try (TargetWriter writer = target.createWriter(ctx, Collections.emptyList());
                TargetCommitter committer = target.createCommitter(ctx)) {
            writer.write(row("a"), at(T0));
            writer.write(row("b"), at(T0 + 10 * HOUR));
            List<PendingCommit> pending = writer.prepareCommit(true);
            assertThat(pending)
                    .singleElement()
                    .extracting(PendingCommit::partition)
                    .isNull();
            commit(committer, 1, pending);
        }
        assertThat(visible(base).keySet())
                .singleElement()
                .asString()
                .doesNotContain("/")
                .startsWith("part-");
        assertThat(visible(base).values()).containsExactly("a\nb\n");
    }

    // ---------------------------------------------------------------- partition

    private static final RowType PARTITIONED = RowType.of(
            new LogicalType[] {
                new VarCharType(VarCharType.MAX_LENGTH), // s, partition key, deliberately first
                new VarCharType(VarCharType.MAX_LENGTH), // line, the only column in the files
                new DateType(),
                new TimestampType(3),
                new DecimalType(10, 2),
                new IntType()
            },
            new String[] {"s", "line", "d", "ts", "amount", "n"});

    private static RowData prow(String s, String line, LocalDate d, LocalDateTime ts, String amount, Integer n) {
        return GenericRowData.of(
                s == null ? null : StringData.fromString(s),
                StringData.fromString(line),
                d == null ? null : (int) d.toEpochDay(),
                ts == null ? null : TimestampData.fromLocalDateTime(ts),
                amount == null ? null : DecimalData.fromBigDecimal(new BigDecimal(amount), 10, 2),
                n);
    }

    @Test
    void partitionDirectoriesAreEscapedHiveStyleAndDecodeBackToTheValues() throws Exception {
        Path base = tmp.resolve("out");
        LinesFormatFactory lines = new LinesFormatFactory();
        TestSinkContext ctx = FileSystemSinks.of(base, "lines", lines)
                .rowType(PARTITIONED)
                .partitionKeys("d", "ts", "amount", "n", "s")
                .build(); // no sink.bucket-assigner: partition by default
        LocalDate day = LocalDate.of(2024, 1, 2);
        List<RowData> rows = List.of(
                prow("plain", "r1", day, LocalDateTime.of(2024, 1, 2, 3, 4, 5, 123_000_000), "12.5", 7),
                prow("a/b", "r2", day, LocalDateTime.of(2024, 1, 2, 3, 0), "-0.01", 0),
                prow("..", "r3", day, LocalDateTime.of(2024, 1, 2, 3, 4, 5), "100", -3),
                prow(".", "r4", day, LocalDateTime.of(2024, 1, 2, 3, 4, 5), "100", -3),
                prow("x=y%z", "r5", day, LocalDateTime.of(2024, 1, 2, 3, 4, 5), "100", -3),
                prow("../../evil", "r6", day, LocalDateTime.of(2024, 1, 2, 3, 4, 5), "100", -3),
                prow(null, "r7", null, null, null, null),
                prow("", "r8", null, null, null, null));

        Map<String, String> dirs;
        List<String> partitions = new ArrayList<>();
        try (TargetWriter writer = target.createWriter(ctx, Collections.emptyList());
                TargetCommitter committer = target.createCommitter(ctx)) {
            for (RowData r : rows) {
                writer.write(r, at(T0));
            }
            List<PendingCommit> pending = writer.prepareCommit(true);
            pending.forEach(p -> partitions.add(p.partition()));
            commit(committer, 1, pending);
        }
        dirs = byDirectory(base);

        String ts345 = "ts=2024-01-02 03%3A04%3A05/amount=100.00/n=-3/s=";
        String dflt =
                "d=__DEFAULT_PARTITION__/ts=__DEFAULT_PARTITION__/amount=__DEFAULT_PARTITION__/n=__DEFAULT_PARTITION__/s=__DEFAULT_PARTITION__";
        Map<String, String> expected = new TreeMap<>();
        expected.put("d=2024-01-02/ts=2024-01-02 03%3A04%3A05.123/amount=12.50/n=7/s=plain", "r1\n");
        expected.put("d=2024-01-02/ts=2024-01-02 03%3A00%3A00/amount=-0.01/n=0/s=a%2Fb", "r2\n");
        expected.put("d=2024-01-02/" + ts345 + "%2E%2E", "r3\n");
        expected.put("d=2024-01-02/" + ts345 + "%2E", "r4\n");
        expected.put("d=2024-01-02/" + ts345 + "x%3Dy%25z", "r5\n");
        expected.put("d=2024-01-02/" + ts345 + "..%2F..%2Fevil", "r6\n");
        expected.put(dflt, "r7\nr8\n"); // null and empty share the default partition
        assertThat(dirs).containsExactlyInAnyOrderEntriesOf(expected);
        assertThat(partitions).containsExactlyInAnyOrderElementsOf(expected.keySet());

        // decoding a directory gives back the values as SQL prints them
        assertThat(PartitionPaths.spec("d=2024-01-02/" + ts345 + "..%2F..%2Fevil"))
                .containsExactly(
                        Map.entry("d", "2024-01-02"),
                        Map.entry("ts", "2024-01-02 03:04:05"),
                        Map.entry("amount", "100.00"),
                        Map.entry("n", "-3"),
                        Map.entry("s", "../../evil"));
        assertThat(PartitionPaths.spec(expected.keySet().stream()
                        .filter(k -> k.endsWith("a%2Fb"))
                        .findFirst()
                        .get()))
                .containsEntry("ts", "2024-01-02 03:00:00")
                .containsEntry("s", "a/b");
        assertThat(PartitionPaths.spec(dflt).values()).containsOnly("__DEFAULT_PARTITION__");
        for (String dir : expected.keySet()) {
            assertThat(PartitionPaths.path(PartitionPaths.spec(dir))).isEqualTo(dir);
        }

        // nothing escaped the base path, and every directory level is one key=value
        try (Stream<Path> top = Files.list(tmp)) {
            assertThat(top.map(p -> p.getFileName().toString()).collect(Collectors.toList()))
                    .containsExactly("out");
        }
        for (String dir : dirs.keySet()) {
            assertThat(dir.split("/")).hasSize(5).allMatch(seg -> seg.indexOf('=') > 0);
            assertThat(base.resolve(dir).normalize()).startsWith(base);
        }
        // partition columns are not in the files: the format saw only 'line'
        assertThat(lines.lastRowType.getFieldNames()).containsExactly("line");
    }

    @Test
    void partitionValuesArePrintedAsSqlPrintsThem() {
        LocalDateTime onTheHour = LocalDateTime.of(2024, 1, 2, 3, 0);
        assertThat(PartitionBucketAssignerFactory.format(
                        TimestampData.fromLocalDateTime(onTheHour), new TimestampType(3)))
                .isEqualTo("2024-01-02 03:00:00");
        assertThat(PartitionBucketAssignerFactory.format(
                        TimestampData.fromLocalDateTime(onTheHour.withNano(5_000_000)), new LocalZonedTimestampType(3)))
                .isEqualTo("2024-01-02 03:00:00.005");
        assertThat(PartitionBucketAssignerFactory.format(3 * 3_600_000, new TimeType()))
                .isEqualTo("03:00:00");
        assertThat(PartitionBucketAssignerFactory.format(3 * 3_600_000 + 4_005, new TimeType()))
                .isEqualTo("03:00:04.005");
        assertThat(PartitionBucketAssignerFactory.format(
                        (int) LocalDate.of(1969, 12, 31).toEpochDay(), new DateType()))
                .isEqualTo("1969-12-31");
        assertThat(PartitionBucketAssignerFactory.format(
                        DecimalData.fromBigDecimal(new BigDecimal("1E+3"), 10, 2), new DecimalType(10, 2)))
                .isEqualTo("1000.00");
        assertThat(PartitionBucketAssignerFactory.format(null, new IntType())).isNull();
    }

    @Test
    void partitionDefaultNameIsConfigurableAndEscaped() throws Exception {
        Path base = tmp.resolve("out");
        LinesFormatFactory lines = new LinesFormatFactory();
        TestSinkContext ctx = FileSystemSinks.of(base, "lines", lines)
                .rowType(PARTITIONED)
                .partitionKeys("s")
                .option("sink.bucket-assigner", "partition")
                .option("partition.default-name", "no/value")
                .build();
        Map<String, String> dirs = writeAndCommit(
                ctx,
                base,
                List.of(
                        prow(null, "r1", null, null, null, null),
                        prow("", "r2", null, null, null, null),
                        prow("v", "r3", null, null, null, null)),
                List.of(T0, T0, T0));
        assertThat(dirs).containsExactlyInAnyOrderEntriesOf(Map.of("s=no%2Fvalue", "r1\nr2\n", "s=v", "r3\n"));
        assertThat(lines.lastRowType.getFieldNames()).containsExactly("line", "d", "ts", "amount", "n");
    }

    @Test
    void formatOptionsArePassedWithoutTheirPrefix() throws Exception {
        Path base = tmp.resolve("out");
        TestSinkContext ctx = FileSystemSinks.of(base, "lines")
                .option("lines.line-prefix", "> ")
                .build();
        Map<String, String> dirs = writeAndCommit(ctx, base, List.of(row("a")), List.of(T0));
        assertThat(dirs).containsExactly(Map.entry("", "> a\n"));
    }

    @Test
    void partitionAssignerWithoutPartitionKeysIsRejectedNamingOptionAndValue() {
        TestSinkContext ctx = FileSystemSinks.of(tmp.resolve("out"), "lines")
                .option("sink.bucket-assigner", "partition")
                .build();
        assertThatThrownBy(() -> target.validate(ctx))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("sink.bucket-assigner")
                .hasMessageContaining("partition");
    }

    @Test
    void partitionKeyThatIsNotAColumnIsRejected() {
        TestSinkContext ctx = FileSystemSinks.of(tmp.resolve("out"), "lines")
                .partitionKeys("nope")
                .build();
        assertThatThrownBy(() -> new PartitionBucketAssignerFactory().create(ctx))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("nope");
    }

    @Test
    void unknownBucketAssignerIsRejectedNamingIt() {
        TestSinkContext ctx = FileSystemSinks.of(tmp.resolve("out"), "lines")
                .option("sink.bucket-assigner", "hourly")
                .build();
        assertThatThrownBy(() -> target.validate(ctx))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("hourly");
    }

    @Test
    void bucketIdsThatWouldLeaveTheBasePathAreRejected() throws Exception {
        Path base = tmp.resolve("out");
        for (String pattern : List.of("'..'", "'a/../..'", "'/abs'")) {
            TestSinkContext ctx = FileSystemSinks.of(base, "lines")
                    .option("sink.bucket-assigner", "date-time")
                    .option("sink.bucket-assigner.date-time.format", pattern)
                    .build();
            // at planning, naming the option and the pattern; a writer cannot even be made
            assertThatThrownBy(() -> target.validate(ctx))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("'sink.bucket-assigner.date-time.format' '" + pattern + "'");
            assertThatThrownBy(() -> target.createWriter(ctx, Collections.emptyList()))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(pattern);
        }
        try (Stream<Path> top = Files.list(tmp)) {
            assertThat(top.count()).isZero();
        }
    }

    // ---------------------------------------------------------------- helpers

    /** Writes rows at the given times, commits everything, returns bucket directory -> content of its single file. */
    private Map<String, String> writeAndCommit(TestSinkContext ctx, Path base, List<RowData> rows, List<Long> times)
            throws Exception {
        try (TargetWriter writer = target.createWriter(ctx, Collections.emptyList());
                TargetCommitter committer = target.createCommitter(ctx)) {
            for (int i = 0; i < rows.size(); i++) {
                writer.write(rows.get(i), at(times.get(i)));
            }
            commit(committer, 1, writer.prepareCommit(true));
        }
        assertThat(hidden(base)).isEmpty();
        return byDirectory(base);
    }

    private static Map<String, String> byDirectory(Path base) {
        Map<String, String> dirs = new LinkedHashMap<>();
        visible(base).forEach((file, content) -> {
            assertThat(dirs).as("one file per bucket").doesNotContainKey(parent(file));
            dirs.put(parent(file), content);
        });
        return dirs;
    }
}

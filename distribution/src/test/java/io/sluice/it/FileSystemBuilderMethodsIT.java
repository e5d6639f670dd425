package io.sluice.it;

import io.sluice.runtime.sink.BucketAssigners;
import io.sluice.runtime.sink.RollingPolicies;
import io.sluice.runtime.sink.SluiceSink;
import io.sluice.runtime.sink.SluiceSinkBuilder;
import io.sluice.runtime.source.file.SluiceFileSource;

import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.filesystem.OutputFileConfig;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.conversion.DataStructureConverter;
import org.apache.flink.table.data.conversion.DataStructureConverters;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The DataStream sink's builder methods of the FileSystem document, each judged by the files that
 * come out: {@code withOutputFileConfig} names them, the default bucket assigner puts them in the
 * hour of their processing time, and each setting of the default rolling policy (size, rollover,
 * inactivity) splits the rows over files where it should, where without it one file holds them all.
 */
class FileSystemBuilderMethodsIT {

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(2)
                    .build());

    private static final RowType ROW =
            RowType.of(new LogicalType[] {new BigIntType(), new VarCharType(20)}, new String[] {"id", "name"});

    @TempDir
    Path tmp;

    @Test
    void outputFileConfigGivesThePartFilesItsPrefixAndSuffix() throws Exception {
        Path out = tmp.resolve("out");
        run(
                RuntimeExecutionMode.BATCH,
                5,
                id -> 0,
                sink(out)
                        .withBucketAssigner(BucketAssigners.basePath())
                        .withOutputFileConfig(OutputFileConfig.builder()
                                .withPartPrefix("events")
                                .withPartSuffix(".csv")
                                .build()));

        assertThat(CommittedFiles.visible(out))
                .isNotEmpty()
                .allSatisfy(f -> assertThat(f.getFileName().toString())
                        .startsWith("events-")
                        .endsWith(".csv"))
                .allSatisfy(f -> assertThat(f.getParent()).isEqualTo(out));
        assertThat(ids(out)).containsExactly(1L, 2L, 3L, 4L, 5L);
    }

    @Test
    void theDefaultBucketAssignerWritesIntoTheHourOfTheProcessingTime() throws Exception {
        Path out = tmp.resolve("out");
        DateTimeFormatter hourly = DateTimeFormatter.ofPattern("yyyy-MM-dd--HH");
        String before = ZonedDateTime.now(ZoneId.systemDefault()).format(hourly);
        // no bucket assigner and no partition keys: as Flink's FileSink, date-time buckets
        run(RuntimeExecutionMode.BATCH, 3, id -> 0, sink(out));
        String after = ZonedDateTime.now(ZoneId.systemDefault()).format(hourly);

        List<String> buckets = CommittedFiles.visible(out).stream()
                .map(f -> out.relativize(f.getParent()).toString())
                .distinct()
                .collect(Collectors.toList());
        assertThat(buckets).hasSize(1);
        assertThat(buckets.get(0)).matches("\\d{4}-\\d{2}-\\d{2}--\\d{2}").isIn(before, after);
        assertThat(ids(out)).containsExactly(1L, 2L, 3L);
    }

    /**
     * A BATCH DataStream job into many partitions, every partition's rows spread over the input:
     * the sink sorts each writer's rows by partition (as the planner does for SQL), so one writer
     * writes one file per partition, also where the writer's parallelism is not the source's.
     * Unsorted, 500 open Parquet files do not fit the smallest memory budget, which then rolls
     * files of a row or two. Input declared grouped ({@code withInputGroupedByPartition}) is not
     * sorted again.
     */
    @Test
    void aBatchJobIntoManyPartitionsWritesOneFilePerPartition() throws Exception {
        int partitions = 500;
        long rows = 3L * partitions;
        for (boolean declaredGrouped : new boolean[] {false, true}) {
            Path out = tmp.resolve(declaredGrouped ? "grouped" : "spread");
            StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
            env.setParallelism(2);
            env.setRuntimeMode(RuntimeExecutionMode.BATCH);
            RowType row =
                    RowType.of(new LogicalType[] {new BigIntType(), new VarCharType(20)}, new String[] {"id", "p"});
            SluiceSinkBuilder sink = SluiceSink.forRowData(row)
                    .withTarget("filesystem")
                    .withPluginsDir(TestDistribution.pluginsDir())
                    .withPath(out.toString())
                    .withFormat("parquet")
                    .withPartitionKeys("p")
                    .withOption("sink.writer.memory-budget", "4mb");
            if (declaredGrouped) {
                sink.withInputGroupedByPartition();
            }
            // spread: consecutive ids in different partitions; grouped: three consecutive ids a partition
            env.fromSequence(0, rows - 1)
                    .setParallelism(declaredGrouped ? 1 : 2)
                    .map(
                            id -> (RowData) GenericRowData.of(
                                    id, StringData.fromString("p" + (declaredGrouped ? id / 3 : id % partitions))),
                            InternalTypeInfo.of(row))
                    .setParallelism(declaredGrouped ? 1 : 2)
                    .sinkTo(sink.build())
                    .setParallelism(1);
            String plan = env.getExecutionPlan();
            if (declaredGrouped) {
                assertThat(plan).doesNotContain("Sort by partition");
            } else {
                assertThat(plan).contains("Sort by partition");
            }
            env.execute();

            List<Path> files = CommittedFiles.visible(out);
            assertThat(files).as(out.toString()).hasSize(partitions);
            assertThat(files.stream().map(Path::getParent).distinct().count()).isEqualTo(partitions);
            List<Long> ids = CommittedFiles.parquet(out, g -> g.getLong("id", 0));
            assertThat(ids).hasSize((int) rows).doesNotHaveDuplicates();
        }
    }

    @Test
    void maxPartSizeRollsAFileOnceItHoldsMoreThanTheSize() throws Exception {
        Path out = tmp.resolve("out");
        // rows "1,n1\n" .. "9,n0\n" are 5 bytes, "10,n1\n" .. "20,n2\n" 6: a file rolls at the
        // first row after it holds more than 20 bytes
        run(
                RuntimeExecutionMode.BATCH,
                20,
                id -> 0,
                sink(out)
                        .withBucketAssigner(BucketAssigners.basePath())
                        .withRollingPolicy(RollingPolicies.defaultPolicy().withMaxPartSize(MemorySize.parse("20b"))));

        List<List<Long>> files = idsPerFile(out);
        assertThat(files).containsExactly(range(1, 5), range(6, 10), range(11, 14), range(15, 18), range(19, 20));
        assertThat(CommittedFiles.visible(out))
                .allSatisfy(f -> assertThat(Files.size(f)).isLessThanOrEqualTo(20 + 6));
    }

    @Test
    void rolloverIntervalRollsAFileOpenLongerThanIt() throws Exception {
        Path out = tmp.resolve("out");
        // a row every 100 ms for 1.2 s: always written to, so only the age of a file rolls it
        run(
                RuntimeExecutionMode.STREAMING,
                12,
                id -> 100,
                sink(out)
                        .withBucketAssigner(BucketAssigners.basePath())
                        .withRollingPolicy(RollingPolicies.defaultPolicy()
                                .withRolloverInterval(Duration.ofMillis(300))
                                .withInactivityInterval(Duration.ofMinutes(10))
                                .withCheckInterval(Duration.ofMillis(20))));

        List<List<Long>> files = idsPerFile(out);
        assertThat(files).hasSizeGreaterThanOrEqualTo(3);
        // each file is a run of consecutive rows, none longer than the interval allows
        assertThat(files).allSatisfy(f -> assertThat(f).isEqualTo(range(f.get(0), f.get(f.size() - 1))));
        assertThat(files).allSatisfy(f -> assertThat(f).hasSizeLessThanOrEqualTo(8));
        assertThat(ids(out)).containsExactlyElementsOf(range(1, 12));
    }

    @Test
    void inactivityIntervalRollsAFileWithoutWritesForThatLong() throws Exception {
        Path out = tmp.resolve("out");
        // two bursts of three rows, 1.5 s apart: the pause, not the age, rolls the first file
        run(
                RuntimeExecutionMode.STREAMING,
                6,
                id -> id == 4 ? 1500 : 0,
                sink(out)
                        .withBucketAssigner(BucketAssigners.basePath())
                        .withRollingPolicy(RollingPolicies.defaultPolicy()
                                .withRolloverInterval(Duration.ofMinutes(10))
                                .withInactivityInterval(Duration.ofMillis(400))
                                .withCheckInterval(Duration.ofMillis(20))));

        assertThat(idsPerFile(out)).containsExactlyInAnyOrder(List.of(1L, 2L, 3L), List.of(4L, 5L, 6L));
    }

    @Test
    void aThirdPartysBucketAssignerPlacesTheRowsOfTheSamplesSink() throws Exception {
        // the sample's sink: its own bucket assigner, rolling at checkpoints, prefix and suffix
        Path plugins = tmp.resolve("plugins");
        TestDistribution.copyTree(TestDistribution.pluginsDir(), plugins);
        TestDistribution.copyTree(Paths.get(System.getProperty("sluice.test.example-plugins")), plugins);
        Path out = tmp.resolve("out");
        run(
                RuntimeExecutionMode.STREAMING,
                6,
                id -> 0,
                sink(out)
                        .withPluginsDir(plugins)
                        .withBucketAssigner(
                                BucketAssigners.named("key").with("sink.bucket-assigner.key.column", "name"))
                        .withRollingPolicy(RollingPolicies.onCheckpoint())
                        .withOutputFileConfig(OutputFileConfig.builder()
                                .withPartPrefix("prefix")
                                .withPartSuffix(".ext")
                                .build()));

        assertThat(CommittedFiles.visible(out))
                .allSatisfy(f -> assertThat(f.getFileName().toString())
                        .startsWith("prefix-")
                        .endsWith(".ext"));
        Map<String, List<String>> linesByBucket = new TreeMap<>();
        for (Path f : CommittedFiles.visible(out)) {
            linesByBucket
                    .computeIfAbsent(out.relativize(f.getParent()).toString(), b -> new ArrayList<>())
                    .addAll(Files.readAllLines(f, StandardCharsets.UTF_8));
        }
        assertThat(linesByBucket)
                .containsOnlyKeys("key-n0", "key-n1", "key-n2")
                .containsEntry("key-n0", List.of("3,n0", "6,n0"))
                .containsEntry("key-n1", List.of("1,n1", "4,n1"))
                .containsEntry("key-n2", List.of("2,n2", "5,n2"));
    }

    @Test
    void aThirdPartysRollingPolicyStartsAFileAtEachRowItMarks() throws Exception {
        // the sample plugin's policy: a new file at each name starting "n0" (ids 3, 6, 9), never
        // at a checkpoint: a row every 100 ms across checkpoints every 200 ms
        Path plugins = tmp.resolve("plugins");
        TestDistribution.copyTree(TestDistribution.pluginsDir(), plugins);
        TestDistribution.copyTree(Paths.get(System.getProperty("sluice.test.example-plugins")), plugins);
        Path out = tmp.resolve("out");
        run(
                RuntimeExecutionMode.STREAMING,
                9,
                id -> 100,
                sink(out)
                        .withPluginsDir(plugins)
                        .withBucketAssigner(BucketAssigners.basePath())
                        .withRollingPolicy(RollingPolicies.named("marker")
                                .with("sink.rolling-policy.marker.column", "name")
                                .with("sink.rolling-policy.marker.prefix", "n0")));

        assertThat(idsPerFile(out)).containsExactly(range(1, 2), range(3, 5), range(6, 8), range(9, 9));
    }

    @Test
    void csvReadsIntoPojosThroughFlinksConverterOfThePojosDataType() throws Exception {
        // CsvReaderFormat.forPojo has no counterpart: the source reads RowData, and the Table
        // API's converter for the POJO's structured type makes the objects
        Path in = tmp.resolve("in");
        Files.createDirectories(in);
        Files.write(in.resolve("fruit.csv"), "1,apple,2.5\n2,pear,0.75\n".getBytes(StandardCharsets.UTF_8));
        DataType fruit = DataTypes.STRUCTURED(
                Fruit.class,
                DataTypes.FIELD("id", DataTypes.BIGINT()),
                DataTypes.FIELD("name", DataTypes.STRING()),
                DataTypes.FIELD("price", DataTypes.DOUBLE()));
        RowType rowType = RowType.of(
                new LogicalType[] {new BigIntType(), new VarCharType(VarCharType.MAX_LENGTH), new DoubleType()},
                new String[] {"id", "name", "price"});

        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        SluiceFileSource source = SluiceFileSource.forRowData(rowType)
                .withPluginsDir(TestDistribution.pluginsDir())
                .withPath(in.toString())
                .withFormat("csv")
                .build();
        List<Fruit> fruits = env.fromSource(source, WatermarkStrategy.noWatermarks(), "fruit")
                .map(new ToPojo<Fruit>(fruit), TypeInformation.of(Fruit.class))
                .executeAndCollect(10);

        assertThat(fruits)
                .extracting(f -> f.id + " " + f.name + " " + f.price)
                .containsExactlyInAnyOrder("1 apple 2.5", "2 pear 0.75");
    }

    /** A POJO of the document's CSV sample. */
    public static final class Fruit {
        public Long id;
        public String name;
        public Double price;
    }

    /** RowData to the external class of a structured data type, with Flink's own converter. */
    private static final class ToPojo<T> extends RichMapFunction<RowData, T> {
        private final DataType dataType;
        private transient DataStructureConverter<Object, Object> converter;

        ToPojo(DataType dataType) {
            this.dataType = dataType;
        }

        @Override
        public void open(OpenContext context) {
            converter = DataStructureConverters.getConverter(dataType);
            converter.open(getRuntimeContext().getUserCodeClassLoader());
        }

        @Override
        @SuppressWarnings("unchecked")
        public T map(RowData row) {
            return (T) converter.toExternal(row);
        }
    }

    private static SluiceSinkBuilder sink(Path out) {
        return SluiceSink.forRowData(ROW)
                .withTarget("filesystem")
                .withPluginsDir(TestDistribution.pluginsDir())
                .withPath(out.toString())
                .withFormat("csv");
    }

    /**
     * Writes rows {@code (id, "n" + id % 3)} for ids 1 to {@code count} from one source subtask into
     * one writer, sleeping {@code pause.millis(id)} milliseconds before each.
     */
    private static void run(RuntimeExecutionMode mode, long count, SerializablePause pause, SluiceSinkBuilder sink)
            throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        env.setRuntimeMode(mode);
        if (mode == RuntimeExecutionMode.STREAMING) {
            // the row format keeps a file open across checkpoints: they only commit what rolled
            env.enableCheckpointing(200);
        }
        env.fromSequence(1, count)
                .map(
                        id -> {
                            long millis = pause.millis(id);
                            if (millis > 0) {
                                Thread.sleep(millis);
                            }
                            return (RowData) GenericRowData.of(id, StringData.fromString("n" + id % 3));
                        },
                        InternalTypeInfo.of(ROW))
                // a sleeping source must not block the writer's thread: its timers roll files
                .disableChaining()
                .sinkTo(sink.build());
        env.execute();
    }

    /** A pause per id that travels with the job. */
    @FunctionalInterface
    private interface SerializablePause extends java.io.Serializable {
        long millis(long id);
    }

    private static List<Long> ids(Path out) {
        return idsPerFile(out).stream().flatMap(List::stream).sorted().collect(Collectors.toList());
    }

    /** The ids of each visible file, in the order of the files' lines; files ordered by first id. */
    private static List<List<Long>> idsPerFile(Path out) {
        List<List<Long>> files = new ArrayList<>();
        for (Path f : CommittedFiles.visible(out)) {
            try {
                files.add(Files.readAllLines(f, StandardCharsets.UTF_8).stream()
                        .map(l -> Long.parseLong(l.split(",")[0]))
                        .collect(Collectors.toList()));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        files.sort((a, b) -> Long.compare(a.get(0), b.get(0)));
        return files;
    }

    private static List<Long> range(long from, long to) {
        return LongStream.rangeClosed(from, to).boxed().collect(Collectors.toList());
    }
}

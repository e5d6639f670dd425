package io.sluice.plugin.hive.it;

import io.sluice.runtime.sink.dynamic.DynamicRecord;
import io.sluice.runtime.sink.dynamic.DynamicRecordGenerator;
import io.sluice.runtime.sink.dynamic.DynamicSink;
import io.sluice.runtime.sink.dynamic.DynamicSinkFaults;
import io.sluice.runtime.sink.dynamic.DynamicTableCreator;
import io.sluice.spi.distribution.DistributionMode;
import io.sluice.testshared.FailoverCluster;
import io.sluice.testshared.dynamic.EvolvingNumbers;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.apache.flink.util.Collector;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.orc.OrcFile;
import org.apache.orc.RecordReader;
import org.apache.orc.TypeDescription;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The dynamic sink into Hive tables of an embedded metastore: numbered records routed to 6 ORC
 * tables partitioned by {@code p}, 2 of them created beforehand in SQL, the others by the sink
 * (their format from the sink's table creator); a column is added and a column widened to BIGINT
 * mid-stream; forward and shuffled records mix; on a schedule from a printed seed, failed once in
 * a writer, in the commit of one of the tables or in the table updater. ORC's own reader finds
 * every number exactly once in its table's partition directory, the metastore lists each table's
 * columns as evolved and every partition with data, and Flink SQL reads the evolved table back
 * (files of all three schemas).
 */
class HiveDynamicSinkIT {

    private static final long COUNT = 3_000;
    private static final int TABLES = 6;

    @RegisterExtension
    static final FailoverCluster MINI_CLUSTER = new FailoverCluster(4);

    @TempDir
    Path tmp;

    @BeforeAll
    static void onlyAfterPackaging() {
        HivePluginDir.assumeIntegrationTestPhase();
    }

    @AfterEach
    void reset() {
        DynamicSinkFaults.clear();
    }

    static final class Numbers implements DynamicRecordGenerator<Long> {
        private static final long serialVersionUID = 1L;

        @Override
        public void generate(Long id, Collector<DynamicRecord> out) {
            int t = (int) (id % TABLES);
            // by the number's row among its table's: every table gets all three partitions
            String p = "p" + (id / TABLES) % 3;
            DistributionMode mode = t % 3 == 0 ? null : t % 3 == 1 ? DistributionMode.HASH : DistributionMode.NONE;
            out.collect(new DynamicRecord(
                    "db.t" + t,
                    null,
                    EvolvingNumbers.schema(id, COUNT),
                    EvolvingNumbers.row(id, COUNT, p),
                    List.of("identity(p)"),
                    mode,
                    0));
        }
    }

    /** The sink's new tables are ORC, as a table creator says. */
    static final class Orc implements DynamicTableCreator {
        private static final long serialVersionUID = 1L;

        @Override
        public Map<String, String> properties(String table) {
            return Map.of("hive.storage.file-format", "orc");
        }
    }

    @ParameterizedTest(name = "fails in the {0}")
    @ValueSource(strings = {"writer", "commit", "updater"})
    void everyTableHoldsExactlyItsRowsUnderItsEvolvedColumns(String failure) throws Exception {
        long seed = Long.getLong("sluice.it.seed", System.nanoTime());
        Random random = new Random(seed);
        int routers = 1 + random.nextInt(2);
        int writers = 1 + random.nextInt(2);
        long failAt = 1 + random.nextInt(60);
        int failAtUpdate = 1 + random.nextInt(4);
        boolean immediate = failure.equals("updater") ? false : random.nextBoolean();
        String described = String.format(
                "HiveDynamicSinkIT %s seed %d (-Dsluice.it.seed=%d): %d routers, %d writers, immediate %s,"
                        + " writer fails after %d records, update %d fails",
                failure, seed, seed, routers, writers, immediate, failAt, failAtUpdate);
        System.out.println(described);

        Path metastore = tmp.resolve("metastore");
        Path markers = tmp.resolve("markers");
        TableEnvironment tEnv = TableEnvironment.create(
                EnvironmentSettings.newInstance().inBatchMode().build());
        tEnv.executeSql("CREATE CATALOG h WITH ('type' = 'sluice', 'target' = 'hive', "
                + "'sluice.plugins.dir' = '" + HivePluginDir.get() + "', "
                + "'metastore' = 'embedded', 'metastore.dir' = '" + metastore + "')");
        tEnv.executeSql("CREATE DATABASE h.db");
        for (int t = 0; t < 2; t++) {
            tEnv.executeSql("CREATE TABLE h.db.t" + t + " (id BIGINT, n INT, p STRING) PARTITIONED BY (p)"
                            + " WITH ('hive.storage.file-format' = 'orc')")
                    .await();
        }
        DynamicSinkFaults faults = failure.equals("updater")
                ? EvolvingNumbers.failUpdaterOnce(markers, failAtUpdate)
                : new DynamicSinkFaults();

        StreamExecutionEnvironment env = MINI_CLUSTER.restartingEnvironment(routers, 300);
        DataStream<Long> numbers = env.fromSource(
                new DataGeneratorSource<>(
                        i -> i + 1, COUNT, RateLimiterStrategy.perCheckpoint((int) (COUNT / 10)), Types.LONG),
                WatermarkStrategy.noWatermarks(),
                "numbers");
        Map<String, String> options = new HashMap<>();
        options.put("catalog-name", "h");
        options.put("metastore", "embedded");
        options.put("metastore.dir", metastore.toString());
        options.put("chaos.marker-dir", markers.toString());
        if (failure.equals("writer")) {
            options.put("chaos.writer.fail-after-records", String.valueOf(failAt));
        }
        if (failure.equals("commit")) {
            options.put("chaos.commit.fail", random.nextBoolean() ? "before" : "after");
            options.put("chaos.commit.fail-at", String.valueOf(2 + random.nextInt(8)));
        }
        faults.into(DynamicSink.forInput(numbers)
                        .generator(new Numbers())
                        .target("chaos-hive")
                        .pluginsDir(HivePluginDir.get())
                        .catalog(options)
                        .tableCreator(new Orc())
                        .writeParallelism(writers)
                        .immediateTableUpdate(immediate))
                .append();
        long started = System.nanoTime();
        env.execute("dynamic hive sink, fails in the " + failure);
        System.out.println(described + ": the job took " + (System.nanoTime() - started) / 1_000_000 + " ms");

        assertThat(markers).as("the failure was injected: " + described).isNotEmptyDirectory();
        Path warehouse = metastore.resolve("warehouse").resolve("db.db");
        try (MetastoreProbe probe = MetastoreProbe.of(tEnv.getCatalog("h").orElseThrow())) {
            for (int t = 0; t < TABLES; t++) {
                String name = "t" + t;
                Map<Long, Integer> counts = new TreeMap<>();
                for (String partition : List.of("p=p0", "p=p1", "p=p2")) {
                    for (Path file :
                            ParquetFiles.dataFiles(warehouse.resolve(name).resolve(partition))) {
                        for (Object[] r : orcRows(file)) {
                            long id = (Long) r[0];
                            counts.merge(id, 1, Integer::sum);
                            assertThat(partition)
                                    .as("%s's row %d, %s", name, id, described)
                                    .isEqualTo("p=p" + (id / TABLES) % 3);
                            assertThat(r[1]).as("n of %d", id).isEqualTo(EvolvingNumbers.expectedN(id, COUNT));
                            assertThat(r[2]).as("extra of %d", id).isEqualTo(EvolvingNumbers.expectedExtra(id, COUNT));
                        }
                    }
                }
                List<Long> expected = new ArrayList<>();
                for (long id = t == 0 ? TABLES : t; id <= COUNT; id += TABLES) {
                    expected.add(id);
                }
                assertThat(counts.keySet())
                        .as("%s's numbers, %s", name, described)
                        .containsExactlyElementsOf(expected);
                assertThat(counts.values())
                        .as("%s's numbers written twice, %s", name, described)
                        .allMatch(c -> c == 1);

                MetastoreProbe.HiveTable table = probe.table("db", name);
                assertThat(table.columns())
                        .as("%s's columns, %s", name, described)
                        .containsExactly("id bigint", "n bigint", "extra varchar(16)");
                assertThat(table.partitionKeys()).as(name).containsExactly(t < 2 ? "p string" : "p varchar(8)");
                assertThat(table.inputFormat()).as(name).contains("Orc");
                assertThat(probe.partitionNames("db", name))
                        .as("%s's partitions in the metastore, %s", name, described)
                        .containsExactlyInAnyOrder("p=p0", "p=p1", "p=p2");
            }
        }

        // Flink reads the evolved table: files of the three schemas, some without 'extra', some with INT n
        List<Row> read = new ArrayList<>();
        try (CloseableIterator<Row> rows = tEnv.executeSql(
                        "SELECT id, n, extra, p FROM h.db.t4 WHERE id IN (4, 1504, 2998, 3000)")
                .collect()) {
            rows.forEachRemaining(read::add);
        }
        assertThat(read.stream().map(Row::toString).sorted().collect(Collectors.toList()))
                .as(described)
                .containsExactly("+I[1504, 4, e1504, p1]", "+I[2998, 2998000000000, null, p1]", "+I[4, 4, null, p0]");
    }

    /** id, n and extra of each row of an ORC file, by column name (a file of v1 has no extra). */
    private static List<Object[]> orcRows(Path file) throws Exception {
        List<Object[]> rows = new ArrayList<>();
        try (org.apache.orc.Reader reader = OrcFile.createReader(
                        new org.apache.hadoop.fs.Path(file.toUri()),
                        OrcFile.readerOptions(new org.apache.hadoop.conf.Configuration()));
                RecordReader records = reader.rows()) {
            TypeDescription schema = reader.getSchema();
            List<String> names = schema.getFieldNames();
            VectorizedRowBatch batch = schema.createRowBatch();
            while (records.nextBatch(batch)) {
                LongColumnVector ids = (LongColumnVector) batch.cols[names.indexOf("id")];
                LongColumnVector ns = (LongColumnVector) batch.cols[names.indexOf("n")];
                BytesColumnVector extras =
                        names.contains("extra") ? (BytesColumnVector) batch.cols[names.indexOf("extra")] : null;
                for (int i = 0; i < batch.size; i++) {
                    int n = ns.isRepeating ? 0 : i;
                    Object extra = null;
                    if (extras != null) {
                        int e = extras.isRepeating ? 0 : i;
                        if (extras.noNulls || !extras.isNull[e]) {
                            extra = new String(
                                    extras.vector[e], extras.start[e], extras.length[e], StandardCharsets.UTF_8);
                        }
                    }
                    rows.add(new Object[] {
                        ids.vector[ids.isRepeating ? 0 : i], ns.noNulls || !ns.isNull[n] ? ns.vector[n] : null, extra
                    });
                }
            }
        }
        return rows;
    }

    /** Records of one table of a fixed schema and spec. */
    static final class Fixed implements DynamicRecordGenerator<Long> {
        private static final long serialVersionUID = 1L;
        final String table;
        final RowType schema;
        final List<String> spec;

        Fixed(String table, RowType schema, List<String> spec) {
            this.table = table;
            this.schema = schema;
            this.spec = spec;
        }

        @Override
        public void generate(Long id, Collector<DynamicRecord> out) {
            GenericRowData row = new GenericRowData(schema.getFieldCount());
            for (int i = 0; i < schema.getFieldCount(); i++) {
                LogicalType type = schema.getTypeAt(i);
                row.setField(
                        i,
                        type instanceof BigIntType
                                ? (Object) id
                                : type instanceof IntType ? (Object) id.intValue() : StringData.fromString("v"));
            }
            out.collect(new DynamicRecord(table, null, schema, row, spec, DistributionMode.NONE, 0));
        }
    }

    private void runFixed(Path metastore, DynamicRecordGenerator<Long> generator) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        DynamicSink.forInput(env.fromSource(
                        new DataGeneratorSource<>(i -> i + 1, 5, Types.LONG), WatermarkStrategy.noWatermarks(), "n"))
                .generator(generator)
                .target("hive")
                .pluginsDir(HivePluginDir.get())
                .catalog(Map.of("metastore", "embedded", "metastore.dir", metastore.toString()))
                .immediateTableUpdate(true)
                .append();
        env.execute("dynamic hive sink, bad input");
    }

    @Test
    void changesHiveCannotMakeAreErrorsThatLoseNothing() throws Exception {
        Path metastore = tmp.resolve("bad");
        RowType good = EvolvingNumbers.row(
                "id", new IntType(false), "s", new VarCharType(true, 8), "p", new VarCharType(false, 4));
        // a Parquet table: no widening (Flink reads a Parquet column only as the type it was written with)
        TableEnvironment tEnv = TableEnvironment.create(
                EnvironmentSettings.newInstance().inBatchMode().build());
        tEnv.executeSql("CREATE CATALOG h WITH ('type' = 'sluice', 'target' = 'hive', "
                + "'sluice.plugins.dir' = '" + HivePluginDir.get() + "', "
                + "'metastore' = 'embedded', 'metastore.dir' = '" + metastore + "')");
        tEnv.executeSql("CREATE DATABASE h.db");
        tEnv.executeSql("CREATE TABLE h.db.kept (id INT, s STRING, p STRING) PARTITIONED BY (p)"
                        + " WITH ('hive.storage.file-format' = 'parquet')")
                .await();
        runFixed(metastore, new Fixed("db.kept", good, List.of("identity(p)")));
        Path kept = metastore.resolve("warehouse").resolve("db.db").resolve("kept");
        assertThat(ParquetFiles.rows(kept.resolve("p=v"), g -> String.valueOf(g.getInteger("id", 0))))
                .containsExactlyInAnyOrder("1", "2", "3", "4", "5");

        RowType widened = EvolvingNumbers.row(
                "id", new BigIntType(false), "s", new VarCharType(true, 8), "p", new VarCharType(false, 4));
        assertThatThrownBy(() -> runFixed(metastore, new Fixed("db.kept", widened, List.of("identity(p)"))))
                .hasStackTraceContaining("Hive table db.kept cannot widen column 'id' from INT to BIGINT");
        assertThatThrownBy(() -> runFixed(metastore, new Fixed("db.kept", good, List.of("identity(s)"))))
                .hasStackTraceContaining("Hive cannot change the partition columns of a table");
        RowType upper = EvolvingNumbers.row(
                "id", new IntType(false), "S", new VarCharType(true, 8), "p", new VarCharType(false, 4));
        assertThatThrownBy(() -> runFixed(metastore, new Fixed("db.kept", upper, List.of("identity(p)"))))
                .hasStackTraceContaining("cannot take column 'S'");
        assertThatThrownBy(() -> runFixed(metastore, new Fixed("db.../x", good, List.of("identity(p)"))))
                .hasStackTraceContaining("Invalid Hive table identifier 'db.../x'");
        assertThatThrownBy(() -> runFixed(metastore, new Fixed("DB.Kept", good, List.of("identity(p)"))))
                .hasStackTraceContaining("Invalid Hive table identifier 'DB.Kept'");

        assertThat(ParquetFiles.rows(kept.resolve("p=v"), g -> String.valueOf(g.getInteger("id", 0))))
                .as("the table's rows after the failed jobs")
                .containsExactlyInAnyOrder("1", "2", "3", "4", "5");
        try (MetastoreProbe probe = MetastoreProbe.of(tEnv.getCatalog("h").orElseThrow())) {
            assertThat(probe.table("db", "kept").columns()).containsExactly("id int", "s string");
            assertThat(probe.partitionNames("db", "kept")).containsExactly("p=v");
        }
        try (Stream<Path> tables = Files.list(metastore.resolve("warehouse").resolve("db.db"))) {
            assertThat(tables.map(p -> p.getFileName().toString()))
                    .as("nothing written outside the table")
                    .containsExactly("kept");
        }
        assertThat(metastore.resolve("warehouse").resolve("x")).doesNotExist();
        assertThat(metastore.resolve("x")).doesNotExist();
    }
}

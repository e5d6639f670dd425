package io.sluice.plugin.hive.it;

import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.SequenceFile;
import org.apache.hadoop.io.Text;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * TextFile and SequenceFile Hive tables, created through a Sluice hive catalog in Flink's default
 * dialect with their SerDe properties as table options, written in BATCH mode and read back by
 * Hive's own {@code LazySimpleSerDe} (the plugin's hive-exec, through its class loader, initialized
 * from the metastore's table as Hive's readers do): every row equals what was written, nulls,
 * separators and line breaks inside values included where the table escapes them, and a value Hive
 * could not write back as it was fails the job.
 */
class HiveTextWriteIT {

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(2)
                    .build());

    @TempDir
    Path tmp;

    private Path metastore;
    private TableEnvironment tEnv;

    @BeforeAll
    static void onlyAfterPackaging() {
        HivePluginDir.assumeIntegrationTestPhase();
    }

    @BeforeEach
    void catalog() {
        metastore = tmp.resolve("metastore");
        tEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        tEnv.executeSql("CREATE CATALOG h WITH ('type' = 'sluice', 'target' = 'hive', "
                + "'sluice.plugins.dir' = '" + HivePluginDir.get() + "', "
                + "'metastore' = 'embedded', 'metastore.dir' = '" + metastore + "')");
        tEnv.executeSql("CREATE DATABASE h.db");
    }

    @Test
    void anEscapingTextTableReadsBackEveryValueThroughHivesSerDe() throws Exception {
        tEnv.executeSql("CREATE TABLE h.db.t (id INT, name STRING, score DOUBLE, tags ARRAY<STRING>, dt STRING)"
                + " PARTITIONED BY (dt) WITH ('hive.storage.file-format' = 'textfile',"
                + " 'hive.serde.info.prop.field.delim' = '|',"
                + " 'hive.serde.info.prop.escape.delim' = '\\',"
                + " 'hive.serde.info.prop.serialization.escape.crlf' = 'true')");
        tEnv.executeSql("INSERT INTO h.db.t /*+ OPTIONS('sink.partition-commit.policy.kind' = 'metastore') */ VALUES"
                        + " (1, 'plain', 1.5, ARRAY['a', 'b'], 'x'),"
                        + " (2, 'pipe | back\\slash \\N new' || CHR(10) || 'line', CAST(NULL AS DOUBLE),"
                        + "   CAST(NULL AS ARRAY<STRING>), 'x'),"
                        + " (CAST(NULL AS INT), CAST(NULL AS STRING), 2.0, ARRAY['c|d', ''], 'y'),"
                        + " (4, '\\N', -0.25, ARRAY['e'], 'y')")
                .await();

        Path table = table("t");
        List<byte[]> x = lines(table.resolve("dt=x"));
        // the table's field delimiter, the default collection delimiter \002, the escapes
        assertThat(strings(x))
                .containsExactlyInAnyOrder("1|plain|1.5|a\u0002b", "2|pipe \\| back\\\\slash \\\\N new\\nline|\\N|\\N");
        try (MetastoreProbe probe = MetastoreProbe.of(tEnv.getCatalog("h").orElseThrow())) {
            assertThat(probe.table("db", "t").serde()).isEqualTo("org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe");
            assertThat(probe.deserialize("db", "t", x))
                    .containsExactlyInAnyOrder(
                            Arrays.asList(1, "plain", 1.5, List.of("a", "b")),
                            Arrays.asList(2, "pipe | back\\slash \\N new\nline", null, null));
            assertThat(probe.deserialize("db", "t", lines(table.resolve("dt=y"))))
                    .containsExactlyInAnyOrder(
                            Arrays.asList(null, null, 2.0, List.of("c|d", "")),
                            Arrays.asList(4, "\\N", -0.25, List.of("e")));
        }
    }

    @Test
    void aTextTableWithoutEscapesTakesItsNullFormatAndRefusesASeparatorInAValue() throws Exception {
        tEnv.executeSql("CREATE TABLE h.db.csv (id BIGINT, name STRING, amount DECIMAL(10, 2))"
                + " WITH ('hive.storage.file-format' = 'textfile',"
                + " 'hive.serde.info.prop.field.delim' = ',',"
                + " 'hive.serde.info.prop.serialization.null.format' = 'NULL')");
        tEnv.executeSql("INSERT INTO h.db.csv VALUES (1, 'a b', 10.50), (2, CAST(NULL AS STRING), CAST(NULL AS"
                        + " DECIMAL(10, 2))), (3, '', 0.01)")
                .await();
        Path table = table("csv");
        List<byte[]> records = lines(table);
        assertThat(strings(records)).containsExactlyInAnyOrder("1,a b,10.50", "2,NULL,NULL", "3,,0.01");
        try (MetastoreProbe probe = MetastoreProbe.of(tEnv.getCatalog("h").orElseThrow())) {
            assertThat(probe.deserialize("db", "csv", records))
                    .extracting(Object::toString)
                    .containsExactlyInAnyOrder("[1, a b, 10.5]", "[2, null, null]", "[3, , 0.01]");
        }

        // Hive would write these unescaped and read back other rows: the job fails, nothing is published
        Throwable separator = catchThrowable(() ->
                tEnv.executeSql("INSERT INTO h.db.csv VALUES (4, 'x,y', 1)").await());
        assertThat(separator)
                .hasStackTraceContaining("Hive table db.csv")
                .hasStackTraceContaining("column 'name' holds the separator ','");
        Throwable nullFormat = catchThrowable(() ->
                tEnv.executeSql("INSERT INTO h.db.csv VALUES (5, 'NULL', 1)").await());
        assertThat(nullFormat).hasStackTraceContaining("equals the table's 'serialization.null.format' 'NULL'");
        Throwable lineBreak =
                catchThrowable(() -> tEnv.executeSql("INSERT INTO h.db.csv VALUES (6, 'a' || CHR(10) || 'b', 1)")
                        .await());
        assertThat(lineBreak).hasStackTraceContaining("holds a line break");
        assertThat(strings(lines(table))).containsExactlyInAnyOrder("1,a b,10.50", "2,NULL,NULL", "3,,0.01");
    }

    @Test
    void anOpenCsvTableQuotesItsValues() throws Exception {
        tEnv.executeSql("CREATE TABLE h.db.oc (id STRING, note STRING) WITH ("
                + " 'hive.storage.file-format' = 'textfile',"
                + " 'hive.serde.lib.class.name' = 'org.apache.hadoop.hive.serde2.OpenCSVSerde')");
        tEnv.executeSql("INSERT INTO h.db.oc VALUES ('1', 'a, b'), ('2', 'say \"hi\"')")
                .await();
        try (MetastoreProbe probe = MetastoreProbe.of(tEnv.getCatalog("h").orElseThrow())) {
            assertThat(probe.table("db", "oc").serde()).isEqualTo("org.apache.hadoop.hive.serde2.OpenCSVSerde");
            List<byte[]> records = lines(table("oc"));
            assertThat(strings(records)).allMatch(line -> line.startsWith("\""));
            assertThat(probe.deserialize("db", "oc", records))
                    .containsExactlyInAnyOrder(Arrays.asList("1", "a, b"), Arrays.asList("2", "say \"hi\""));
        }
        Throwable lineBreak =
                catchThrowable(() -> tEnv.executeSql("INSERT INTO h.db.oc VALUES ('3', 'a' || CHR(10) || 'b')")
                        .await());
        assertThat(lineBreak).hasStackTraceContaining("wrote a record with a line break");
    }

    @Test
    void aCompressedSequenceFileTableReadsBackThroughHivesSerDe() throws Exception {
        tEnv.executeSql("CREATE TABLE h.db.seq (id INT, name STRING, dt STRING) PARTITIONED BY (dt)"
                + " WITH ('hive.storage.file-format' = 'sequencefile', 'hive.exec.compress.output' = 'true')");
        tEnv.executeSql("INSERT INTO h.db.seq /*+ OPTIONS('sink.partition-commit.policy.kind' = 'metastore') */"
                        + " VALUES (1, 'one', 'a'), (2, CAST(NULL AS STRING), 'a'), (3, 'tab\there', 'b'),"
                        // a SequenceFile record may hold a line break, which no text file line can
                        + " (4, 'two' || CHR(10) || 'lines', 'b')")
                .await();
        Path table = table("seq");
        try (MetastoreProbe probe = MetastoreProbe.of(tEnv.getCatalog("h").orElseThrow())) {
            assertThat(probe.partitionNames("db", "seq")).containsExactlyInAnyOrder("dt=a", "dt=b");
            assertThat(probe.deserialize("db", "seq", sequenceFileValues(table.resolve("dt=a"), true)))
                    .containsExactlyInAnyOrder(Arrays.asList(1, "one"), Arrays.asList(2, null));
            assertThat(probe.deserialize("db", "seq", sequenceFileValues(table.resolve("dt=b"), true)))
                    .containsExactlyInAnyOrder(Arrays.asList(3, "tab\there"), Arrays.asList(4, "two\nlines"));
        }
        // Hive's default field delimiter, \001
        assertThat(strings(sequenceFileValues(table.resolve("dt=a"), true)))
                .containsExactlyInAnyOrder("1\u0001one", "2\u0001\\N");
    }

    private Path table(String name) {
        return metastore.resolve("warehouse").resolve("db.db").resolve(name);
    }

    /** The lines of a directory's data files, as Hive's text reader splits them (at {@code \n}). */
    private static List<byte[]> lines(Path dir) throws IOException {
        List<byte[]> lines = new ArrayList<>();
        for (Path file : ParquetFiles.dataFiles(dir)) {
            byte[] bytes = Files.readAllBytes(file);
            int start = 0;
            for (int i = 0; i < bytes.length; i++) {
                if (bytes[i] == '\n') {
                    lines.add(Arrays.copyOfRange(bytes, start, i));
                    start = i + 1;
                }
            }
            assertThat(start).as("%s ends with a line break", file).isEqualTo(bytes.length);
        }
        return lines;
    }

    /** The values of a directory's SequenceFiles, read by Hadoop's reader; their keys are empty. */
    private static List<byte[]> sequenceFileValues(Path dir, boolean compressed) throws IOException {
        List<byte[]> values = new ArrayList<>();
        List<Path> files = ParquetFiles.dataFiles(dir);
        assertThat(files).isNotEmpty();
        for (Path file : files) {
            try (SequenceFile.Reader reader = new SequenceFile.Reader(
                    new Configuration(), SequenceFile.Reader.file(new org.apache.hadoop.fs.Path(file.toUri())))) {
                assertThat(reader.getKeyClass()).isEqualTo(BytesWritable.class);
                assertThat(reader.getValueClass()).isEqualTo(Text.class);
                assertThat(reader.isCompressed()).isEqualTo(compressed);
                BytesWritable key = new BytesWritable();
                Text value = new Text();
                while (reader.next(key, value)) {
                    assertThat(key.getLength()).isZero();
                    values.add(Arrays.copyOf(value.getBytes(), value.getLength()));
                }
            }
        }
        return values;
    }

    private static List<String> strings(List<byte[]> records) {
        List<String> out = new ArrayList<>();
        for (byte[] r : records) {
            out.add(new String(r, java.nio.charset.StandardCharsets.UTF_8));
        }
        return out;
    }
}

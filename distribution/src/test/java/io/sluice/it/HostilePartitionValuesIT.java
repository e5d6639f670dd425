package io.sluice.it;

import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Partition values and column names that a path cannot hold as they are (separators, {@code =},
 * {@code %}, {@code :}, spaces, unicode, dot segments, leading {@code _} or {@code .}) are written
 * into escaped directories below the table's path and read back through SQL exactly as written,
 * also with partition pruning on the hostile value.
 */
class HostilePartitionValuesIT {

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(2)
                    .build());

    /** One value per kind of character that means something in a path or in the escaping itself. */
    static final String[] VALUES = {
        "a/b",
        "/leading",
        "trailing/",
        "k=v",
        "==",
        "50%",
        "%2F",
        "%",
        "%zz",
        "03:04:05",
        "C:\\x",
        "a\\b",
        "a b",
        " ",
        "tab\there",
        "ü日本語",
        "emoji \uD83D\uDE00",
        "..",
        ".",
        "../../etc",
        "./x",
        "_x",
        ".hidden",
        "#?*'\"",
        "{}[]^",
        "a|b<c>",
        "__DEFAULT_PARTITION__x",
        "\u007F",
        "line\nbreak",
    };

    @TempDir
    Path tmp;

    private static String table(String name, Path path, String format, String columns, String keys) {
        return "CREATE TABLE " + name + " (" + columns + ") PARTITIONED BY (" + keys
                + ") WITH ('connector' = 'sluice', "
                + "'target' = 'filesystem', 'sluice.plugins.dir' = '" + TestDistribution.pluginsDir() + "', "
                + "'path' = '" + path + "', 'format' = '" + format + "')";
    }

    /** SQL takes any character in a literal as it is; only the quote is doubled. */
    private static String literal(String value) {
        return "'" + value.replace("'", "''") + "'";
    }

    @ParameterizedTest
    @ValueSource(strings = {"csv", "parquet"})
    void hostileValuesRoundTripExactly(String format) throws Exception {
        Path out = tmp.resolve("t");
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        tEnv.executeSql(table("t", out, format, "id INT, dt STRING, hr STRING", "dt, hr"));
        List<String> rows = new ArrayList<>();
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < VALUES.length; i++) {
            // every value in both levels: the first level's escaping must not disturb the second's
            String second = VALUES[VALUES.length - 1 - i];
            rows.add("(" + i + ", " + literal(VALUES[i]) + ", " + literal(second) + ")");
            expected.add(i + "|" + VALUES[i] + "|" + second);
        }
        tEnv.executeSql("INSERT INTO t VALUES " + String.join(", ", rows)).await();

        assertThat(read(tEnv, "SELECT id, dt, hr FROM t")).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(everyFileIsUnder(out)).isTrue();
        for (int i = 0; i < VALUES.length; i++) {
            // partition pruning turns the value back into its directory
            assertThat(read(tEnv, "SELECT id, dt, hr FROM t WHERE dt = " + literal(VALUES[i])))
                    .as("WHERE dt = '%s'", VALUES[i])
                    .containsExactly(expected.get(i));
        }
    }

    @Test
    void hostileColumnNamesRoundTrip() throws Exception {
        Path out = tmp.resolve("c");
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        tEnv.executeSql(
                table("c", out, "csv", "id INT, `a=b` STRING, `x/y z%` STRING, `..` STRING", "`a=b`, `x/y z%`, `..`"));
        tEnv.executeSql("INSERT INTO c VALUES (1, 'v=1', 'w/2', '..'), (2, '', CAST(NULL AS STRING), '%41')")
                .await();
        assertThat(read(tEnv, "SELECT id, `a=b`, `x/y z%`, `..` FROM c"))
                .containsExactlyInAnyOrder("1|v=1|w/2|..", "2|null|null|%41");
        assertThat(read(tEnv, "SELECT id FROM c WHERE `x/y z%` = 'w/2'")).containsExactly("1");
        assertThat(everyFileIsUnder(out)).isTrue();
    }

    private static boolean everyFileIsUnder(Path table) throws IOException {
        Path parent = table.getParent();
        try (Stream<Path> files = Files.walk(parent)) {
            return files.filter(Files::isRegularFile).allMatch(f -> f.startsWith(table));
        }
    }

    private static List<String> read(TableEnvironment tEnv, String query) throws Exception {
        List<String> rows = new ArrayList<>();
        try (CloseableIterator<Row> it = tEnv.executeSql(query).collect()) {
            it.forEachRemaining(r -> {
                List<String> fields = new ArrayList<>();
                for (int i = 0; i < r.getArity(); i++) {
                    fields.add(String.valueOf(r.getField(i)));
                }
                rows.add(fields.stream().collect(Collectors.joining("|")));
            });
        }
        return rows;
    }
}

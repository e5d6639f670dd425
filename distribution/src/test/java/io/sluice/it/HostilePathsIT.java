package io.sluice.it;

import io.sluice.testshared.FileTreeSnapshot;

import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Bad-input catalogue, paths: every option of the filesystem target whose value becomes part of a
 * path, given a hostile value, in a table's options and as a {@code /*+ OPTIONS(...) *}{@code /}
 * hint, with {@code INSERT INTO} and {@code INSERT OVERWRITE}. Before each statement a neighbouring
 * table {@code orders} and the table {@code t} have committed rows. Each case must (a) fail naming
 * the option and the value, (b) leave every file and directory outside {@code t}'s path exactly as
 * it was (names, sizes, modification times: nothing created, changed or deleted), and (c) leave the
 * committed rows of both tables intact.
 */
class HostilePathsIT {

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(2)
                    .build());

    @TempDir
    Path tmp;

    private TableEnvironment tEnv;
    private Path orders;
    private Path table;

    private String ddl(String name, Path path, String columns, String key, String extraOptions) {
        return "CREATE TABLE " + name + " (" + columns + ") PARTITIONED BY (" + key + ") WITH ('connector' = 'sluice', "
                + "'target' = 'filesystem', 'path' = '" + path + "', 'format' = 'csv', "
                + "'sluice.plugins.dir' = '" + TestDistribution.pluginsDir() + "'" + extraOptions + ")";
    }

    @BeforeEach
    void commitTheNeighbourAndARow() throws Exception {
        tEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        orders = tmp.resolve("orders");
        table = tmp.resolve("t");
        tEnv.executeSql(ddl("orders", orders, "id INT, dt STRING", "dt", ""));
        tEnv.executeSql(ddl("t", table, "id INT, dt STRING", "dt", ""));
        tEnv.executeSql("INSERT INTO orders VALUES (1, 'a'), (2, 'b'), (3, 'x')")
                .await();
        tEnv.executeSql("INSERT INTO t VALUES (10, 'a')").await();
        assertIntact();
    }

    /** The option, its hostile value, and the options it needs to be used at all. */
    static Stream<Arguments> cases() {
        List<Arguments> cases = new ArrayList<>();
        String successFile = "'sink.partition-commit.policy.kind' = 'success-file'";
        String dateTime = "'sink.bucket-assigner' = 'date-time'";
        for (String v : new String[] {
            "../orders/x", "../x", "..", ".", "a/b", "/abs", "a\\b", "a:b", ".hidden", "_x", "x".repeat(300)
        }) {
            cases.add(Arguments.of("sink.part-file.prefix", v, ""));
        }
        for (String v : new String[] {"/../../orders/x", "/x", "a:b", "\\x"}) {
            cases.add(Arguments.of("sink.part-file.suffix", v, ""));
        }
        for (String v : new String[] {"a:b", "../orders/_SUCCESS", "..", "", "a/b", "x".repeat(256)}) {
            cases.add(Arguments.of("sink.partition-commit.success-file.name", v, successFile));
        }
        for (String v : new String[] {"''../orders''", "''..''/yyyy", "HH:mm", "''_''yyyy"}) {
            cases.add(Arguments.of("sink.bucket-assigner.date-time.format", v, dateTime));
        }
        cases.add(Arguments.of("partition.default-name", "", ""));
        // with compaction, part files get hidden names first: the same names must be refused
        String compaction = "'auto-compaction' = 'true'";
        cases.add(Arguments.of("sink.part-file.prefix", "../orders/x", compaction));
        cases.add(Arguments.of("sink.part-file.suffix", "/../../orders/x", compaction));
        return cases.stream();
    }

    /** {@code path} itself: a dot segment that would make {@code t} mean {@code orders}. */
    static Stream<Arguments> paths() {
        return Stream.of(
                Arguments.of("{tmp}/t/../orders"),
                Arguments.of("{tmp}/t/./../orders"),
                Arguments.of("file://{tmp}/t/.."));
    }

    @ParameterizedTest(name = "[{index}] ''{0}'' = ''{1}''")
    @MethodSource("cases")
    void hostileOptionInTheTableIsRejected(String option, String value, String needs) throws Exception {
        String options = ", '" + option + "' = '" + value + "'" + (needs.isEmpty() ? "" : ", " + needs);
        tEnv.executeSql(ddl("bad", table, "id INT, dt STRING", "dt", options));
        for (String insert : List.of("INSERT INTO bad", "INSERT OVERWRITE bad")) {
            rejected(insert + " VALUES (99, 'x'), (98, 'a')", option, unquoted(value));
        }
    }

    @ParameterizedTest(name = "[{index}] hint ''{0}'' = ''{1}''")
    @MethodSource("cases")
    void hostileOptionInAHintIsRejected(String option, String value, String needs) throws Exception {
        String hint =
                " /*+ OPTIONS('" + option + "' = '" + value + "'" + (needs.isEmpty() ? "" : ", " + needs) + ") */";
        for (String insert : List.of("INSERT INTO t", "INSERT OVERWRITE t")) {
            rejected(insert + hint + " VALUES (99, 'x'), (98, 'a')", option, unquoted(value));
        }
    }

    @ParameterizedTest
    @MethodSource("paths")
    void aPathWithDotSegmentsIsRejected(String template) throws Exception {
        String path = template.replace("{tmp}", tmp.toString());
        tEnv.executeSql(ddl("bad", table, "id INT, dt STRING", "dt", "").replace("'" + table + "'", "'" + path + "'"));
        for (String insert : List.of("INSERT INTO bad", "INSERT OVERWRITE bad")) {
            rejected(insert + " VALUES (99, 'x')", "path", path);
        }
        for (String insert : List.of("INSERT INTO t", "INSERT OVERWRITE t")) {
            rejected(insert + " /*+ OPTIONS('path' = '" + path + "') */ VALUES (99, 'x')", "path", path);
        }
    }

    /** Flink resolves a relative path against the working directory: bin/sluice's is the installation. */
    @ParameterizedTest
    @ValueSource(strings = {"sluice-relative-t", "file:sluice-relative-t", "data/sluice-relative-t"})
    void aRelativePathIsRejected(String path) throws Exception {
        tEnv.executeSql(ddl("rel", table, "id INT, dt STRING", "dt", "").replace("'" + table + "'", "'" + path + "'"));
        for (String insert : List.of("INSERT INTO rel", "INSERT OVERWRITE rel")) {
            String error = errorOf(insert + " VALUES (99, 'x')");
            assertThat(error).contains("'path' '" + path + "'").contains("absolute");
            assertIntact();
        }
        assertThat(Paths.get("sluice-relative-t"))
                .as("in the working directory")
                .doesNotExist();
        assertThat(Paths.get("data", "sluice-relative-t"))
                .as("in the working directory")
                .doesNotExist();
    }

    @Test
    void aPartitionColumnThatReadersWouldHideIsRejectedForWritingAndReading() throws Exception {
        for (String column : List.of("_dt", ".dt")) {
            tEnv.executeSql(
                    ddl("`hidden" + column + "`", table, "id INT, `" + column + "` STRING", "`" + column + "`", ""));
            for (String insert : List.of("INSERT INTO", "INSERT OVERWRITE")) {
                String error = errorOf(insert + " `hidden" + column + "` VALUES (99, 'x')");
                assertThat(error).contains("Partition column '" + column + "'").contains("hidden");
                assertIntact();
            }
            String read = errorOf("SELECT * FROM `hidden" + column + "`");
            assertThat(read).contains("Partition column '" + column + "'").contains("hidden");
            assertIntact();
        }
    }

    /** A value in a hint or DDL is a SQL literal: {@code ''} stands for one quote. */
    private static String unquoted(String value) {
        return value.replace("''", "'");
    }

    private void rejected(String statement, String option, String value) throws Exception {
        String error = errorOf(statement);
        assertThat(error).as(statement).contains("'" + option + "'").contains("'" + value + "'");
        assertIntact();
    }

    private final Map<String, String> outside = new TreeMap<>();

    /** Rows of both tables as committed (read as files); every file and directory outside t as first seen. */
    private void assertIntact() {
        Map<String, String> now = FileTreeSnapshot.outside(tmp, table);
        if (outside.isEmpty()) {
            outside.putAll(now);
        }
        assertThat(now).as("files outside the table").isEqualTo(outside);
        assertThat(sorted(CommittedFiles.lines(orders))).containsExactly("1", "2", "3");
        assertThat(CommittedFiles.lines(table)).containsExactly("10");
    }

    /** And through SQL, once a case is done: both tables read back what was committed before it. */
    @AfterEach
    void bothTablesReadBackTheirRows() throws Exception {
        assertThat(read("SELECT id, dt FROM orders")).containsExactlyInAnyOrder("1,a", "2,b", "3,x");
        assertThat(read("SELECT id, dt FROM t")).containsExactly("10,a");
    }

    private String errorOf(String statement) {
        Throwable t = catchThrowable(() -> {
            if (statement.startsWith("SELECT")) {
                read(statement);
            } else {
                tEnv.executeSql(statement).await();
            }
        });
        assertThat(t).as("'%s' must fail", statement).isNotNull();
        // only Sluice's own messages: Flink's wrapper echoes every table option
        StringBuilder messages = new StringBuilder();
        for (Throwable c = t; c != null; c = c.getCause()) {
            String m = String.valueOf(c.getMessage());
            if (!m.startsWith("Unable to create a sink") && !m.startsWith("Unable to create a source")) {
                messages.append(m).append('\n');
            }
        }
        return messages.toString();
    }

    private List<String> read(String query) throws Exception {
        List<String> rows = new ArrayList<>();
        try (CloseableIterator<Row> it = tEnv.executeSql(query).collect()) {
            it.forEachRemaining(r -> rows.add(r.getField(0) + "," + r.getField(1)));
        }
        return rows;
    }

    private static List<String> sorted(List<String> lines) {
        return lines.stream().sorted().collect(Collectors.toList());
    }
}

package io.sluice.plugin.iceberg.it;

import io.sluice.testshared.FileTreeSnapshot;

import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Bad-input catalogue, Iceberg paths: {@code catalog-database}, {@code catalog-table} and {@code
 * warehouse} with hostile values, in a table's options and as a hint, with {@code INSERT INTO} and
 * {@code INSERT OVERWRITE}, after a neighbouring table {@code db.orders} and the table {@code db.t}
 * of a Hadoop catalog have committed rows. Each case must fail naming the option and the value,
 * leave every file and directory under the temporary root outside {@code db.t} as it was (nothing
 * created, changed or deleted: no table outside the warehouse), and leave both tables' rows intact.
 */
class IcebergHostilePathsIT {

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(2)
                    .build());

    @TempDir
    Path tmp;

    private Path warehouse;
    private TableEnvironment tEnv;
    private final Map<String, String> outside = new TreeMap<>();

    @BeforeAll
    static void onlyAfterPackaging() {
        TestPluginsDir.assumeIntegrationTestPhase();
    }

    private String ddl(String name, Map<String, String> options) {
        Map<String, String> all = new TreeMap<>(Map.of(
                "connector",
                "sluice",
                "target",
                "iceberg",
                "sluice.plugins.dir",
                TestPluginsDir.get().toString(),
                "catalog-type",
                "hadoop",
                "warehouse",
                warehouse.toUri().toString(),
                "catalog-database",
                "db",
                "catalog-table",
                name));
        all.putAll(options);
        return "CREATE TABLE " + name + " (id BIGINT, dt STRING) PARTITIONED BY (dt) WITH ("
                + all.entrySet().stream()
                        .map(e -> "'" + e.getKey() + "' = '" + e.getValue() + "'")
                        .collect(Collectors.joining(", "))
                + ")";
    }

    @BeforeEach
    void commitTheNeighbourAndARow() throws Exception {
        warehouse = tmp.resolve("warehouse");
        tEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        tEnv.executeSql(ddl("orders", Map.of()));
        tEnv.executeSql(ddl("t", Map.of()));
        tEnv.executeSql("INSERT INTO orders VALUES (1, 'a'), (2, 'b')").await();
        tEnv.executeSql("INSERT INTO t VALUES (10, 'a')").await();
        assertIntact();
    }

    static Stream<Arguments> cases() {
        List<Arguments> cases = new ArrayList<>();
        for (String v :
                new String[] {"../../../esc", "../orders", "..", ".", "a/b", "a\\b", "a:b", "", "t".repeat(256)}) {
            cases.add(Arguments.of("catalog-table", v));
        }
        for (String v : new String[] {"../..", "..", ".", "db/../x", "a:b", ""}) {
            cases.add(Arguments.of("catalog-database", v));
        }
        cases.add(Arguments.of("warehouse", "{warehouse}/../esc"));
        cases.add(Arguments.of("warehouse", "{tmp}/./warehouse"));
        return cases.stream();
    }

    @ParameterizedTest(name = "[{index}] ''{0}'' = ''{1}''")
    @MethodSource("cases")
    void hostileOptionInTheTableIsRejected(String option, String template) throws Exception {
        String value = value(template);
        tEnv.executeSql(ddl("t", Map.of(option, value)).replace("CREATE TABLE t ", "CREATE TABLE bad "));
        for (String insert : List.of("INSERT INTO bad", "INSERT OVERWRITE bad")) {
            rejected(insert + " VALUES (99, 'x'), (98, 'a')", option, value);
        }
    }

    @ParameterizedTest(name = "[{index}] hint ''{0}'' = ''{1}''")
    @MethodSource("cases")
    void hostileOptionInAHintIsRejected(String option, String template) throws Exception {
        String value = value(template);
        for (String insert : List.of("INSERT INTO t", "INSERT OVERWRITE t")) {
            rejected(
                    insert + " /*+ OPTIONS('" + option + "' = '" + value + "') */ VALUES (99, 'x'), (98, 'a')",
                    option,
                    value);
        }
    }

    private String value(String template) {
        return template.replace("{warehouse}", warehouse.toUri().toString()).replace("{tmp}", tmp.toString());
    }

    private void rejected(String statement, String option, String value) throws Exception {
        Throwable t = catchThrowable(() -> tEnv.executeSql(statement).await());
        assertThat(t).as("'%s' must fail", statement).isNotNull();
        StringBuilder messages = new StringBuilder();
        for (Throwable c = t; c != null; c = c.getCause()) {
            String m = String.valueOf(c.getMessage());
            if (!m.startsWith("Unable to create a sink")) { // Flink's wrapper echoes every option
                messages.append(m).append('\n');
            }
        }
        assertThat(messages.toString()).as(statement).contains("Invalid '" + option + "' '" + value + "'");
        assertIntact();
    }

    private void assertIntact() {
        Map<String, String> now =
                FileTreeSnapshot.outside(tmp, warehouse.resolve("db").resolve("t"));
        if (outside.isEmpty()) {
            outside.putAll(now);
        }
        assertThat(now).as("files outside the table").isEqualTo(outside);
        assertThat(IcebergTables.rows(IcebergTables.load(warehouse, "db", "orders")))
                .containsExactlyInAnyOrder("1|a", "2|b");
        assertThat(IcebergTables.rows(IcebergTables.load(warehouse, "db", "t"))).containsExactly("10|a");
    }
}

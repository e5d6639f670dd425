package io.sluice.plugin.iceberg.it;

import io.sluice.runtime.source.lookup.HandFedSource;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.WriterAppender;
import org.apache.logging.log4j.core.layout.PatternLayout;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * An Iceberg table as the temporal table of a processing-time join ({@code FOR SYSTEM_TIME AS OF
 * o.proctime}): a stream of orders, handed to the job one by one, is enriched from an Iceberg
 * dimension table that upstream's connector overwrites meanwhile. Orders before the overwrite see
 * the old rows, orders after the cache TTL the new ones; a reload while the table cannot be read
 * (its metadata directory moved away) keeps serving the old rows and the job runs on.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class IcebergTemporalJoinIT {

    private static final long TTL_MILLIS = 2000;
    private static final String TABLE = "default_catalog.default_database.products";

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(2)
                    .build());

    @TempDir
    Path tmp;

    private Path warehouse;
    private TableEnvironment batch;
    private final StringWriter log = new StringWriter();
    private WriterAppender appender;

    @BeforeAll
    static void onlyAfterPackaging() {
        TestPluginsDir.assumeIntegrationTestPhase();
    }

    @BeforeEach
    void setUp() throws Exception {
        warehouse = tmp.resolve("warehouse");
        batch = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        batch.getConfig().set("parallelism.default", "1");
        batch.executeSql("CREATE CATALOG upstream WITH ('type' = 'iceberg', 'catalog-type' = 'hadoop', "
                + "'warehouse' = '" + warehouse.toUri() + "')");
        batch.executeSql("CREATE DATABASE upstream.db");
        batch.executeSql("CREATE TABLE upstream.db.products (id BIGINT, name STRING, price INT, note STRING)");
        batch.executeSql("INSERT INTO upstream.db.products VALUES "
                        + "(1, 'apple', 10, 'x'), (2, 'pear', 20, 'x'), (CAST(NULL AS BIGINT), 'no id', 0, 'x')")
                .await();
        captureLookupLog();
    }

    @AfterEach
    void stopCapture() {
        LoggerContext context = (LoggerContext) LogManager.getContext(false);
        context.getConfiguration().getRootLogger().removeAppender(appender.getName());
        context.updateLoggers();
        appender.stop();
    }

    @Test
    void laterOrdersSeeTheOverwrittenTableOnceTheTtlHasPassedEarlierOnesTheOldRows() throws Exception {
        StreamTableEnvironment streaming = streamingWithOrders("orders-overwrite");
        streaming.executeSql(sluiceTable("products", "(id BIGINT, name STRING, price INT, note STRING)"));

        try (CloseableIterator<Row> joined = streaming
                .executeSql("SELECT o.order_id, o.product_id, p.name, p.price FROM orders AS o "
                        + "LEFT JOIN products FOR SYSTEM_TIME AS OF o.proctime AS p ON o.product_id = p.id")
                .collect()) {
            order("orders-overwrite", 1, 1L);
            order("orders-overwrite", 2, 3L);
            order("orders-overwrite", 3, null); // a null key matches nothing, not the row without an id
            assertThat(next(joined, 3)).containsExactly("1|1|apple|10", "2|3|null|null", "3|null|null|null");

            batch.executeSql("INSERT OVERWRITE upstream.db.products VALUES (1, 'apple', 11, 'y'), (3, 'plum', 30, 'y')")
                    .await();
            // the last load was before the overwrite began: once the TTL has passed, the next order reloads
            Thread.sleep(TTL_MILLIS + 500);
            order("orders-overwrite", 4, 1L);
            order("orders-overwrite", 5, 3L);
            order("orders-overwrite", 6, 2L);
            assertThat(next(joined, 3)).containsExactly("4|1|apple|11", "5|3|plum|30", "6|2|null|null");
        }
        assertThat(cacheLog()).contains("Loaded temporal table " + TABLE).doesNotContain("WARN");
    }

    @Test
    void aReloadWhileTheTableCannotBeReadKeepsTheOldRowsAndTheJobRunsOn() throws Exception {
        StreamTableEnvironment streaming = streamingWithOrders("orders-unreadable");
        streaming.executeSql(sluiceTable("products", "(id BIGINT, name STRING, price INT, note STRING)"));
        // the planner pushes the projection (id, price): the lookup's rows must be the projected ones
        String query = "SELECT o.order_id, p.price FROM orders AS o "
                + "JOIN products FOR SYSTEM_TIME AS OF o.proctime AS p ON o.product_id = p.id";

        try (CloseableIterator<Row> joined = streaming.executeSql(query).collect()) {
            order("orders-unreadable", 1, 1L);
            assertThat(next(joined, 1)).containsExactly("1|10");

            batch.executeSql("INSERT OVERWRITE upstream.db.products VALUES (1, 'apple', 11, 'y')")
                    .await();
            Path metadata = warehouse.resolve("db").resolve("products").resolve("metadata");
            Path away = metadata.resolveSibling("metadata-away");
            Files.move(metadata, away);
            Thread.sleep(TTL_MILLIS + 500);
            order("orders-unreadable", 2, 1L); // the reload fails: the last good rows serve
            order("orders-unreadable", 3, 2L);
            assertThat(next(joined, 2)).containsExactly("2|10", "3|20");
            assertThat(cacheLog())
                    .contains("WARN")
                    .contains("Cannot reload temporal table " + TABLE)
                    .contains("keeps the 2 rows");

            Files.move(away, metadata);
            Thread.sleep(TTL_MILLIS + 500); // past the retry delay (1 s after one failure)
            order("orders-unreadable", 4, 1L);
            order("orders-unreadable", 5, 2L); // gone with the overwrite: an inner join drops it
            order("orders-unreadable", 6, 1L);
            assertThat(next(joined, 2)).containsExactly("4|11", "6|11");
        }
    }

    @Test
    void aStreamingReadCannotBeATemporalTable() {
        StreamTableEnvironment streaming = streamingWithOrders("orders-streaming");
        streaming.executeSql(sluiceTable("products", "(id BIGINT, name STRING, price INT, note STRING)"));

        assertThatThrownBy(() -> streaming.explainSql("SELECT o.order_id, p.name FROM orders AS o JOIN products "
                        + "/*+ OPTIONS('streaming' = 'true') */ FOR SYSTEM_TIME AS OF o.proctime AS p "
                        + "ON o.product_id = p.id"))
                .rootCause()
                .isInstanceOf(org.apache.flink.table.api.ValidationException.class)
                .hasMessageContaining("Table " + TABLE)
                .hasMessageContaining("cannot be the temporal table of a join")
                .hasMessageContaining("'streaming' = 'true'");
    }

    /** A streaming table environment with table {@code orders} (order_id, product_id, proctime) fed by the test. */
    private static StreamTableEnvironment streamingWithOrders(String feed) {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
        DataStream<Row> orders = env.fromSource(
                HandFedSource.feed(
                        feed, Types.ROW_NAMED(new String[] {"order_id", "product_id"}, Types.LONG, Types.LONG)),
                WatermarkStrategy.noWatermarks(),
                "orders");
        tEnv.createTemporaryView(
                "orders",
                orders,
                Schema.newBuilder()
                        .column("order_id", "BIGINT")
                        .column("product_id", "BIGINT")
                        .columnByExpression("proctime", "PROCTIME()")
                        .build());
        return tEnv;
    }

    private String sluiceTable(String name, String columns) {
        return "CREATE TABLE " + name + " " + columns
                + " WITH ('connector' = 'sluice', 'target' = 'iceberg', "
                + "'sluice.plugins.dir' = '" + TestPluginsDir.get() + "', "
                + "'catalog-type' = 'hadoop', 'warehouse' = '" + warehouse.toUri() + "', "
                + "'catalog-database' = 'db', 'catalog-table' = '" + name + "', "
                + "'lookup.join.cache.ttl' = '" + TTL_MILLIS + " ms')";
    }

    private static void order(String feed, long orderId, Long productId) {
        HandFedSource.emit(feed, Row.of(orderId, productId));
    }

    /** The next {@code n} joined rows, as {@code v1|v2|...}. */
    private static List<String> next(CloseableIterator<Row> rows, int n) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Row row = rows.next();
            out.add(IntStream.range(0, row.getArity())
                    .mapToObj(f -> Objects.toString(row.getField(f)))
                    .collect(Collectors.joining("|")));
        }
        return out;
    }

    /** The lines the join's cache logged. */
    private String cacheLog() {
        return log.toString()
                .lines()
                .filter(line -> line.contains("LookupCache"))
                .collect(Collectors.joining("\n"));
    }

    /** What is logged while a test runs, captured for it. */
    private void captureLookupLog() {
        LoggerContext context = (LoggerContext) LogManager.getContext(false);
        appender = WriterAppender.newBuilder()
                .setName("lookup-" + System.nanoTime())
                .setTarget(log)
                .setLayout(
                        PatternLayout.newBuilder().withPattern("%-5p %c - %m%n").build())
                .build();
        appender.start();
        context.getConfiguration().getRootLogger().addAppender(appender, null, null);
        context.updateLoggers();
    }
}

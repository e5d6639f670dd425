package io.sluice.plugin.filesystem.it;

import io.sluice.runtime.source.lookup.HandFedSource;

import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A directory of csv files ({@code 'target' = 'filesystem'}, read by the framework's file source)
 * as the temporal table of a processing-time join: a stream of orders, handed to the job one by
 * one, is enriched from it while the test rewrites its files. Orders before a rewrite see the old
 * rows, orders after the cache TTL the new ones, for an unpartitioned table and for a partitioned
 * one joined on its partition column too (new partitions included); a reload while the directory
 * is gone keeps serving the old rows and the job runs on, counted in the cache's metrics. An
 * event-time join is Flink's error.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class FilesystemTemporalJoinIT {

    private static final long TTL_MILLIS = 2000;

    private static final InMemoryReporter METRICS = InMemoryReporter.createWithRetainedMetrics();

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                    .setConfiguration(METRICS.addToConfiguration(new Configuration()))
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(2)
                    .build());

    @TempDir
    Path tmp;

    @BeforeAll
    static void onlyAfterPackaging() {
        FilesystemPluginDir.assumeIntegrationTestPhase();
    }

    @Test
    void laterOrdersSeeTheRewrittenFilesOnceTheTtlHasPassedEarlierOnesTheOldRows() throws Exception {
        Path table = tmp.resolve("products");
        write(table.resolve("part-0.csv"), "1,apple,10\n2,pear,20\n");
        StreamTableEnvironment streaming = streamingWithOrders("fs-rewrite");
        streaming.executeSql(sluiceTable("products", "(id BIGINT, name STRING, price INT)", "", table));

        try (CloseableIterator<Row> joined = streaming
                .executeSql("SELECT o.order_id, o.product_id, p.name, p.price FROM orders AS o "
                        + "LEFT JOIN products FOR SYSTEM_TIME AS OF o.proctime AS p ON o.product_id = p.id")
                .collect()) {
            order("fs-rewrite", 1, 1L, "eu");
            order("fs-rewrite", 2, 3L, "eu");
            order("fs-rewrite", 3, null, "eu"); // a null key matches nothing
            assertThat(next(joined, 3)).containsExactly("1|1|apple|10", "2|3|null|null", "3|null|null|null");

            write(table.resolve("part-1.csv"), "1,apple,11\n3,plum,30\n");
            Files.delete(table.resolve("part-0.csv"));
            Thread.sleep(TTL_MILLIS + 500);
            order("fs-rewrite", 4, 1L, "eu");
            order("fs-rewrite", 5, 3L, "eu");
            order("fs-rewrite", 6, 2L, "eu");
            assertThat(next(joined, 3)).containsExactly("4|1|apple|11", "5|3|plum|30", "6|2|null|null");
        }
    }

    @Test
    void aPartitionedTableIsJoinedOnItsPartitionColumnAndNewPartitionsAreSeen() throws Exception {
        Path table = tmp.resolve("prices");
        write(table.resolve("region=eu").resolve("part-0.csv"), "1,10\n");
        write(table.resolve("region=us").resolve("part-0.csv"), "1,12\n2,22\n");
        StreamTableEnvironment streaming = streamingWithOrders("fs-partitioned");
        streaming.executeSql(
                sluiceTable("prices", "(id BIGINT, price INT, region STRING)", "PARTITIONED BY (region)", table));

        try (CloseableIterator<Row> joined = streaming
                .executeSql("SELECT o.order_id, p.price FROM orders AS o LEFT JOIN prices FOR SYSTEM_TIME AS OF"
                        + " o.proctime AS p ON o.product_id = p.id AND o.region = p.region")
                .collect()) {
            order("fs-partitioned", 1, 1L, "eu");
            order("fs-partitioned", 2, 1L, "us");
            order("fs-partitioned", 3, 2L, "eu");
            order("fs-partitioned", 4, 2L, "asia");
            assertThat(next(joined, 4)).containsExactly("1|10", "2|12", "3|null", "4|null");

            write(table.resolve("region=eu").resolve("part-1.csv"), "1,15\n2,25\n");
            Files.delete(table.resolve("region=eu").resolve("part-0.csv"));
            write(table.resolve("region=asia").resolve("part-0.csv"), "2,9\n");
            Thread.sleep(TTL_MILLIS + 500);
            order("fs-partitioned", 5, 1L, "eu");
            order("fs-partitioned", 6, 2L, "eu");
            order("fs-partitioned", 7, 2L, "asia");
            order("fs-partitioned", 8, 2L, "us");
            assertThat(next(joined, 4)).containsExactly("5|15", "6|25", "7|9", "8|22");
        }
    }

    @Test
    void aReloadWhileTheDirectoryIsGoneKeepsTheOldRowsAndTheJobRunsOn() throws Exception {
        Path table = tmp.resolve("stock");
        write(table.resolve("part-0.csv"), "1,apple,10\n2,pear,20\n");
        StreamTableEnvironment streaming = streamingWithOrders("fs-gone");
        streaming.executeSql(sluiceTable("stock", "(id BIGINT, name STRING, amount INT)", "", table));

        TableResult result = streaming.executeSql("SELECT o.order_id, s.amount FROM orders AS o "
                + "JOIN stock FOR SYSTEM_TIME AS OF o.proctime AS s ON o.product_id = s.id");
        JobID job = result.getJobClient().orElseThrow().getJobID();
        try (CloseableIterator<Row> joined = result.collect()) {
            order("fs-gone", 1, 1L, "eu");
            assertThat(next(joined, 1)).containsExactly("1|10");

            Path away = tmp.resolve("stock-away");
            Files.move(table, away);
            Thread.sleep(TTL_MILLIS + 500);
            order("fs-gone", 2, 1L, "eu"); // listing fails: the last good rows serve
            order("fs-gone", 3, 2L, "eu");
            assertThat(next(joined, 2)).containsExactly("2|10", "3|20");

            Files.move(away, table);
            write(table.resolve("part-1.csv"), "1,apple,11\n");
            Files.delete(table.resolve("part-0.csv"));
            Thread.sleep(TTL_MILLIS + 500); // past the retry delay (1 s after one failure)
            order("fs-gone", 4, 1L, "eu");
            order("fs-gone", 5, 2L, "eu"); // gone with the rewrite: an inner join drops it
            order("fs-gone", 6, 1L, "eu");
            assertThat(next(joined, 2)).containsExactly("4|11", "6|11");
            // Flink's lookup cache metrics: the failed reload is counted, the join serves the new load
            assertThat(cacheMetric(job, "loadCount")).isEqualTo(3);
            assertThat(cacheMetric(job, "numLoadFailures")).isEqualTo(1);
            assertThat(cacheMetric(job, "numCachedRecords")).isEqualTo(1);
            assertThat(cacheMetric(job, "hitCount")).isEqualTo(5);
            assertThat(cacheMetric(job, "missCount")).isEqualTo(1);
        }
    }

    /**
     * Flink itself refuses a join as of an event time on a Sluice table (no primary key, no
     * watermark), before anything of Sluice runs: the lookup is for processing time only.
     */
    @Test
    void anEventTimeTemporalJoinIsRefusedByFlink() throws Exception {
        Path table = tmp.resolve("names");
        write(table.resolve("part-0.csv"), "1,apple\n");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        StreamTableEnvironment streaming = StreamTableEnvironment.create(env);
        DataStream<Row> orders = env.fromSource(
                HandFedSource.feed(
                        "fs-event-time",
                        Types.ROW_NAMED(new String[] {"order_id", "ts"}, Types.LONG, Types.LOCAL_DATE_TIME)),
                WatermarkStrategy.noWatermarks(),
                "orders");
        streaming.createTemporaryView(
                "timed_orders",
                orders,
                Schema.newBuilder()
                        .column("order_id", "BIGINT")
                        .column("ts", "TIMESTAMP(3)")
                        .watermark("ts", "ts - INTERVAL '1' SECOND")
                        .build());
        streaming.executeSql(sluiceTable("names", "(id BIGINT, name STRING)", "", table));

        assertThatThrownBy(() -> streaming.explainSql("SELECT o.order_id, n.name FROM timed_orders AS o "
                        + "JOIN names FOR SYSTEM_TIME AS OF o.ts AS n ON o.order_id = n.id"))
                .hasStackTraceContaining("Event-Time Temporal Table Join requires both primary key and row time"
                        + " attribute in versioned table");
    }

    /** A streaming table environment with table {@code orders} (order_id, product_id, region, proctime) fed by the test. */
    private static StreamTableEnvironment streamingWithOrders(String feed) {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
        DataStream<Row> orders = env.fromSource(
                HandFedSource.feed(
                        feed,
                        Types.ROW_NAMED(
                                new String[] {"order_id", "product_id", "region"},
                                Types.LONG,
                                Types.LONG,
                                Types.STRING)),
                WatermarkStrategy.noWatermarks(),
                "orders");
        tEnv.createTemporaryView(
                "orders",
                orders,
                Schema.newBuilder()
                        .column("order_id", "BIGINT")
                        .column("product_id", "BIGINT")
                        .column("region", "STRING")
                        .columnByExpression("proctime", "PROCTIME()")
                        .build());
        return tEnv;
    }

    private static String sluiceTable(String name, String columns, String partitioning, Path path) {
        return "CREATE TABLE " + name + " " + columns + " " + partitioning
                + " WITH ('connector' = 'sluice', 'target' = 'filesystem', "
                + "'sluice.plugins.dir' = '" + FilesystemPluginDir.get() + "', "
                + "'path' = '" + path.toUri() + "', 'format' = 'csv', "
                + "'lookup.join.cache.ttl' = '" + TTL_MILLIS + " ms')";
    }

    /** Writes a file as a sink would publish it: under a hidden name first, then renamed into place. */
    private static void write(Path file, String content) throws IOException {
        Files.createDirectories(file.getParent());
        Path hidden = file.resolveSibling("." + file.getFileName() + ".inprogress");
        Files.write(hidden, content.getBytes(StandardCharsets.UTF_8));
        Files.move(hidden, file, StandardCopyOption.ATOMIC_MOVE);
    }

    private static void order(String feed, long orderId, Long productId, String region) {
        HandFedSource.emit(feed, Row.of(orderId, productId, region));
    }

    /** A metric of the job's lookup cache (group {@code cache}), as a number. */
    private static long cacheMetric(JobID job, String name) {
        for (Map.Entry<MetricGroup, Map<String, Metric>> group :
                METRICS.getMetricsByGroup().entrySet()) {
            if (!job.toString().equals(group.getKey().getAllVariables().get("<job_id>"))
                    || !Arrays.asList(group.getKey().getScopeComponents()).contains("cache")) {
                continue;
            }
            Metric metric = group.getValue().get(name);
            if (metric instanceof Counter) {
                return ((Counter) metric).getCount();
            }
            if (metric instanceof Gauge) {
                return ((Number) ((Gauge<?>) metric).getValue()).longValue();
            }
        }
        throw new AssertionError("No lookup cache metric " + name + " of job " + job);
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
}

package io.sluice.plugin.hive.it;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Bad input to reads of Hive tables: each query fails with an error naming the option and value,
 * or the table, at fault; none reads a wrong row instead. The table's rows stay readable after each.
 */
class HiveReadBadInputIT {

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(2)
                    .build());

    @TempDir
    static Path tmp;

    private static TableEnvironment batch;
    private static TableEnvironment streaming;

    @BeforeAll
    static void aTable() throws Exception {
        HivePluginDir.assumeIntegrationTestPhase();
        String catalog = "CREATE CATALOG h WITH ('type' = 'sluice', 'target' = 'hive', "
                + "'sluice.plugins.dir' = '" + HivePluginDir.get() + "', "
                + "'metastore' = 'embedded', 'metastore.dir' = '" + tmp.resolve("metastore") + "')";
        batch = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        batch.executeSql(catalog);
        batch.executeSql("CREATE DATABASE h.db");
        batch.executeSql("CREATE TABLE h.db.t (id BIGINT, dt STRING) PARTITIONED BY (dt)"
                + " WITH ('hive.storage.file-format' = 'parquet', 'sink.partition-commit.policy.kind' = 'metastore')");
        batch.executeSql("INSERT INTO h.db.t VALUES (1, '2026-12-01'), (2, '2026-12-02')")
                .await();
        batch.executeSql("CREATE TABLE h.db.u (id BIGINT) WITH ('hive.storage.file-format' = 'orc')");
        batch.executeSql("INSERT INTO h.db.u VALUES (3)").await();
        Configuration conf = new Configuration();
        conf.setString("execution.checkpointing.interval", "500 ms");
        conf.setString("restart-strategy.type", "none");
        streaming = TableEnvironment.create(EnvironmentSettings.newInstance()
                .inStreamingMode()
                .withConfiguration(conf)
                .build());
        streaming.executeSql(catalog);
    }

    @Test
    void anUnknownPartitionOrderListsTheOrders() {
        assertThat(streamingError("'streaming-source.partition-order' = 'newest-first'"))
                .contains("streaming-source.partition-order")
                .contains("newest-first")
                .contains("partition-name")
                .contains("create-time")
                .contains("partition-time");
    }

    @Test
    void theDeprecatedConsumeOrderIsCheckedToo() {
        assertThat(streamingError("'streaming-source.consume-order' = 'sideways'"))
                .contains("streaming-source.consume-order")
                .contains("sideways");
    }

    @Test
    void latestWithoutStreamingIsNamed() {
        assertThat(error(batch, "SELECT * FROM h.db.t /*+ OPTIONS('streaming-source.partition.include' = 'latest') */"))
                .contains("streaming-source.partition.include")
                .contains("latest")
                .contains("streaming-source.enable");
    }

    @Test
    void anUnknownPartitionIncludeIsNamed() {
        assertThat(streamingError("'streaming-source.partition.include' = 'some'"))
                .contains("streaming-source.partition.include")
                .contains("'some'");
    }

    @Test
    void latestInAStreamingReadThatIsNoTemporalJoinFailsTheJobNamingTheOption() throws Exception {
        String message = error(
                streaming,
                "SELECT * FROM h.db.t /*+ OPTIONS('streaming-source.enable' = 'true',"
                        + " 'streaming-source.partition.include' = 'latest') */");
        assertThat(message).contains("streaming-source.partition.include").contains("temporal join");
    }

    @Test
    void aMalformedStartPartitionNamesTheTableAndItsKeys() {
        assertThat(streamingError("'streaming-source.consume-start-offset' = '2026-12-01'"))
                .contains("streaming-source.consume-start-offset")
                .contains("2026-12-01")
                .contains("db.t")
                .contains("dt=");
    }

    @Test
    void aMalformedStartTimeNamesTheOption() {
        assertThat(streamingError("'streaming-source.partition-order' = 'partition-time',"
                        + " 'streaming-source.consume-start-offset' = 'dt=2026-12-01'"))
                .contains("streaming-source.consume-start-offset")
                .contains("dt=2026-12-01")
                .contains("timestamp");
        assertThat(streamingError("'streaming-source.partition-order' = 'create-time',"
                        + " 'streaming-source.consume-start-offset' = '2026-13-45 99:00:00'"))
                .contains("streaming-source.consume-start-offset")
                .contains("2026-13-45 99:00:00");
    }

    @Test
    void aNonPositiveMonitorIntervalIsNamed() {
        assertThat(streamingError("'streaming-source.monitor-interval' = '0 s'"))
                .contains("streaming-source.monitor-interval");
    }

    /** Issue 31 read a table every 9,999,999,999 days: a streaming read looks at most a day apart. */
    @Test
    void anAbsurdMonitorIntervalIsNamedWithItsValue() {
        for (String value : new String[] {"9999999999 d", "25 h", "0 ms"}) {
            String error = streamingError("'streaming-source.monitor-interval' = '" + value + "'");
            if (value.equals("9999999999 d")) {
                // past 292 years every duration option's own range applies first
                assertThat(error)
                        .contains("Invalid value '9999999999 d' for option 'streaming-source.monitor-interval'")
                        .contains("at most 106751 d");
            } else {
                assertThat(error)
                        .as(value)
                        .contains("'streaming-source.monitor-interval' '" + value + "'")
                        .contains("at most 1 d");
            }
        }
    }

    @Test
    void aPartitionOrderOfAnUnpartitionedTableIsNamed() {
        assertThat(error(
                        streaming,
                        "SELECT * FROM h.db.u /*+ OPTIONS('streaming-source.enable' = 'true',"
                                + " 'streaming-source.partition-order' = 'partition-time') */"))
                .contains("streaming-source.partition-order")
                .contains("db.u")
                .contains("no partitions");
    }

    @Test
    void aTableThatDoesNotExistIsNamed() {
        assertThat(error(batch, "SELECT * FROM h.db.nowhere")).contains("nowhere");
    }

    @Test
    void aSplitThreadNumOfZeroIsNamed() {
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        tEnv.executeSql("CREATE CATALOG h WITH ('type' = 'sluice', 'target' = 'hive', "
                + "'sluice.plugins.dir' = '" + HivePluginDir.get() + "', "
                + "'metastore' = 'embedded', 'metastore.dir' = '" + tmp.resolve("metastore") + "')");
        tEnv.getConfig().set("table.exec.hive.calculate-partition-size.thread-num", "0");
        assertThat(error(tEnv, "SELECT * FROM h.db.t"))
                .contains("table.exec.hive.calculate-partition-size.thread-num")
                .contains("0");
    }

    private static String streamingError(String options) {
        String message = error(
                streaming, "SELECT * FROM h.db.t /*+ OPTIONS('streaming-source.enable' = 'true', " + options + ") */");
        // and the table reads as before
        assertThat(rows("SELECT id FROM h.db.t")).isEqualTo(2);
        return message;
    }

    /** The error of planning the query, or of running it (in a minute at most). */
    private static String error(TableEnvironment tEnv, String query) {
        org.apache.flink.table.api.TableResult result;
        try {
            result = tEnv.executeSql(query);
        } catch (RuntimeException e) {
            return messages(e);
        }
        Throwable e = catchThrowable(() -> CompletableFuture.runAsync(() -> {
                    try (CloseableIterator<Row> it = result.collect()) {
                        it.forEachRemaining(r -> {});
                    } catch (Exception x) {
                        throw new RuntimeException(x);
                    }
                })
                .get(60, TimeUnit.SECONDS));
        if (e instanceof java.util.concurrent.TimeoutException) {
            result.getJobClient().ifPresent(c -> c.cancel());
            throw new AssertionError("No error in a minute: " + query);
        }
        assertThat(e).as(query).isNotNull();
        return messages(e);
    }

    private static int rows(String query) {
        int n = 0;
        try (CloseableIterator<Row> it = batch.executeSql(query).collect()) {
            while (it.hasNext()) {
                it.next();
                n++;
            }
        } catch (Exception e) {
            throw new RuntimeException(e);
        }
        return n;
    }

    private static String messages(Throwable e) {
        StringBuilder all = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            all.append(t.getMessage()).append('\n');
        }
        return all.toString();
    }
}

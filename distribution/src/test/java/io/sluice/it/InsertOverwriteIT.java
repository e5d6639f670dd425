package io.sluice.it;

import io.sluice.runtime.sink.RollingPolicies;
import io.sluice.runtime.sink.SluiceSink;

import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * {@code INSERT OVERWRITE} on the filesystem target, as Flink's filesystem connector: in BATCH the
 * partitions a statement writes (or the whole unpartitioned table) hold only its rows afterwards,
 * other partitions keep theirs; in STREAMING it is rejected before anything is written.
 */
class InsertOverwriteIT {

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(2)
                    .build());

    @TempDir
    Path tmp;

    private String table(String name, Path path, boolean partitioned) {
        return "CREATE TABLE " + name + " (id INT, dt STRING)" + (partitioned ? " PARTITIONED BY (dt)" : "")
                + " WITH ('connector' = 'sluice', 'target' = 'filesystem', 'path' = '" + path + "', 'format' = 'csv', "
                + "'sluice.plugins.dir' = '" + TestDistribution.pluginsDir() + "')";
    }

    private static List<String> rows(Path path) {
        return CommittedFiles.lines(path).stream().sorted().collect(Collectors.toList());
    }

    @Test
    void overwriteReplacesTheWrittenPartitionsOnly() throws Exception {
        Path out = tmp.resolve("p");
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        tEnv.executeSql(table("t", out, true));
        tEnv.executeSql("INSERT INTO t VALUES (1, 'a'), (2, 'a'), (3, 'b'), (4, 'c')")
                .await();
        tEnv.executeSql("INSERT INTO t VALUES (5, 'a')").await();

        // dynamic: partitions a and b are replaced, c keeps its row
        tEnv.executeSql("INSERT OVERWRITE t VALUES (10, 'a'), (11, 'b')").await();
        assertThat(CommittedFiles.lines(out.resolve("dt=a"))).containsExactly("10");
        assertThat(CommittedFiles.lines(out.resolve("dt=b"))).containsExactly("11");
        assertThat(CommittedFiles.lines(out.resolve("dt=c"))).containsExactly("4");

        // static: PARTITION (dt = 'c')
        tEnv.executeSql("INSERT OVERWRITE t PARTITION (dt = 'c') SELECT 20").await();
        assertThat(CommittedFiles.lines(out.resolve("dt=c"))).containsExactly("20");
        assertThat(CommittedFiles.lines(out.resolve("dt=a"))).containsExactly("10");
    }

    @Test
    void overwriteOfAnUnpartitionedTableReplacesEverything() throws Exception {
        Path out = tmp.resolve("u");
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        tEnv.executeSql(table("u", out, false));
        tEnv.executeSql("INSERT INTO u VALUES (1, 'x'), (2, 'y')").await();
        tEnv.executeSql("INSERT INTO u VALUES (3, 'z')").await();
        tEnv.executeSql("INSERT OVERWRITE u VALUES (7, 'n')").await();
        assertThat(rows(out)).containsExactly("7,n");
    }

    @Test
    void overwriteIsRejectedInStreaming() throws Exception {
        Path out = tmp.resolve("s");
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        tEnv.executeSql(table("s", out, false));
        Throwable t = catchThrowable(
                () -> tEnv.executeSql("INSERT OVERWRITE s VALUES (1, 'x')").await());
        assertThat(ExceptionUtils.stringifyException(t))
                .contains("INSERT OVERWRITE")
                .contains("STREAMING");
        assertThat(CommittedFiles.visible(out)).isEmpty();
    }

    @Test
    void dataStreamOverwriteInStreamingFailsBeforeTheFirstCommit() throws Exception {
        Path out = tmp.resolve("d");
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        tEnv.executeSql(table("d", out, false));
        tEnv.executeSql("INSERT INTO d VALUES (1, 'kept')").await();

        Configuration conf = new Configuration();
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setRuntimeMode(RuntimeExecutionMode.STREAMING);
        env.enableCheckpointing(50);
        RowType type = RowType.of(new LogicalType[] {new IntType()}, new String[] {"id"});
        env.fromSequence(1, Long.MAX_VALUE)
                .map(i -> (RowData) GenericRowData.of(i.intValue()))
                .returns(InternalTypeInfo.of(type))
                .sinkTo(SluiceSink.forRowData(type)
                        .withTarget("filesystem")
                        .withPath(out.toString())
                        .withFormat("csv")
                        .withPluginsDir(TestDistribution.pluginsDir())
                        .withOverwrite(true)
                        // a file per checkpoint: the first checkpoint already has something to commit
                        .withRollingPolicy(RollingPolicies.onCheckpoint())
                        .build());
        Throwable t = catchThrowable(() -> env.execute("overwrite in streaming"));
        assertThat(ExceptionUtils.stringifyException(t)).contains("needs bounded input run in BATCH mode");
        assertThat(rows(out)).containsExactly("1,kept");
    }
}

package io.sluice.runtime.sink.dynamic;

import io.sluice.runtime.adapt.RowAdapters;
import io.sluice.runtime.plugin.PluginSettings;
import io.sluice.runtime.sink.SluiceSink;
import io.sluice.runtime.sink.commit.CommitAggregator;

import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.jobgraph.JobVertex;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamEdge;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.flink.streaming.api.graph.StreamNode;
import org.apache.flink.streaming.api.operators.SimpleOperatorFactory;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.Row;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@link CommitAggregator} counts on aligned barriers on the exchanges into and out of it (a
 * writer's committable of checkpoint n arrives before n's barrier): every such edge refuses
 * unaligned checkpoints, also in a job that enables them, for the dynamic sink (which builds its
 * topology itself) and for the single-table sink (whose topology Flink's sink translator builds),
 * from the DataStream API and from SQL.
 */
class AlignedCommittableEdgesTest {

    private static final RowType ROW = RowType.of(new LogicalType[] {new BigIntType()}, new String[] {"id"});

    @TempDir
    Path pluginsDir;

    @TempDir
    Path warehouse;

    @BeforeEach
    void plugin() throws IOException {
        DirTables.build(pluginsDir);
    }

    @Test
    void theDynamicSinksCommittablesPassOnlyAlignedBarriers() {
        StreamExecutionEnvironment env = withUnalignedCheckpoints();
        DynamicSink.forInput(env.fromSequence(1, 10))
                .generator((id, out) -> {})
                .target(DirTables.TARGET)
                .pluginsDir(pluginsDir)
                .catalog(Map.of("path", warehouse.toString()))
                .writeParallelism(3)
                .append();

        StreamGraph graph = graph(env);
        StreamNode aggregator = aggregatorOf(graph);
        // the shuffled writer and the forward writer in, the end of the sink out
        assertThat(aggregator.getInEdges()).hasSize(2);
        assertThat(aggregator.getOutEdges()).hasSize(1);
        assertAlignedOnly(aggregator);
        // and the end still runs in the aggregator's task
        assertThat(graph.getJobGraph().getVertices())
                .filteredOn(vertex -> vertex.getName().contains("Dynamic commit"))
                .singleElement()
                .extracting(JobVertex::getName)
                .asString()
                .contains("Dynamic sink");
    }

    @Test
    void theSingleTableSinksCommittablesPassOnlyAlignedBarriers() {
        StreamExecutionEnvironment env = withUnalignedCheckpoints();
        SluiceSink sink = SluiceSink.forRowData(ROW)
                .withTarget(DirTables.TARGET)
                .withPluginsDir(pluginsDir)
                .withOption("path", warehouse.toString())
                .build();
        SluiceSink.sinkTo(
                env.fromData(Types.ROW_NAMED(new String[] {"id"}, Types.LONG), Row.of(1L), Row.of(2L)),
                RowAdapters.forRow(ROW),
                sink);

        StreamNode aggregator = aggregatorOf(graph(env));
        assertThat(aggregator.getInEdges()).hasSize(1);
        assertThat(aggregator.getOutEdges()).hasSize(1);
        assertAlignedOnly(aggregator);
    }

    @Test
    void anSqlInsertsCommittablesPassOnlyAlignedBarriers() {
        StreamExecutionEnvironment env = withUnalignedCheckpoints();
        StreamTableEnvironment tables = StreamTableEnvironment.create(env);
        tables.executeSql("CREATE TABLE t (id BIGINT) WITH ('connector' = 'sluice', 'target' = '" + DirTables.TARGET
                + "', 'path' = '" + warehouse + "', '" + PluginSettings.PLUGINS_DIR + "' = '" + pluginsDir + "')");
        tables.createStatementSet()
                .addInsertSql("INSERT INTO t VALUES (1), (2)")
                .attachAsDataStream();

        StreamNode aggregator = aggregatorOf(graph(env));
        assertThat(aggregator.getInEdges()).hasSize(1);
        assertThat(aggregator.getOutEdges()).hasSize(1);
        assertAlignedOnly(aggregator);
    }

    /**
     * Unaligned checkpoints, forced: Flink refuses a job of custom partitioners (the dynamic
     * sink's router to its writers) with them unless forced, and forcing changes no edge.
     */
    private static StreamExecutionEnvironment withUnalignedCheckpoints() {
        Configuration conf = new Configuration();
        conf.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofSeconds(1));
        conf.set(CheckpointingOptions.ENABLE_UNALIGNED, true);
        conf.set(CheckpointingOptions.FORCE_UNALIGNED, true);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(4);
        return env;
    }

    private static StreamGraph graph(StreamExecutionEnvironment env) {
        StreamGraph graph = env.getStreamGraph();
        assertThat(graph.getCheckpointConfig().isUnalignedCheckpointsEnabled())
                .as("the job takes unaligned checkpoints")
                .isTrue();
        return graph;
    }

    private static StreamNode aggregatorOf(StreamGraph graph) {
        List<StreamNode> aggregators = graph.getStreamNodes().stream()
                .filter(node -> node.getOperatorFactory() instanceof SimpleOperatorFactory
                        && ((SimpleOperatorFactory<?>) node.getOperatorFactory()).getOperator()
                                instanceof CommitAggregator)
                .collect(Collectors.toList());
        assertThat(aggregators).as("the job's commit aggregators").hasSize(1);
        return aggregators.get(0);
    }

    private static void assertAlignedOnly(StreamNode aggregator) {
        for (StreamEdge edge : aggregator.getInEdges()) {
            assertThat(edge.supportsUnalignedCheckpoints())
                    .as("edge into the aggregator %s (%s)", edge, edge.getPartitioner())
                    .isFalse();
        }
        for (StreamEdge edge : aggregator.getOutEdges()) {
            assertThat(edge.supportsUnalignedCheckpoints())
                    .as("edge out of the aggregator %s (%s)", edge, edge.getPartitioner())
                    .isFalse();
        }
    }
}

package io.sluice.it;

import io.sluice.runtime.sink.SluiceSink;
import io.sluice.runtime.source.file.SluiceFileSource;

import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.flink.runtime.jobgraph.JobVertex;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamConfig;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.util.InstantiationUtil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The job graph of a Sluice source and sink holds descriptors only, never a plugin class (ARCHITECTURE.md rule
 * 2): the whole serialized graph names no plugin package, and every operator deserializes in a
 * fresh class loader that has the framework and Flink but no plugin.
 */
class JobGraphIsolationIT {

    @TempDir
    Path tmp;

    /** Deserializes the operator factory of a vertex in {@code loader}, returning its class name. */
    private static String operatorFactoryIn(StreamConfig config, ClassLoader loader) throws Exception {
        Object factory = InstantiationUtil.readObjectFromConfig(config.getConfiguration(), "serializedUDF", loader);
        assertThat(factory.getClass().getClassLoader()).isSameAs(loader);
        return factory.getClass().getName();
    }

    @Test
    void jobGraphDeserializesWithoutAnyPlugin() throws Exception {
        RowType rowType = RowType.of(new LogicalType[] {new BigIntType()}, new String[] {"id"});
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.enableCheckpointing(1000);
        // a continuous Sluice source next to the sink: both hold descriptors only
        env.fromSource(
                        SluiceFileSource.forRowData(rowType)
                                .withPluginsDir(TestDistribution.pluginsDir())
                                .withPath(tmp.resolve("in").toString())
                                .withFormat("csv")
                                .monitorContinuously(java.time.Duration.ofSeconds(1))
                                .build(),
                        org.apache.flink.api.common.eventtime.WatermarkStrategy.noWatermarks(),
                        "files")
                .sinkTo(SluiceSink.forRowData(rowType)
                        .withTarget("filesystem")
                        .withPluginsDir(TestDistribution.pluginsDir())
                        .withPath(tmp.toString())
                        .withFormat("parquet")
                        .withOption("sink.partition-commit.policy.kind", "success-file")
                        .build());
        JobGraph jobGraph = env.getStreamGraph().getJobGraph();

        byte[] bytes = InstantiationUtil.serializeObject(jobGraph);
        String text = new String(bytes, StandardCharsets.ISO_8859_1);
        assertThat(text).doesNotContain("io.sluice.plugin").doesNotContain("io/sluice/plugin");

        List<URL> urls = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            urls.add(new File(entry).toURI().toURL());
        }
        try (URLClassLoader noPlugins =
                new URLClassLoader(urls.toArray(new URL[0]), ClassLoader.getPlatformClassLoader())) {
            assertThat(noPlugins.getResource("io/sluice/plugin/filesystem/FileSystemTargetFactory.class"))
                    .isNull();
            // the graph itself in the application loader (no plugin on it either), its operators in the fresh one
            JobGraph restored = InstantiationUtil.deserializeObject(bytes, JobGraphIsolationIT.class.getClassLoader());
            assertThat(JobGraphIsolationIT.class
                            .getClassLoader()
                            .getResource("io/sluice/plugin/filesystem/FileSystemTargetFactory.class"))
                    .isNull();
            List<String> factories = new ArrayList<>();
            for (JobVertex vertex : restored.getVertices()) {
                StreamConfig config = new StreamConfig(vertex.getConfiguration());
                factories.add(operatorFactoryIn(config, noPlugins));
                for (StreamConfig chained : config.getTransitiveChainedTaskConfigs(
                                getClass().getClassLoader())
                        .values()) {
                    factories.add(operatorFactoryIn(chained, noPlugins));
                }
            }
            // source, writer, aggregator and committer operators all came back
            assertThat(factories)
                    .anyMatch(f -> f.contains("SourceOperatorFactory"))
                    .anyMatch(f -> f.contains("SinkWriterOperatorFactory"))
                    .anyMatch(f -> f.contains("CommitterOperatorFactory"))
                    .anyMatch(f -> f.contains("CommitAggregator") || f.contains("SimpleOperatorFactory"));
        }
    }
}

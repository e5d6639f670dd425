package io.sluice.testservers.readme;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSource;
import org.apache.flink.streaming.util.TestStreamEnvironment;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The environment a README example gets: a MiniCluster's, with the example compiled by {@link
 * ReadmeJavaExamples} as the job's jar, at parallelism 2. It remembers the streams the example
 * reads with {@code fromSource}, so that a test can run and read what a source example builds
 * (such an example ends without executing anything).
 */
public final class RecordingEnvironment extends TestStreamEnvironment {

    private final List<DataStream<?>> sources = new ArrayList<>();

    public RecordingEnvironment(MiniCluster cluster, Path jar) {
        super(cluster, new Configuration(), 2, List.of(new org.apache.flink.core.fs.Path(jar.toUri())), List.of());
    }

    @Override
    public <OUT> DataStreamSource<OUT> fromSource(
            Source<OUT, ?, ?> source, WatermarkStrategy<OUT> timestampsAndWatermarks, String sourceName) {
        DataStreamSource<OUT> stream = super.fromSource(source, timestampsAndWatermarks, sourceName);
        sources.add(stream);
        return stream;
    }

    /** The streams read with {@code fromSource} since the last {@link #forgetSources()}, in order. */
    public List<DataStream<?>> sources() {
        return List.copyOf(sources);
    }

    /** Forgets the sources added so far: those the test made for the example are not the example's. */
    public void forgetSources() {
        sources.clear();
    }
}

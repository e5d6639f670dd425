package io.sluice.runtime.source.file;

import io.sluice.runtime.config.FileSourceOptions;

import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.file.src.FileSourceSplit;
import org.apache.flink.connector.file.src.enumerate.FileEnumerator;
import org.apache.flink.core.fs.Path;

import java.time.Duration;
import java.util.Map;

/**
 * Test support: the split enumerator of a continuous {@link SluiceFileSource}, created and restored
 * exactly as a job does, but around a {@link FileEnumerator} the caller made (no plugin loading)
 * and a {@link SplitEnumeratorContext} the caller drives. It lets a plugin's enumerator be checked
 * against the framework's seen-files bookkeeping in-process; {@code sluice-testkit} uses it. Not
 * meant for jobs.
 *
 * <p>It exists so the enumerator itself, its seen-files state and its constructor can stay
 * package-private: this class widens the API by two factory methods, nothing more.
 */
public final class EnumeratorHarness {

    /** Used when the options set none; the caller's context decides when listings really run. */
    private static final Duration DEFAULT_TEST_INTERVAL = Duration.ofSeconds(1);

    private EnumeratorHarness() {}

    /**
     * A new continuous enumerator. Call {@link SplitEnumerator#start()} to register its periodic
     * listing with the context.
     *
     * @param options the source's options; {@code source.monitor-lookback} applies as in a job, and
     *     {@code source.monitor-interval} defaults to one second when absent
     */
    public static SplitEnumerator<FileSourceSplit, EnumeratorState> continuous(
            SplitEnumeratorContext<FileSourceSplit> context,
            FileEnumerator fileEnumerator,
            Path[] paths,
            Map<String, String> options) {
        return FileSplitEnumerator.continuous(context, fileEnumerator, paths, configuration(options), null);
    }

    /**
     * A continuous enumerator restored from checkpointed state (as {@link
     * EnumeratorStateSerializer} reads it back), with a fresh {@link FileEnumerator} as a restored
     * job would create.
     */
    public static SplitEnumerator<FileSourceSplit, EnumeratorState> restoreContinuous(
            SplitEnumeratorContext<FileSourceSplit> context,
            FileEnumerator fileEnumerator,
            Path[] paths,
            Map<String, String> options,
            EnumeratorState checkpoint) {
        return FileSplitEnumerator.continuous(context, fileEnumerator, paths, configuration(options), checkpoint);
    }

    private static Configuration configuration(Map<String, String> options) {
        Configuration configuration = Configuration.fromMap(options);
        if (!configuration.contains(FileSourceOptions.MONITOR_INTERVAL)) {
            configuration.set(FileSourceOptions.MONITOR_INTERVAL, DEFAULT_TEST_INTERVAL);
        }
        return configuration;
    }
}

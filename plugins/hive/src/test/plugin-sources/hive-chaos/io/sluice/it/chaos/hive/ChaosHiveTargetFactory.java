package io.sluice.it.chaos.hive;

import io.sluice.spi.Payload;
import io.sluice.spi.compact.CompactionSupport;
import io.sluice.spi.dynamic.DynamicTableSupport;
import io.sluice.spi.partition.PartitionSupport;
import io.sluice.spi.sink.CommitRequest;
import io.sluice.spi.sink.OverwriteSupport;
import io.sluice.spi.sink.PendingCommit;
import io.sluice.spi.sink.RecordContext;
import io.sluice.spi.sink.SinkContext;
import io.sluice.spi.sink.TargetCommitter;
import io.sluice.spi.sink.TargetFactory;
import io.sluice.spi.sink.TargetWriter;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.RowData;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Test plugin: the {@code hive} target of the hive plugin, reached through the extension lookup,
 * with failures injected once each (a marker file in {@code chaos.marker-dir} remembers that a
 * failure happened, across restarts): in the writer, after {@code chaos.writer.fail-after-records}
 * records and once a commit has made files visible; inside the commit, on the
 * {@code chaos.commit.fail-at}-th non-empty commit, before the real commit published the files or
 * right after it did. Every non-empty commit that succeeded appends its checkpoint to
 * {@code commits}. Test code only: compiled by the integration tests, never shipped.
 */
@org.pf4j.Extension
public class ChaosHiveTargetFactory implements TargetFactory {

    static final ConfigOption<String> MARKER_DIR =
            ConfigOptions.key("chaos.marker-dir").stringType().noDefaultValue();
    static final ConfigOption<Long> FAIL_AFTER_RECORDS =
            ConfigOptions.key("chaos.writer.fail-after-records").longType().noDefaultValue();
    /** {@code before} or {@code after} the hive committer's commit. */
    static final ConfigOption<String> FAIL_IN_COMMIT =
            ConfigOptions.key("chaos.commit.fail").stringType().noDefaultValue();

    static final ConfigOption<Integer> FAIL_AT_COMMIT =
            ConfigOptions.key("chaos.commit.fail-at").intType().defaultValue(2);
    /** Read by {@link ChaosMetastorePolicyFactory}: the n-th partition it commits fails once; unset: none fails. */
    static final ConfigOption<Integer> FAIL_AT_PARTITION =
            ConfigOptions.key("chaos.policy.fail-at").intType().noDefaultValue();

    /** The hive target's and hive catalog's options, passed on untouched. */
    private static final String[] HIVE_KEYS = {
        "catalog-name",
        "catalog-database",
        "catalog-table",
        "hive-conf-dir",
        "default-database",
        "hive-version",
        "hadoop-conf-dir",
        "metastore",
        "metastore.dir",
        "sink.rolling-policy.file-size"
    };

    @Override
    public String identifier() {
        return "chaos-hive";
    }

    @Override
    public Set<ConfigOption<?>> requiredOptions() {
        return new HashSet<>(Set.of(MARKER_DIR));
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        Set<ConfigOption<?>> options = new HashSet<>();
        for (String key : HIVE_KEYS) {
            options.add(ConfigOptions.key(key).stringType().noDefaultValue());
        }
        options.add(FAIL_AFTER_RECORDS);
        options.add(FAIL_IN_COMMIT);
        options.add(FAIL_AT_COMMIT);
        options.add(FAIL_AT_PARTITION);
        return options;
    }

    private static TargetFactory delegate(SinkContext context) {
        return context.extensions().find(TargetFactory.class, "hive");
    }

    @Override
    public void validate(SinkContext context) {
        delegate(context).validate(context);
    }

    @Override
    public Optional<OverwriteSupport> overwrite() {
        return Optional.of(new OverwriteSupport() {});
    }

    @Override
    public Optional<PartitionSupport> partitions() {
        return Optional.of(new PartitionSupport() {});
    }

    /** The hive table's format picks the compactor, as for the hive target itself. */
    @Override
    public Optional<CompactionSupport> compaction() {
        return Optional.of(new CompactionSupport() {
            @Override
            public Optional<String> fileFormat(SinkContext context) {
                return delegate(context).compaction().orElseThrow().fileFormat(context);
            }
        });
    }

    /** The hive target's: its tables written through this target's failing writers and committers. */
    @Override
    public Optional<DynamicTableSupport> dynamicTables() {
        return Optional.of(
                context -> delegate(context).dynamicTables().orElseThrow().open(context));
    }

    @Override
    public TargetWriter createWriter(SinkContext context, List<Payload> restoredState) throws IOException {
        TargetWriter writer = delegate(context).createWriter(context, restoredState);
        Long failAfter = context.options().getOptional(FAIL_AFTER_RECORDS).orElse(null);
        if (failAfter == null) {
            return writer;
        }
        java.nio.file.Path markers = Paths.get(context.options().get(MARKER_DIR));
        return new TargetWriter() {
            long count;

            @Override
            public void write(RowData row, RecordContext ctx) throws IOException {
                writer.write(row, ctx);
                if (++count >= failAfter
                        && Files.exists(markers.resolve("commits"))
                        && claim(
                                markers.resolve("writer-failed"),
                                "subtask " + context.subtaskIndex() + " after " + count + " records")) {
                    throw new IOException("chaos: injected writer failure after " + count + " records");
                }
            }

            @Override
            public List<PendingCommit> prepareCommit(boolean endOfInput) throws IOException {
                return writer.prepareCommit(endOfInput);
            }

            @Override
            public List<Payload> snapshotState(long checkpointId) throws IOException {
                return writer.snapshotState(checkpointId);
            }

            @Override
            public long processingTimeInterval() {
                return writer.processingTimeInterval();
            }

            @Override
            public void onProcessingTime(long currentTime) throws IOException {
                writer.onProcessingTime(currentTime);
            }

            @Override
            public void close() throws Exception {
                writer.close();
            }
        };
    }

    @Override
    public TargetCommitter createCommitter(SinkContext context) throws IOException {
        TargetCommitter committer = delegate(context).createCommitter(context);
        String mode = context.options().getOptional(FAIL_IN_COMMIT).orElse("none");
        int failAt = context.options().get(FAIL_AT_COMMIT);
        java.nio.file.Path markers = Paths.get(context.options().get(MARKER_DIR));
        return new TargetCommitter() {
            int commits;

            @Override
            public void commit(CommitRequest request) throws IOException {
                // with compaction, files come as units (and no pending file)
                boolean nonEmpty =
                        !request.pending().isEmpty() || !request.compactions().isEmpty();
                boolean fail = nonEmpty && ++commits >= failAt && !Files.exists(markers.resolve("commit-failed"));
                if (fail
                        && mode.equals("before")
                        && claim(markers.resolve("commit-failed"), "before checkpoint " + request.checkpointId())) {
                    throw new IOException(
                            "chaos: injected failure before the hive commit of checkpoint " + request.checkpointId());
                }
                committer.commit(request);
                if (nonEmpty) {
                    append(markers.resolve("commits"), String.valueOf(request.checkpointId()));
                }
                if (fail
                        && mode.equals("after")
                        && claim(markers.resolve("commit-failed"), "after checkpoint " + request.checkpointId())) {
                    throw new IOException("chaos: injected failure after the hive commit of checkpoint "
                            + request.checkpointId() + " published its files");
                }
            }

            @Override
            public Optional<Path> partitionLocation(String partitionId) throws IOException {
                return committer.partitionLocation(partitionId);
            }

            @Override
            public List<Path> visibleFiles(String partitionId) throws IOException {
                return committer.visibleFiles(partitionId);
            }

            @Override
            public void close() throws Exception {
                committer.close();
            }
        };
    }

    /** Creates the marker with {@code what} in it; false if it existed (the failure happened already). */
    static boolean claim(java.nio.file.Path marker, String what) throws IOException {
        Files.createDirectories(marker.getParent());
        try {
            Files.write(marker, what.getBytes(StandardCharsets.UTF_8), StandardOpenOption.CREATE_NEW);
            return true;
        } catch (FileAlreadyExistsException already) {
            return false;
        }
    }

    static synchronized void append(java.nio.file.Path file, String line) throws IOException {
        Files.createDirectories(file.getParent());
        Files.write(
                file,
                (line + "\n").getBytes(StandardCharsets.UTF_8),
                StandardOpenOption.CREATE,
                StandardOpenOption.APPEND);
    }
}

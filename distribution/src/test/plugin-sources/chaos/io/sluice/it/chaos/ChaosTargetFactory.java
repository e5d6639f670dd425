package io.sluice.it.chaos;

import io.sluice.spi.Payload;
import io.sluice.spi.compact.CompactionSupport;
import io.sluice.spi.distribution.DistributionKey;
import io.sluice.spi.distribution.DistributionMode;
import io.sluice.spi.distribution.DistributionSupport;
import io.sluice.spi.dynamic.DynamicTableSupport;
import io.sluice.spi.dynamic.DynamicTables;
import io.sluice.spi.partition.PartitionSupport;
import io.sluice.spi.sink.CommitRequest;
import io.sluice.spi.sink.PendingCommit;
import io.sluice.spi.sink.RecordContext;
import io.sluice.spi.sink.SinkContext;
import io.sluice.spi.sink.TargetCommitter;
import io.sluice.spi.sink.TargetFactory;
import io.sluice.spi.sink.TargetWriter;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.table.data.RowData;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Test plugin: the {@code filesystem} target of another plugin, reached through the extension
 * lookup, with failures injected once each (a marker file remembers that the failure happened):
 * in the writer after a commit has made files visible, or inside the commit before or after the
 * real commit ran.
 */
@org.pf4j.Extension
public class ChaosTargetFactory implements TargetFactory {

    static final ConfigOption<Long> FAIL_AFTER_RECORDS =
            ConfigOptions.key("chaos.writer.fail-after-records").longType().noDefaultValue();
    static final ConfigOption<Boolean> FAIL_AFTER_COMMIT =
            ConfigOptions.key("chaos.writer.wait-for-commit").booleanType().defaultValue(true);

    /**
     * Whether the writers of the attempt that failed end as a killed process's would: not closed,
     * so what they began after the last checkpoint is left for the next attempt to find.
     */
    static final ConfigOption<Boolean> FAIL_AS_KILLED =
            ConfigOptions.key("chaos.writer.fail-as-killed").booleanType().defaultValue(false);

    /** Only writers whose rows have this column fail (a table's writer of a later schema). */
    static final ConfigOption<String> FAIL_WITH_COLUMN =
            ConfigOptions.key("chaos.writer.fail-with-column").stringType().noDefaultValue();

    static final ConfigOption<String> FAIL_IN_COMMIT =
            ConfigOptions.key("chaos.commit.fail").stringType().noDefaultValue();
    /** 'non-recoverable': the writer's creation throws the SPI's NonRecoverableException, every time. */
    static final ConfigOption<String> FAIL_CREATE =
            ConfigOptions.key("chaos.writer.create-fail").stringType().noDefaultValue();

    static final ConfigOption<String> MARKER_DIR =
            ConfigOptions.key("chaos.marker-dir").stringType().noDefaultValue();

    private static final String[] FILESYSTEM_KEYS = {
        "path",
        "format",
        "sink.bucket-assigner",
        "sink.rolling-policy.kind",
        "sink.rolling-policy.file-size",
        "sink.rolling-policy.rollover-interval",
        "sink.rolling-policy.inactivity-interval",
        "sink.rolling-policy.check-interval",
        "sink.part-file.prefix",
        "sink.part-file.suffix",
        "partition.default-name",
        "sink.partition-commit.success-file.name",
        "sink.bucket-assigner.date-time.format",
        "sink.bucket-assigner.date-time.time-zone",
        "sink.writer.memory-budget"
    };

    @Override
    public String identifier() {
        return "chaos-filesystem";
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        Set<ConfigOption<?>> options = new HashSet<>();
        for (String key : FILESYSTEM_KEYS) {
            options.add(ConfigOptions.key(key).stringType().noDefaultValue());
        }
        options.add(FAIL_AFTER_RECORDS);
        options.add(FAIL_IN_COMMIT);
        options.add(FAIL_AFTER_COMMIT);
        options.add(MARKER_DIR);
        options.add(FAIL_CREATE);
        options.add(FAIL_AS_KILLED);
        options.add(FAIL_WITH_COLUMN);
        return options;
    }

    private static TargetFactory delegate(SinkContext context) {
        return context.extensions().find(TargetFactory.class, "filesystem");
    }

    /** The filesystem target's distribution, asked through it. */
    private static DistributionSupport distribution(SinkContext context) {
        return delegate(context).distribution().orElseThrow();
    }

    private static final DistributionSupport DISTRIBUTION = new DistributionSupport() {
        @Override
        public Set<DistributionMode> modes(SinkContext context) {
            return distribution(context).modes(context);
        }

        @Override
        public Optional<DistributionMode> tableMode(SinkContext context) {
            return distribution(context).tableMode(context);
        }

        @Override
        public DistributionKey key(SinkContext context) {
            return distribution(context).key(context);
        }

        @Override
        public DistributionKey rangeKey(SinkContext context) {
            return distribution(context).rangeKey(context);
        }
    };

    /** The filesystem target's: its tables written through this target's failing writers and committers. */
    private static final DynamicTableSupport DYNAMIC_TABLES = new DynamicTableSupport() {
        @Override
        public DynamicTables open(SinkContext context) throws IOException {
            return delegate(context).dynamicTables().orElseThrow().open(context);
        }

        /** As the filesystem target: its part files tell a table's writers apart by their opening. */
        @Override
        public boolean supportsWriterOpenings() {
            return true;
        }
    };

    @Override
    public Optional<DistributionSupport> distribution() {
        return Optional.of(DISTRIBUTION);
    }

    /** Partition commit and compaction as the filesystem target's (the facets' defaults suffice). */
    @Override
    public Optional<PartitionSupport> partitions() {
        return Optional.of(new PartitionSupport() {});
    }

    @Override
    public Optional<CompactionSupport> compaction() {
        return Optional.of(new CompactionSupport() {});
    }

    @Override
    public Optional<DynamicTableSupport> dynamicTables() {
        return Optional.of(DYNAMIC_TABLES);
    }

    @Override
    public void validate(SinkContext context) {
        delegate(context).validate(context);
    }

    @Override
    public TargetWriter createWriter(SinkContext context, List<Payload> restoredState) throws IOException {
        if (context.options().getOptional(FAIL_CREATE).isPresent()) {
            throw new io.sluice.spi.NonRecoverableException("chaos: the writer cannot be created, and never will");
        }
        TargetWriter writer = delegate(context).createWriter(context, restoredState);
        Long failAfter = context.options().getOptional(FAIL_AFTER_RECORDS).orElse(null);
        if (failAfter == null) {
            return writer;
        }
        Path marker = Paths.get(context.options().get(MARKER_DIR), "writer-failed");
        boolean waitForCommit = context.options().get(FAIL_AFTER_COMMIT);
        boolean asKilled = context.options().get(FAIL_AS_KILLED);
        boolean mayFail = context.options()
                .getOptional(FAIL_WITH_COLUMN)
                .map(column -> context.rowType().getFieldNames().contains(column))
                .orElse(true);
        String path =
                context.options().get(ConfigOptions.key("path").stringType().noDefaultValue());
        return new TargetWriter() {
            long count;
            long lastLook;
            boolean endOfInput;

            @Override
            public void write(RowData row, RecordContext ctx) throws IOException {
                writer.write(row, ctx);
                // whichever subtask gets there first fails, once: splits go to whoever asks first,
                // so one subtask may see all the records
                if (++count >= failAfter && mayFail) {
                    failOnce();
                }
            }

            private void failOnce() throws IOException {
                if (Files.exists(marker) || (waitForCommit && !committedYet())) {
                    return;
                }
                Files.createDirectories(marker.getParent());
                try {
                    Files.createFile(marker);
                } catch (java.nio.file.FileAlreadyExistsException another) {
                    return;
                }
                throw new IOException("chaos: injected writer failure after " + count + " records");
            }

            /** Whether a file is visible in the table yet; on a remote store at most every 100 ms. */
            private boolean committedYet() throws IOException {
                long now = System.currentTimeMillis();
                if (now - lastLook < 100) {
                    return false;
                }
                lastLook = now;
                return hasVisibleFile(path);
            }

            @Override
            public List<PendingCommit> prepareCommit(boolean endOfInput) throws IOException {
                this.endOfInput |= endOfInput;
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
                // a writer closed before the end of its input after the failure is one of the
                // failed attempt's (or an idle one, which has nothing open): a killed process
                // closes nothing
                if (asKilled && !endOfInput && Files.exists(marker)) {
                    return;
                }
                writer.close();
            }
        };
    }

    /**
     * Whether the table at {@code path} has a visible file: a plain local path or a URI of a file
     * system over local files (file:, the campaign's faulty:) is walked locally, any other store
     * (s3a:, hdfs:) through Flink's file system.
     */
    static boolean hasVisibleFile(String path) throws IOException {
        String scheme = path.contains(":") ? java.net.URI.create(path).getScheme() : null;
        if (scheme != null && !scheme.equals("file") && !scheme.equals("faulty")) {
            return hasVisibleFile(new org.apache.flink.core.fs.Path(path));
        }
        Path base = Paths.get(scheme != null ? java.net.URI.create(path).getPath() : path);
        if (!Files.isDirectory(base)) {
            return false;
        }
        try (Stream<Path> files = Files.walk(base)) {
            return files.anyMatch(p -> Files.isRegularFile(p)
                    && !p.getFileName().toString().startsWith(".")
                    && !p.getFileName().toString().startsWith("_"));
        }
    }

    private static boolean hasVisibleFile(org.apache.flink.core.fs.Path dir) throws IOException {
        org.apache.flink.core.fs.FileSystem fs = dir.getFileSystem();
        if (!fs.exists(dir)) {
            return false;
        }
        for (org.apache.flink.core.fs.FileStatus status : fs.listStatus(dir)) {
            String name = status.getPath().getName();
            if (name.startsWith(".") || name.startsWith("_")) {
                continue;
            }
            if (!status.isDir() || hasVisibleFile(status.getPath())) {
                return true;
            }
        }
        return false;
    }

    @Override
    public TargetCommitter createCommitter(SinkContext context) throws IOException {
        TargetCommitter committer = delegate(context).createCommitter(context);
        String mode = context.options().getOptional(FAIL_IN_COMMIT).orElse(null);
        if (mode == null) {
            return committer;
        }
        Path marker = Paths.get(context.options().get(MARKER_DIR), "commit-failed");
        return new TargetCommitter() {
            int commits;

            @Override
            public void commit(CommitRequest request) throws IOException {
                // the second non-empty commit of the job fails once: a checkpoint has completed before
                boolean empty =
                        request.pending().isEmpty() && request.compactions().isEmpty();
                boolean fail = !empty && ++commits >= 2 && !Files.exists(marker);
                if (!empty && mode.equals("every")) {
                    // also a BATCH job's one commit, at the end of input
                    throw new IOException("chaos: every commit fails");
                }
                if (fail && mode.equals("non-recoverable")) {
                    throw new io.sluice.spi.NonRecoverableException("chaos: this commit fails on every attempt");
                }
                if (fail && mode.equals("before")) {
                    inject(marker, "before");
                }
                committer.commit(request);
                if (fail && mode.equals("after")) {
                    inject(marker, "after");
                }
            }

            // partition commit asks the target for its directories: the filesystem target's, unchanged
            @Override
            public java.util.Optional<org.apache.flink.core.fs.Path> partitionLocation(String partitionId)
                    throws IOException {
                return committer.partitionLocation(partitionId);
            }

            @Override
            public List<org.apache.flink.core.fs.Path> visibleFiles(String partitionId) throws IOException {
                return committer.visibleFiles(partitionId);
            }

            @Override
            public void discard(List<io.sluice.spi.sink.PendingCommit> pending) throws IOException {
                committer.discard(pending);
            }

            @Override
            public void close() throws Exception {
                committer.close();
            }
        };
    }

    private static void inject(Path marker, String when) throws IOException {
        Files.createDirectories(marker.getParent());
        Files.createFile(marker);
        throw new IOException("chaos: injected failure " + when + " the commit");
    }
}

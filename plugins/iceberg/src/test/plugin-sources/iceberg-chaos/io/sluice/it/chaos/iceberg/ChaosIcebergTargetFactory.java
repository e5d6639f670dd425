package io.sluice.it.chaos.iceberg;

import io.sluice.spi.Payload;
import io.sluice.spi.changes.ChangeSupport;
import io.sluice.spi.distribution.DistributionKey;
import io.sluice.spi.distribution.DistributionMode;
import io.sluice.spi.distribution.DistributionSupport;
import io.sluice.spi.dynamic.DynamicTableSupport;
import io.sluice.spi.dynamic.DynamicTables;
import io.sluice.spi.sink.CommitRequest;
import io.sluice.spi.sink.OverwriteSupport;
import io.sluice.spi.sink.SinkContext;
import io.sluice.spi.sink.TargetCommitter;
import io.sluice.spi.sink.TargetFactory;
import io.sluice.spi.sink.TargetWriter;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Test plugin: the {@code iceberg} target of another plugin, reached through the extension
 * lookup, whose committer records the checkpoint of every non-empty request it is handed (one line
 * each in {@code requests} in the marker directory, so a test sees requests handed over again) and,
 * if asked to, fails once (a marker file remembers that it did) on the second non-empty commit of
 * the job, either before the real commit ran or right after it succeeded; its writers fail once if
 * asked to, after a number of records or after handing over temporary manifests. Test code only: it is
 * compiled and packaged by the integration tests, never shipped.
 */
@org.pf4j.Extension
public class ChaosIcebergTargetFactory implements TargetFactory {

    /** {@code before}, {@code after} or {@code none}. */
    static final ConfigOption<String> FAIL_IN_COMMIT =
            ConfigOptions.key("chaos.commit.fail").stringType().defaultValue("none");

    /** A writer fails once (marker {@code writer-failed}) after this many records of its own. */
    static final ConfigOption<Long> WRITER_FAIL_AFTER =
            ConfigOptions.key("chaos.writer.fail-after-records").longType().noDefaultValue();

    /**
     * A writer fails once (marker {@code writer-failed}) right after the n-th of its checkpoints
     * whose files it handed over in temporary manifests: they are written, and the checkpoint they
     * belong to cannot complete.
     */
    static final ConfigOption<Integer> WRITER_FAIL_AFTER_MANIFESTS =
            ConfigOptions.key("chaos.writer.fail-after-manifests").intType().noDefaultValue();

    static final ConfigOption<String> MARKER_DIR =
            ConfigOptions.key("chaos.marker-dir").stringType().noDefaultValue();

    @Override
    public String identifier() {
        return "chaos-iceberg";
    }

    @Override
    public Set<ConfigOption<?>> requiredOptions() {
        return new HashSet<>(Set.of(MARKER_DIR));
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        // the delegate's options are not known before a context exists: accept them by name
        Set<ConfigOption<?>> options = new HashSet<>();
        options.add(FAIL_IN_COMMIT);
        options.add(WRITER_FAIL_AFTER);
        options.add(WRITER_FAIL_AFTER_MANIFESTS);
        for (String key : new String[] {
            "catalog-name",
            "catalog-type",
            "catalog-impl",
            "warehouse",
            "uri",
            "hadoop-conf-dir",
            "hive-conf-dir",
            "catalog-database",
            "catalog-table",
            "format-version",
            "write-format",
            "target-file-size-bytes",
            "compression-codec",
            "compression-level",
            "compression-strategy",
            "branch",
            "upsert-enabled",
            "write.upsert.enabled",
            "overwrite-enabled",
            "snapshot-properties"
        }) {
            options.add(ConfigOptions.key(key).stringType().noDefaultValue());
        }
        return options;
    }

    private static TargetFactory delegate(SinkContext context) {
        return context.extensions().find(TargetFactory.class, "iceberg");
    }

    /** The iceberg target's distribution, asked through it. */
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

    /** The iceberg target's: its tables written through this target's failing writers and committers. */
    private static final DynamicTableSupport DYNAMIC_TABLES = new DynamicTableSupport() {
        @Override
        public DynamicTables open(SinkContext context) throws IOException {
            return delegate(context).dynamicTables().orElseThrow().open(context);
        }

        @Override
        public boolean supportsWriterOpenings() {
            return true; // as the iceberg target it stands in front of
        }
    };

    /** The iceberg target's changes, asked through it. */
    private static final ChangeSupport CHANGES = new ChangeSupport() {
        @Override
        public boolean acceptsChanges(SinkContext context) {
            return delegate(context).changes().orElseThrow().acceptsChanges(context);
        }

        @Override
        public List<String> changeKey(SinkContext context) {
            return delegate(context).changes().orElseThrow().changeKey(context);
        }
    };

    @Override
    public Optional<DistributionSupport> distribution() {
        return Optional.of(DISTRIBUTION);
    }

    @Override
    public Optional<DynamicTableSupport> dynamicTables() {
        return Optional.of(DYNAMIC_TABLES);
    }

    @Override
    public Optional<ChangeSupport> changes() {
        return Optional.of(CHANGES);
    }

    @Override
    public Optional<OverwriteSupport> overwrite() {
        return Optional.of(new OverwriteSupport() {}); // as the iceberg target it stands in front of
    }

    @Override
    public void validate(SinkContext context) {
        delegate(context).validate(context);
    }

    @Override
    public TargetWriter createWriter(SinkContext context, List<Payload> restoredState) throws IOException {
        TargetWriter writer = delegate(context).createWriter(context, restoredState);
        if (!context.options().getOptional(WRITER_FAIL_AFTER).isPresent()
                && !context.options().getOptional(WRITER_FAIL_AFTER_MANIFESTS).isPresent()) {
            return writer;
        }
        long failAfter = context.options().getOptional(WRITER_FAIL_AFTER).orElse(Long.MAX_VALUE);
        int failAfterManifests =
                context.options().getOptional(WRITER_FAIL_AFTER_MANIFESTS).orElse(Integer.MAX_VALUE);
        Path marker = Paths.get(context.options().get(MARKER_DIR), "writer-failed");
        return new TargetWriter() {
            long records;
            int withManifests;

            @Override
            public void write(org.apache.flink.table.data.RowData row, io.sluice.spi.sink.RecordContext recordContext)
                    throws IOException {
                if (++records >= failAfter && !Files.exists(marker)) {
                    Files.createDirectories(marker.getParent());
                    try {
                        Files.createFile(marker);
                    } catch (java.nio.file.FileAlreadyExistsException anotherWriterFailed) {
                        writer.write(row, recordContext);
                        return;
                    }
                    throw new IOException("chaos: injected failure in the writer after " + records + " records");
                }
                writer.write(row, recordContext);
            }

            @Override
            public List<io.sluice.spi.sink.PendingCommit> prepareCommit(boolean endOfInput) throws IOException {
                List<io.sluice.spi.sink.PendingCommit> pending = writer.prepareCommit(endOfInput);
                for (io.sluice.spi.sink.PendingCommit p : pending) {
                    if (listsManifests(p.payload()) && ++withManifests >= failAfterManifests && claim(marker)) {
                        throw new IOException("chaos: injected failure in the writer after it handed over the"
                                + " temporary manifests of " + withManifests + " checkpoints");
                    }
                }
                return pending;
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
        String mode = context.options().get(FAIL_IN_COMMIT);
        Path marker = Paths.get(context.options().get(MARKER_DIR), "commit-failed");
        Path requests = Paths.get(context.options().get(MARKER_DIR), "requests");
        return new TargetCommitter() {
            int commits;

            @Override
            public void commit(CommitRequest request) throws IOException {
                if (!request.pending().isEmpty()) {
                    Files.createDirectories(requests.getParent());
                    Files.write(
                            requests,
                            (request.checkpointId() + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8),
                            java.nio.file.StandardOpenOption.CREATE,
                            java.nio.file.StandardOpenOption.APPEND);
                }
                // the second non-empty commit of the job fails once: a checkpoint has completed before
                boolean fail = !request.pending().isEmpty() && ++commits >= 2 && !Files.exists(marker);
                if (fail && mode.equals("before")) {
                    inject(marker, "before");
                }
                committer.commit(request);
                if (fail && mode.equals("after")) {
                    inject(marker, "after");
                }
            }

            @Override
            public void close() throws Exception {
                committer.close();
            }
        };
    }

    /**
     * Whether the iceberg target's pending files list temporary manifests: version 1 lists nothing
     * else, version 2 begins with their count.
     */
    private static boolean listsManifests(Payload payload) {
        return payload.version() == 1
                || (payload.version() == 2
                        && java.nio.ByteBuffer.wrap(payload.bytes()).getInt() > 0);
    }

    /** Claims the failure once, for whichever writer comes first: a marker file remembers it. */
    private static boolean claim(Path marker) throws IOException {
        if (Files.exists(marker)) {
            return false;
        }
        Files.createDirectories(marker.getParent());
        try {
            Files.createFile(marker);
            return true;
        } catch (java.nio.file.FileAlreadyExistsException anotherWriterFailed) {
            return false;
        }
    }

    private static void inject(Path marker, String when) throws IOException {
        Files.createDirectories(marker.getParent());
        Files.createFile(marker);
        throw new IOException("chaos: injected failure " + when + " the Iceberg commit");
    }
}

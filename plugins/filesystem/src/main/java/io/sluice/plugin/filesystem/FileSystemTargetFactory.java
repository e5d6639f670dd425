package io.sluice.plugin.filesystem;

import io.sluice.spi.FileOptions;

import io.sluice.spi.PathNames;
import io.sluice.spi.compact.SinkCompaction;
import io.sluice.spi.format.BulkWritingFormat;
import io.sluice.spi.format.Formats;
import io.sluice.spi.partition.PartitionPaths;
import io.sluice.spi.sink.BucketAssigner;
import io.sluice.spi.sink.BucketAssignerFactory;
import io.sluice.spi.Payload;
import io.sluice.spi.sink.RollingPolicy;
import io.sluice.spi.sink.RollingPolicyFactory;
import io.sluice.spi.sink.SinkContext;
import io.sluice.spi.sink.TargetCommitter;
import io.sluice.spi.sink.TargetFactory;
import io.sluice.spi.sink.TargetWriter;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import org.apache.flink.core.fs.RecoverableWriter;
import org.pf4j.Extension;

import java.io.IOException;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The {@code filesystem} target: part files under a base path on any Flink {@link FileSystem},
 * written through its {@link RecoverableWriter}, so in-progress files survive failures and
 * commits are idempotent renames (or multi-part upload completions).
 */
@Extension
public final class FileSystemTargetFactory implements TargetFactory {

    @Override
    public String identifier() {
        return "filesystem";
    }

    @Override
    public Set<ConfigOption<?>> requiredOptions() {
        return new HashSet<>(Arrays.asList(FileOptions.PATH, FileOptions.FORMAT));
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        return new HashSet<>(Arrays.asList(
                FileOptions.BUCKET_ASSIGNER, FileOptions.ROLLING_POLICY,
                FileOptions.ROLLING_FILE_SIZE, FileOptions.ROLLING_ROLLOVER_INTERVAL,
                FileOptions.ROLLING_INACTIVITY_INTERVAL, FileOptions.ROLLING_CHECK_INTERVAL,
                FileSystemOptions.PART_PREFIX, FileSystemOptions.PART_SUFFIX,
                FileSystemOptions.PARTITION_DEFAULT_NAME, FileSystemOptions.SUCCESS_FILE_NAME));
    }

    @Override
    public void validate(SinkContext context) {
        ReadableConfig options = context.options();
        // every user string that becomes part of a path, checked before the job starts
        PathNames.checkBaseDirectory(FileOptions.PATH.key(), options.get(FileOptions.PATH));
        PartFileNames.check(options.get(FileSystemOptions.PART_PREFIX), options.get(FileSystemOptions.PART_SUFFIX));
        checkPartitionDirectories(context);
        // building every part once on the client reports bad options before the job starts
        PartWriters.create(context);
        bucketAssigner(context);
        rollingPolicy(context);
        Path path = new Path(context.options().get(FileOptions.PATH));
        try {
            FileSystem.get(path.toUri());
        } catch (IOException e) {
            throw new IllegalArgumentException("Invalid 'path' '" + path + "': " + e.getMessage(), e);
        }
    }

    /**
     * Partition values are escaped into {@code k=v} directories, so only the names can make a
     * directory that no reader lists: one starting with {@code _} or {@code .} is hidden (as in
     * Flink's and Hive's readers), and a name longer than a file name can be fails at the first row.
     */
    private static void checkPartitionDirectories(SinkContext context) {
        String defaultName = context.options().get(FileSystemOptions.PARTITION_DEFAULT_NAME);
        if (!context.partitionKeys().isEmpty() && defaultName.isEmpty()) {
            throw PathNames.invalid(FileSystemOptions.PARTITION_DEFAULT_NAME.key(), defaultName,
                    "must not be empty: it names the directory of null and empty partition values");
        }
        for (String key : context.partitionKeys()) {
            if (!VisibleFiles.isVisibleName(PartitionPaths.escape(key))) {
                throw new IllegalArgumentException("Partition column '" + key + "' cannot be written: its directories '"
                        + key + "=...' would be hidden from every reader (names starting with '_' or '.' are), so the"
                        + " rows would never read back; rename the column");
            }
            String directory = PartitionPaths.escape(key) + "=" + PartitionPaths.escape(defaultName);
            if (PathNames.utf8Length(directory) > PathNames.MAX_NAME_BYTES) {
                throw new IllegalArgumentException("Partition column '" + key + "' with '"
                        + FileSystemOptions.PARTITION_DEFAULT_NAME.key() + "' '" + defaultName + "' makes directory names of "
                        + PathNames.utf8Length(directory) + " bytes, more than the " + PathNames.MAX_NAME_BYTES
                        + " a file name can have");
            }
        }
    }

    @Override
    public TargetWriter createWriter(SinkContext context, List<Payload> restoredState) throws IOException {
        Path basePath = new Path(context.options().get(FileOptions.PATH));
        RecoverableWriter writer = recoverableWriter(basePath);
        ReadableConfig options = context.options();
        PartFileNames names = new PartFileNames(options.get(FileSystemOptions.PART_PREFIX), options.get(FileSystemOptions.PART_SUFFIX));
        FileTargetWriter target = new FileTargetWriter(basePath, writer, PartWriters.create(context),
                bucketAssigner(context), rollingPolicy(context), names,
                options.get(FileOptions.ROLLING_CHECK_INTERVAL).toMillis(), compaction(context).enabled());
        target.restore(restoredState);
        return target;
    }

    /** {@code INSERT OVERWRITE}: the directories a job writes to lose their other files (BATCH only). */
    @Override
    public boolean supportsOverwrite() {
        return true;
    }

    @Override
    public TargetCommitter createCommitter(SinkContext context) throws IOException {
        Path basePath = new Path(context.options().get(FileOptions.PATH));
        RecoverableWriter writer = recoverableWriter(basePath);
        // the format and the compactor only when a unit comes: a job without compaction needs neither
        return new FileTargetCommitter(writer, () -> new UnitCompaction(writer, PartWriters.create(context), compaction(context).compactor()),
                context.overwrite(), basePath);
    }

    /** The framework offers compaction to every target that supports it, as this one does. */
    private static SinkCompaction compaction(SinkContext context) {
        return context.compaction().orElseThrow(() -> new IllegalStateException(
                "The framework offers no compaction to the filesystem target"));
    }

    static RecoverableWriter recoverableWriter(Path basePath) throws IOException {
        try {
            return FileSystem.get(basePath.toUri()).createRecoverableWriter();
        } catch (IOException | UnsupportedOperationException e) {
            throw new IOException("Cannot write to 'path' " + basePath + ": " + e.getMessage(), e);
        }
    }

    private static BucketAssigner bucketAssigner(SinkContext context) {
        String kind = context.options().getOptional(FileOptions.BUCKET_ASSIGNER)
                .orElse(context.partitionKeys().isEmpty() ? "base-path" : "partition");
        return context.extensions().find(BucketAssignerFactory.class, kind).create(context);
    }

    private static RollingPolicy rollingPolicy(SinkContext context) {
        String kind = context.options().get(FileOptions.ROLLING_POLICY);
        RollingPolicy policy = context.extensions().find(RollingPolicyFactory.class, kind).create(context);
        String format = context.options().get(FileOptions.FORMAT);
        boolean bulk = Formats.offers(context.extensions(), BulkWritingFormat.class, format);
        // a bulk file cannot be resumed after a failure: it always closes at a checkpoint
        return bulk ? new CheckpointRollingPolicy(policy) : policy;
    }
}

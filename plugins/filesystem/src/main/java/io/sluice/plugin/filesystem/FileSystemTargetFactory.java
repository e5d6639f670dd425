package io.sluice.plugin.filesystem;

import io.sluice.spi.format.FormatFactory;
import io.sluice.spi.sink.BucketAssigner;
import io.sluice.spi.sink.BucketAssignerFactory;
import io.sluice.spi.sink.Payload;
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
        return new HashSet<>(Arrays.asList(FileSystemOptions.PATH, FileSystemOptions.FORMAT));
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        return new HashSet<>(Arrays.asList(
                FileSystemOptions.BUCKET_ASSIGNER, FileSystemOptions.ROLLING_POLICY,
                FileSystemOptions.ROLLING_FILE_SIZE, FileSystemOptions.ROLLING_ROLLOVER_INTERVAL,
                FileSystemOptions.ROLLING_INACTIVITY_INTERVAL, FileSystemOptions.ROLLING_CHECK_INTERVAL,
                FileSystemOptions.PART_PREFIX, FileSystemOptions.PART_SUFFIX,
                FileSystemOptions.PARTITION_DEFAULT_NAME, FileSystemOptions.SUCCESS_FILE_NAME));
    }

    @Override
    public void validate(SinkContext context) {
        // building every part once on the client reports bad options before the job starts
        PartWriters.create(context);
        bucketAssigner(context);
        rollingPolicy(context);
        Path path = new Path(context.options().get(FileSystemOptions.PATH));
        try {
            FileSystem.get(path.toUri());
        } catch (IOException e) {
            throw new IllegalArgumentException("Invalid 'path' '" + path + "': " + e.getMessage(), e);
        }
    }

    @Override
    public TargetWriter createWriter(SinkContext context, List<Payload> restoredState) throws IOException {
        Path basePath = new Path(context.options().get(FileSystemOptions.PATH));
        RecoverableWriter writer = recoverableWriter(basePath);
        ReadableConfig options = context.options();
        PartFileNames names = new PartFileNames(options.get(FileSystemOptions.PART_PREFIX), options.get(FileSystemOptions.PART_SUFFIX));
        FileTargetWriter target = new FileTargetWriter(basePath, writer, PartWriters.create(context),
                bucketAssigner(context), rollingPolicy(context), names,
                options.get(FileSystemOptions.ROLLING_CHECK_INTERVAL).toMillis(), context.compactionEnabled());
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
        Path basePath = new Path(context.options().get(FileSystemOptions.PATH));
        RecoverableWriter writer = recoverableWriter(basePath);
        // the format and the compactor only when a unit comes: a job without compaction needs neither
        return new FileTargetCommitter(writer, () -> new UnitCompaction(writer, PartWriters.create(context), context.compactor()),
                context.overwrite());
    }

    static RecoverableWriter recoverableWriter(Path basePath) throws IOException {
        try {
            return FileSystem.get(basePath.toUri()).createRecoverableWriter();
        } catch (IOException | UnsupportedOperationException e) {
            throw new IOException("Cannot write to 'path' " + basePath + ": " + e.getMessage(), e);
        }
    }

    private static BucketAssigner bucketAssigner(SinkContext context) {
        String kind = context.options().getOptional(FileSystemOptions.BUCKET_ASSIGNER)
                .orElse(context.partitionKeys().isEmpty() ? "base-path" : "partition");
        return context.extensions().find(BucketAssignerFactory.class, kind).create(context);
    }

    private static RollingPolicy rollingPolicy(SinkContext context) {
        String kind = context.options().get(FileSystemOptions.ROLLING_POLICY);
        RollingPolicy policy = context.extensions().find(RollingPolicyFactory.class, kind).create(context);
        String format = context.options().get(FileSystemOptions.FORMAT);
        boolean bulk = context.extensions().find(FormatFactory.class, format).isBulk();
        // a bulk file cannot be resumed after a failure: it always closes at a checkpoint
        return bulk ? new CheckpointRollingPolicy(policy) : policy;
    }
}

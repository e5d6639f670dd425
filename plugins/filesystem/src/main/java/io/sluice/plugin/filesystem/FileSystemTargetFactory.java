package io.sluice.plugin.filesystem;

import io.sluice.partfiles.PartFileNames;
import io.sluice.partfiles.PartFiles;
import io.sluice.partfiles.PartWriters;
import io.sluice.partfiles.VisibleFiles;
import io.sluice.spi.FileOptions;
import io.sluice.spi.PathNames;
import io.sluice.spi.Payload;
import io.sluice.spi.compact.CompactionSupport;
import io.sluice.spi.compact.SinkCompaction;
import io.sluice.spi.distribution.DistributionMode;
import io.sluice.spi.distribution.DistributionSupport;
import io.sluice.spi.dynamic.DynamicTableSupport;
import io.sluice.spi.dynamic.DynamicTables;
import io.sluice.spi.partition.PartitionPaths;
import io.sluice.spi.partition.PartitionSupport;
import io.sluice.spi.sink.BucketAssigner;
import io.sluice.spi.sink.BucketAssignerFactory;
import io.sluice.spi.sink.OverwriteSupport;
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
import org.pf4j.Extension;

import java.io.IOException;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The {@code filesystem} target: part files under a base path on any Flink {@link FileSystem},
 * written through its {@link RecoverableWriter}, so in-progress files survive failures and
 * commits are idempotent renames (or multi-part upload completions).
 *
 * <p>The part files themselves are the part-file library's ({@link PartFiles}): this target maps
 * its options onto it, with the partitions' directories below {@code path}.
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
                FileOptions.BUCKET_ASSIGNER,
                FileOptions.ROLLING_POLICY,
                FileOptions.ROLLING_FILE_SIZE,
                FileOptions.ROLLING_ROLLOVER_INTERVAL,
                FileOptions.ROLLING_INACTIVITY_INTERVAL,
                FileOptions.ROLLING_CHECK_INTERVAL,
                FileOptions.WRITER_MEMORY_BUDGET,
                FileSystemOptions.PART_PREFIX,
                FileSystemOptions.PART_SUFFIX,
                FileSystemOptions.PARTITION_DEFAULT_NAME,
                FileSystemOptions.SUCCESS_FILE_NAME));
    }

    @Override
    public void validate(SinkContext context) {
        ReadableConfig options = context.options();
        // every user string that becomes part of a path, checked before the job starts
        PathNames.checkBaseDirectory(FileOptions.PATH.key(), options.get(FileOptions.PATH));
        PartFileNames.check(
                FileSystemOptions.PART_PREFIX.key(),
                options.get(FileSystemOptions.PART_PREFIX),
                FileSystemOptions.PART_SUFFIX.key(),
                options.get(FileSystemOptions.PART_SUFFIX));
        checkPartitionDirectories(context);
        // building every part once on the client reports bad options before the job starts
        partWriters(context);
        bucketAssigner(context);
        rollingPolicy(context);
        partFiles(context).writerMemoryBudget(options);
        Path path = new Path(context.options().get(FileOptions.PATH));
        try {
            FileSystem.get(path.toUri());
        } catch (IOException e) {
            throw new IllegalArgumentException("Invalid 'path' '" + path + "': " + e.getMessage(), e);
        }
        try {
            PartFiles.recoverableWriter(path);
        } catch (IOException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
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
            throw PathNames.invalid(
                    FileSystemOptions.PARTITION_DEFAULT_NAME.key(),
                    defaultName,
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
                        + FileSystemOptions.PARTITION_DEFAULT_NAME.key() + "' '" + defaultName
                        + "' makes directory names of "
                        + PathNames.utf8Length(directory) + " bytes, more than the " + PathNames.MAX_NAME_BYTES
                        + " a file name can have");
            }
        }
    }

    /**
     * A dynamic sink's tables: directories below the sink's {@code path} ({@link
     * FileSystemDynamicTables}).
     */
    private static final DynamicTableSupport DYNAMIC_TABLES = new DynamicTableSupport() {
        @Override
        public DynamicTables open(SinkContext context) {
            String path = context.options().get(FileOptions.PATH);
            PathNames.checkBaseDirectory(FileOptions.PATH.key(), path);
            return new FileSystemDynamicTables(path);
        }

        /**
         * Part files carry the writer's opening in their uid, so a dynamic sink's table writers
         * opened after the last checkpoint are found by the next attempt ({@code
         * PartFiles#createWriter}).
         */
        @Override
        public boolean supportsWriterOpenings() {
            return true;
        }
    };

    @Override
    public TargetWriter createWriter(SinkContext context, List<Payload> restoredState) throws IOException {
        ReadableConfig options = context.options();
        return partFiles(context)
                .bucketAssigner(bucketAssigner(context))
                .rollingPolicy(rollingPolicy(context))
                .rollingCheckIntervalMillis(
                        options.get(FileOptions.ROLLING_CHECK_INTERVAL).toMillis())
                .writerMemoryBudget(options)
                .groupedInput(context.inputGroupedByPartition())
                .build()
                .createWriter(restoredState, context.writerLineage().orElse(null));
    }

    /**
     * A BATCH SQL job hands a partitioned table's writers their rows sorted by partition, as
     * upstream's filesystem sink asks its planner to: a writer then has one partition's file open
     * at a time and writes one file per partition, where unsorted rows over many partitions keep
     * them all open until the memory budget rolls files of a few rows each. Only with the {@code
     * partition} bucket assigner, whose buckets are the partitions; another assigner's buckets
     * need not follow the sort.
     */
    private static final PartitionSupport PARTITIONS = new PartitionSupport() {
        @Override
        public boolean requiresGrouping(SinkContext context) {
            return bucketAssignerKind(context).equals("partition");
        }
    };

    /** The engine as this target's options configure it: part files below {@code path}, in its bucket directories. */
    private static PartFiles.Builder partFiles(SinkContext context) {
        ReadableConfig options = context.options();
        return PartFiles.builder(new Path(options.get(FileOptions.PATH)))
                .names(options.get(FileSystemOptions.PART_PREFIX), options.get(FileSystemOptions.PART_SUFFIX))
                .compaction(compaction(context).enabled())
                .compactionParallelism(compaction(context).parallelism())
                .overwrite(context.overwrite())
                // the format and the compactor of a committer only when a unit comes: a job without compaction needs
                // neither
                .writers(() -> partWriters(context))
                .compactor(() -> compaction(context).compactor());
    }

    /** The format's writers; the partition assigner's columns are in the directory names, not in the files. */
    private static PartWriters partWriters(SinkContext context) {
        List<String> pathColumns =
                bucketAssignerKind(context).equals("partition") ? context.partitionKeys() : Collections.emptyList();
        return PartWriters.create(
                context.extensions(),
                context.options().get(FileOptions.FORMAT),
                context.rowType(),
                context.rawOptions(),
                pathColumns);
    }

    /**
     * NONE, HASH and RANGE: with HASH, the rows of one partition (the partition columns; an
     * unpartitioned table by its primary key) reach one writer, so each partition gets one file per
     * checkpoint; with RANGE, writers get even shares of ranges of partitions (the framework's
     * statistics, by the same key).
     */
    private static final DistributionSupport DISTRIBUTION = context -> EnumSet.allOf(DistributionMode.class);

    /** Compaction of the part files, in the sink's {@code format}. */
    private static final CompactionSupport COMPACTION = new CompactionSupport() {};

    /** {@code INSERT OVERWRITE}: the directories a job writes to lose their other files (BATCH only). */
    private static final OverwriteSupport OVERWRITE = new OverwriteSupport() {};

    /** Partition commit, and grouping by partition in BATCH. */
    @Override
    public Optional<PartitionSupport> partitions() {
        return Optional.of(PARTITIONS);
    }

    @Override
    public Optional<CompactionSupport> compaction() {
        return Optional.of(COMPACTION);
    }

    @Override
    public Optional<DistributionSupport> distribution() {
        return Optional.of(DISTRIBUTION);
    }

    /** Directories below {@code path} as a dynamic sink's tables. */
    @Override
    public Optional<DynamicTableSupport> dynamicTables() {
        return Optional.of(DYNAMIC_TABLES);
    }

    @Override
    public Optional<OverwriteSupport> overwrite() {
        return Optional.of(OVERWRITE);
    }

    @Override
    public TargetCommitter createCommitter(SinkContext context) throws IOException {
        return partFiles(context).build().createCommitter();
    }

    /** The framework offers compaction to every target that supports it, as this one does. */
    private static SinkCompaction compaction(SinkContext context) {
        return context.compaction()
                .orElseThrow(
                        () -> new IllegalStateException("The framework offers no compaction to the filesystem target"));
    }

    private static BucketAssigner bucketAssigner(SinkContext context) {
        return context.extensions()
                .find(BucketAssignerFactory.class, bucketAssignerKind(context))
                .create(context);
    }

    /** The {@code bucket-assigner} option, by default the partitions of a partitioned table. */
    private static String bucketAssignerKind(SinkContext context) {
        return context.options()
                .getOptional(FileOptions.BUCKET_ASSIGNER)
                .orElse(context.partitionKeys().isEmpty() ? "base-path" : "partition");
    }

    /** The configured policy; the engine also rolls a bulk format's files at every checkpoint (they cannot be resumed). */
    private static RollingPolicy rollingPolicy(SinkContext context) {
        String kind = context.options().get(FileOptions.ROLLING_POLICY);
        return context.extensions().find(RollingPolicyFactory.class, kind).create(context);
    }
}

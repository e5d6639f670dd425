package io.sluice.partfiles;

import io.sluice.spi.Payload;
import io.sluice.spi.compact.FileCompactor;
import io.sluice.spi.sink.BucketAssigner;
import io.sluice.spi.sink.RollingPolicy;
import io.sluice.spi.sink.TargetCommitter;
import io.sluice.spi.sink.TargetWriter;
import io.sluice.spi.sink.WriterLineage;

import org.apache.flink.core.fs.Path;
import org.apache.flink.core.fs.RecoverableWriter;

import javax.annotation.Nullable;

import java.io.IOException;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The part-file engine of a file target, configured once per target and job: what a target
 * factory's {@code createWriter} and {@code createCommitter} hand over to. It writes rows into part
 * files through the file system's {@link RecoverableWriter} (one open file per bucket, rolled by the
 * target's {@link RollingPolicy}, resumed after a restore, leftovers of dead writers removed),
 * publishes them exactly once with idempotent commits, deletes the other files of the directories
 * it publishes to for {@code INSERT OVERWRITE}, and runs the framework's compaction units.
 *
 * <p>Why a library rather than part of the SPI: the engine's state (writer states, pending files)
 * is the plugin's own, versioned with it, so each plugin that writes part files bundles its own copy
 * in its zip ({@code lib/}); it is never on the framework's class path.
 *
 * <p>What a target decides, through the {@link Builder}: the table's root (every file the engine
 * writes, publishes or deletes must be below it), where a bucket's files go ({@link
 * Builder#bucketLocations}: below the root by default, or e.g. the metastore's location of a
 * partition), the part file names, whether new files wait for compaction, overwrite, and the
 * format's writers ({@link PartWriters}). A bucket id is also the partition id of the pending
 * files (the empty id is the root's bucket and no partition).
 *
 * <p>The payloads' bytes are the engine's compatibility promise: writer states of versions 1 to 3
 * and pending files of versions 1 and 2 are read, and the current versions written, byte for byte
 * as the {@code filesystem} plugin always did.
 */
public final class PartFiles {

    private final Path root;
    private final Function<String, Path> bucketLocations;
    private final String prefix;
    private final String suffix;
    private final boolean compaction;
    private final boolean overwrite;
    private final int compactionParallelism;
    private final Supplier<PartWriters> writers;
    private final Supplier<FileCompactor> compactor;
    private final BucketAssigner assigner;
    private final RollingPolicy rollingPolicy;
    private final long checkIntervalMillis;
    private final boolean groupedInput;
    private final long writerMemoryBudget;

    private PartFiles(Builder b) {
        this.root = b.root;
        this.bucketLocations = b.bucketLocations;
        this.prefix = b.prefix;
        this.suffix = b.suffix;
        this.compaction = b.compaction;
        this.overwrite = b.overwrite;
        this.compactionParallelism = b.compactionParallelism;
        this.writers = b.writers;
        this.compactor = b.compactor;
        this.assigner = b.assigner;
        this.rollingPolicy = b.rollingPolicy;
        this.checkIntervalMillis = b.checkIntervalMillis;
        this.groupedInput = b.groupedInput;
        this.writerMemoryBudget = b.writerMemoryBudget;
    }

    /**
     * Starts the configuration of an engine for the table under {@code root}.
     *
     * @param root the table's root directory: where the root bucket ({@code ""}) writes by default,
     *     where a restored writer looks for dead writers' leftovers, and the limit of every path a
     *     commit may touch
     */
    public static Builder builder(Path root) {
        return new Builder(root);
    }

    /**
     * A writer of one subtask, restored from the states of the writers it takes over (empty for a
     * fresh start). Needs {@link Builder#writers}, {@link Builder#bucketAssigner} and {@link
     * Builder#rollingPolicy}. A bulk format's files also always roll at a checkpoint: they cannot be
     * resumed.
     */
    public TargetWriter createWriter(List<Payload> restoredState) throws IOException {
        return createWriter(restoredState, null);
    }

    /**
     * A writer as {@link #createWriter(List)}, named by its lineage (the sink context's {@link
     * io.sluice.spi.sink.SinkContext#writerLineage()}): it removes what the earlier attempts of its
     * lineage left, also those that died before their first checkpoint.
     */
    public TargetWriter createWriter(List<Payload> restoredState, @Nullable WriterLineage lineage) throws IOException {
        Objects.requireNonNull(writers, "writers");
        Objects.requireNonNull(assigner, "bucketAssigner");
        Objects.requireNonNull(rollingPolicy, "rollingPolicy");
        PartWriters partWriters = writers.get();
        RollingPolicy policy = partWriters.isBulk() ? new CheckpointRollingPolicy(rollingPolicy) : rollingPolicy;
        FileTargetWriter writer = new FileTargetWriter(
                root,
                this::bucketLocation,
                recoverableWriter(root),
                partWriters,
                assigner,
                policy,
                new PartFileNames(prefix, suffix),
                checkIntervalMillis,
                compaction,
                groupedInput,
                writerMemoryBudget,
                lineage);
        writer.restore(restoredState);
        return writer;
    }

    /**
     * The committer: publishes pending files (overwriting if configured), runs compaction units, and
     * tells the framework a partition's location and visible files. The format's writers and the
     * compactor are asked for only when the first compaction unit comes.
     */
    public TargetCommitter createCommitter() throws IOException {
        RecoverableWriter fsWriter = recoverableWriter(root);
        return new FileTargetCommitter(
                fsWriter,
                () -> new UnitCompaction(
                        fsWriter,
                        Objects.requireNonNull(writers, "writers").get(),
                        Objects.requireNonNull(compactor, "compactor").get()),
                compactionParallelism,
                overwrite,
                root,
                this::bucketLocation);
    }

    /**
     * Where a pending file that a writer of this engine returned is published, for a committer
     * that records what a commit wrote (a metastore's statistics); empty for a payload that does not
     * name its file (a pending file of version 1, the state of a superseded in-progress file).
     */
    public static java.util.Optional<Path> publishedPath(Payload payload) throws IOException {
        return java.util.Optional.ofNullable(PendingFile.pathOf(payload));
    }

    /** The directory of a bucket's (a partition's) files, as the builder's locations say. */
    public Path bucketLocation(String bucketId) {
        return bucketLocations.apply(bucketId);
    }

    /**
     * The default bucket locations: the root for the empty id, else the id as a relative path below
     * the root ({@code k1=v1/k2=v2}).
     *
     * @throws IllegalArgumentException for an id that is no relative path below the root
     */
    public static Path belowRoot(Path root, String bucketId) {
        if (bucketId.isEmpty()) {
            return root;
        }
        if (bucketId.startsWith("/") || bucketId.contains("\\")) {
            throw new IllegalArgumentException("Bucket id '" + bucketId + "' is not a relative path under " + root);
        }
        for (String segment : bucketId.split("/")) {
            if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
                throw new IllegalArgumentException("Bucket id '" + bucketId + "' would leave the base path " + root);
            }
        }
        return new Path(root, bucketId);
    }

    /**
     * The smallest {@code sink.writer.memory-budget} a target accepts: 4 MiB. A Parquet file's
     * column buffers grow to a page (1 MiB by default) before the page leaves them, and its writer
     * estimates its heap as 24 KB, 19 KB a column and three times those buffers, so one open file
     * of one column reaches about 3.1 MiB before its first page is done; under that budget even a
     * single open file rolls every few rows (a budget of 1 byte wrote a file per row).
     */
    public static final long MIN_WRITER_MEMORY_BUDGET = 4L << 20;

    /**
     * The writer memory budget without {@code sink.writer.memory-budget}: an eighth of the JVM's
     * maximum heap, so that a TaskManager running up to eight writer subtasks keeps their open
     * files within its heap.
     */
    public static long defaultWriterMemoryBudget() {
        return Runtime.getRuntime().maxMemory() / 8;
    }

    /**
     * The recoverable writer of the file system of {@code root}: what writes part files exactly
     * once. Targets call it in {@code validate} too, so a file system without one (Flink's Presto S3
     * file system, say) is refused before the job runs.
     *
     * @throws IOException naming the path, and for an S3 scheme the file system that can write
     */
    public static RecoverableWriter recoverableWriter(Path root) throws IOException {
        try {
            return FileSystems.of(root).createRecoverableWriter();
        } catch (IOException | UnsupportedOperationException e) {
            String scheme = root.toUri().getScheme();
            String hint = scheme != null && scheme.startsWith("s3")
                    ? " (Flink's S3 file system flink-s3-fs-hadoop writes part files, for s3:// and s3a:// paths; "
                            + "flink-s3-fs-presto, s3p://, can only read them)"
                    : "";
            throw new IOException("Cannot write to 'path' " + root + ": " + e.getMessage() + hint, e);
        }
    }

    /** What a target sets; everything has a default except the writer's parts (see {@link #createWriter}). */
    public static final class Builder {
        private final Path root;
        private Function<String, Path> bucketLocations;
        private String prefix = "part";
        private String suffix = "";
        private boolean compaction;
        private boolean overwrite;
        private int compactionParallelism = 1;
        private Supplier<PartWriters> writers;
        private Supplier<FileCompactor> compactor;
        private BucketAssigner assigner;
        private RollingPolicy rollingPolicy;
        private long checkIntervalMillis = 60_000;
        private boolean groupedInput;
        private long writerMemoryBudget = defaultWriterMemoryBudget();

        private Builder(Path root) {
            this.root = Objects.requireNonNull(root, "root");
            this.bucketLocations = id -> belowRoot(root, id);
        }

        /**
         * Where the files of a bucket go, for targets whose partitions have their own locations
         * (a metastore's). Every location must be below the root: a commit refuses anything else
         * before its first change. By default {@link #belowRoot}.
         */
        public Builder bucketLocations(Function<String, Path> locations) {
            this.bucketLocations = Objects.requireNonNull(locations, "locations");
            return this;
        }

        /**
         * Part files are named {@code <prefix>-<writer uid>-<counter><suffix>}; {@code part} and
         * {@code ""} by default. Check user values first with {@link PartFileNames#check}, which
         * names the target's options.
         */
        public Builder names(String prefix, String suffix) {
            this.prefix = Objects.requireNonNull(prefix, "prefix");
            this.suffix = Objects.requireNonNull(suffix, "suffix");
            return this;
        }

        /**
         * Whether new part files wait for compaction: hidden until a compaction unit publishes them.
         * Off by default.
         */
        public Builder compaction(boolean enabled) {
            this.compaction = enabled;
            return this;
        }

        /** The compactor of the units the framework hands the committer; asked for at the first unit. */
        public Builder compactor(Supplier<FileCompactor> compactor) {
            this.compactor = compactor;
            return this;
        }

        /**
         * How many compaction units of one commit the committer runs at the same time, at most
         * ({@link io.sluice.spi.compact.SinkCompaction#parallelism()}); 1 by default. The
         * compactor then runs on several units at once; each thread gets its own format writers.
         *
         * @throws IllegalArgumentException if below 1
         */
        public Builder compactionParallelism(int parallelism) {
            if (parallelism < 1) {
                throw new IllegalArgumentException(
                        "Invalid 'compaction.parallelism' '" + parallelism + "': must be at least 1");
            }
            this.compactionParallelism = parallelism;
            return this;
        }

        /** {@code INSERT OVERWRITE}: a commit first deletes the other visible files of the directories it publishes to. */
        public Builder overwrite(boolean overwrite) {
            this.overwrite = overwrite;
            return this;
        }

        /** The format's writers (and readers, for compaction); asked for once per writer or committer. */
        public Builder writers(Supplier<PartWriters> writers) {
            this.writers = writers;
            return this;
        }

        /** Which bucket a row goes to (writers only). */
        public Builder bucketAssigner(BucketAssigner assigner) {
            this.assigner = assigner;
            return this;
        }

        /** When a part file closes (writers only). */
        public Builder rollingPolicy(RollingPolicy policy) {
            this.rollingPolicy = policy;
            return this;
        }

        /** How often the rolling policy is asked about open files on a timer; one minute by default. */
        public Builder rollingCheckIntervalMillis(long millis) {
            this.checkIntervalMillis = millis;
            return this;
        }

        /**
         * Whether the rows come grouped by bucket ({@link
         * io.sluice.spi.sink.SinkContext#inputGroupedByPartition()}): a writer then closes a
         * bucket's file when the next bucket's rows begin, so it has one file open at a time
         * however many partitions a job writes. Off by default.
         */
        public Builder groupedInput(boolean grouped) {
            this.groupedInput = grouped;
            return this;
        }

        /**
         * The heap a writer's open files may hold together, as their bulk writers estimate it
         * ({@link io.sluice.spi.format.BufferingBulkWriter}): over it, the largest files roll
         * until a quarter is free. By default {@link #defaultWriterMemoryBudget()}; a target
         * passes {@link io.sluice.spi.FileOptions#WRITER_MEMORY_BUDGET} when it is set.
         *
         * @throws IllegalArgumentException if not positive, naming the option
         */
        public Builder writerMemoryBudget(long bytes) {
            if (bytes <= 0) {
                throw new IllegalArgumentException("Invalid '"
                        + io.sluice.spi.FileOptions.WRITER_MEMORY_BUDGET.key() + "' of " + bytes
                        + " bytes: must be positive");
            }
            this.writerMemoryBudget = bytes;
            return this;
        }

        /**
         * The writer memory budget {@link io.sluice.spi.FileOptions#WRITER_MEMORY_BUDGET} sets in
         * a target's options, else the default.
         *
         * @throws IllegalArgumentException if below {@link #MIN_WRITER_MEMORY_BUDGET}, naming the
         *     option, the value as written and the minimum
         */
        public Builder writerMemoryBudget(org.apache.flink.configuration.ReadableConfig options) {
            java.util.Optional<org.apache.flink.configuration.MemorySize> budget =
                    options.getOptional(io.sluice.spi.FileOptions.WRITER_MEMORY_BUDGET);
            if (budget.isPresent() && budget.get().getBytes() < MIN_WRITER_MEMORY_BUDGET) {
                // the value as written, not MemorySize's rendering of it
                String written = options.getOptional(org.apache.flink.configuration.ConfigOptions.key(
                                        io.sluice.spi.FileOptions.WRITER_MEMORY_BUDGET.key())
                                .stringType()
                                .noDefaultValue())
                        .orElse(budget.get().toString());
                throw new IllegalArgumentException("Invalid '" + io.sluice.spi.FileOptions.WRITER_MEMORY_BUDGET.key()
                        + "' '" + written + "': must be at least 4 mb (" + MIN_WRITER_MEMORY_BUDGET
                        + " bytes), about what one open Parquet file holds with a full page in its column"
                        + " buffers; a smaller budget rolls a file for nearly every row");
            }
            budget.ifPresent(b -> writerMemoryBudget(b.getBytes()));
            return this;
        }

        /** The engine; cheap, so a target builds one per {@code createWriter} / {@code createCommitter}. */
        public PartFiles build() {
            return new PartFiles(this);
        }
    }
}

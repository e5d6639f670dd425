package io.sluice.plugin.hive;

import io.sluice.partfiles.PartFiles;
import io.sluice.partfiles.PartWriters;
import io.sluice.spi.FileOptions;
import io.sluice.spi.Payload;
import io.sluice.spi.compact.CompactionSupport;
import io.sluice.spi.compact.SinkCompaction;
import io.sluice.spi.distribution.DistributionMode;
import io.sluice.spi.distribution.DistributionSupport;
import io.sluice.spi.dynamic.DynamicTableSupport;
import io.sluice.spi.dynamic.DynamicTables;
import io.sluice.spi.partition.CommitPolicyFactory;
import io.sluice.spi.partition.PartitionSupport;
import io.sluice.spi.sink.ModeDefaults;
import io.sluice.spi.sink.OverwriteSupport;
import io.sluice.spi.sink.SinkContext;
import io.sluice.spi.sink.TargetCommitter;
import io.sluice.spi.sink.TargetFactory;
import io.sluice.spi.sink.TargetWriter;

import org.apache.flink.configuration.ConfigOption;
import org.pf4j.Extension;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The {@code hive} target (part 1, in progress): part files of the part-file library in the
 * metastore's table and partition locations, in the format of the table's storage descriptor
 * (Parquet or ORC, written by the {@code formats} plugin's writers, partition columns only in the
 * directory names as Hive lays them out). The {@code metastore} commit policy adds the partitions.
 * {@code INSERT INTO} appends, {@code INSERT OVERWRITE} replaces the partitions written.
 *
 * <p>The framework's compaction ({@link #compaction()}) merges the small files of a
 * partition before Hive sees them.
 */
@Extension
public final class HiveTargetFactory implements TargetFactory {

    private static final Logger LOG = LoggerFactory.getLogger(HiveTargetFactory.class);

    /** Upstream's {@code HiveOptions} default of the commit policies, which its BATCH sink runs. */
    static final String BATCH_POLICIES = "metastore,success-file";

    @Override
    public String identifier() {
        return "hive";
    }

    @Override
    public Set<ConfigOption<?>> requiredOptions() {
        return new LinkedHashSet<>(List.of(HiveTargetOptions.CATALOG_DATABASE, HiveTargetOptions.CATALOG_TABLE));
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        Set<ConfigOption<?>> options = new LinkedHashSet<>(HiveCatalogOptions.ALL);
        options.add(HiveTargetOptions.CATALOG_NAME);
        options.add(FileOptions.ROLLING_FILE_SIZE);
        options.add(FileOptions.WRITER_MEMORY_BUDGET);
        // a hive catalog table's definition (HiveTableDefinition), for SHOW CREATE TABLE: the
        // target reads the storage and properties from the metastore's table itself
        options.addAll(HiveTableDefinition.STORAGE);
        return options;
    }

    @Override
    public Set<String> optionPrefixes() {
        return Set.of(HiveTableDefinition.SERDE_PROPERTY_PREFIX, HiveTableDefinition.TABLE_PROPERTY_PREFIX);
    }

    /**
     * {@code INSERT OVERWRITE} (BATCH only, the framework checks): the partitions the job writes
     * lose their other files, as Hive's dynamic partition overwrite; partitions it writes no row to
     * keep theirs, also a static partition of the statement that gets no rows.
     */
    @Override
    public Optional<OverwriteSupport> overwrite() {
        return Optional.of(OVERWRITE);
    }

    private static final OverwriteSupport OVERWRITE = new OverwriteSupport() {};

    /**
     * NONE, HASH and RANGE, as the filesystem target: with HASH the rows of one partition (the
     * partition columns; an unpartitioned table by its primary key) reach one writer; with RANGE
     * writers get even shares of ranges of partitions (the framework's statistics, by the same key).
     * Upstream's Hive sink has neither.
     */
    @Override
    public Optional<DistributionSupport> distribution() {
        return Optional.of(context -> EnumSet.allOf(DistributionMode.class));
    }

    /** Partition commit (the metastore, success files), and grouping by partition in BATCH (below). */
    @Override
    public Optional<PartitionSupport> partitions() {
        return Optional.of(PARTITIONS);
    }

    /**
     * {@code table.exec.hive.sink.sort-by-dynamic-partition.enable} (default true), as upstream:
     * the planner sorts a BATCH job's rows by the dynamic partition columns, and each writer
     * closes a partition's file when the next partition begins.
     */
    private static final PartitionSupport PARTITIONS = new PartitionSupport() {
        @Override
        public boolean requiresGrouping(SinkContext context) {
            return HiveTargetOptions.sortByDynamicPartition(context);
        }
    };

    /**
     * The framework's compaction, as for the {@code filesystem} target and as upstream's Hive sink
     * (its streaming compaction is the filesystem sink's; its batch compaction the small-files
     * rule): with {@code auto-compaction} the files are written under hidden names, which Hive's
     * readers skip, and become visible as the output of a compaction unit, before the partition's
     * commit policies (the metastore's partition, the success file) run. In STREAMING the units come
     * at checkpoints by {@code compaction.file-size} and {@code compaction.checkpoints}; in BATCH
     * at the end, a partition only if its files' average size is below {@code
     * compaction.small-files.avg-size} (16mb). The target size defaults to the rolling file size.
     * Compacted by the format of the table (the compaction facet's {@code fileFormat}, below): text files are concatenated,
     * Parquet, ORC and SequenceFile files rewritten row by row, with the table's writer
     * ({@code table.exec.hive.fallback-mapred-writer}, Hive's record writer or the native one).
     */
    @Override
    public Optional<CompactionSupport> compaction() {
        return Optional.of(COMPACTION);
    }

    private static final CompactionSupport COMPACTION = new CompactionSupport() {
        /** The storage format of the metastore's table: it, not an option, picks the compactor. */
        @Override
        public Optional<String> fileFormat(SinkContext context) {
            return Optional.of(
                    HiveTableInfo.loadWithoutPartitions(context.rawOptions()).format());
        }
    };

    @Override
    public void validate(SinkContext context) {
        HiveTableInfo table = HiveTableInfo.loadWithoutPartitions(context.rawOptions());
        if (!table.partitionKeys.equals(partitionKeys(context, table))) {
            throw new IllegalArgumentException("Hive table " + table.path.getFullName() + " is partitioned by "
                    + table.partitionKeys + ", the sink by " + context.partitionKeys());
        }
        // the format's writers and the partition columns' types, checked before the job starts
        partWriters(context, table);
        PartFiles.builder(table.location).writerMemoryBudget(context.options());
        if (HiveTableInfo.SERDE_FORMATS.contains(table.format())) {
            SerDeRecords.of(
                    table,
                    SerDeRecordWriter.fileType(context.rowType(), partitionKeys(context, table)),
                    table.format().equals("text"));
        }
        new HivePartitionBucketAssigner(context.rowType(), partitionKeys(context, table));
        HiveTargetOptions.sortByDynamicPartition(context);
    }

    /**
     * A partitioned table's commit policies, as upstream's Hive sink: in BATCH {@code
     * sink.partition-commit.policy.kind} defaults to {@code metastore,success-file}, so that the
     * partitions written are added to the metastore (without it Hive's readers would not see
     * them); {@code metastore} alone where the deployment lacks the {@code success-file} policy
     * (the filesystem plugin's). A STREAMING write must name its policies, and one that names none
     * is refused before it writes files no reader would find.
     */
    @Override
    public Optional<ModeDefaults> modeDefaults() {
        return Optional.of(HiveTargetFactory::defaults);
    }

    private static Map<String, String> defaults(SinkContext context, boolean bounded) {
        if (context.partitionKeys().isEmpty()) {
            return Map.of();
        }
        String policies = context.rawOptions().get(HiveTargetOptions.POLICY_KIND);
        if (bounded) {
            if (policies != null) {
                return Map.of(); // named, '' (no policy) included
            }
            boolean successFile =
                    context.extensions().identifiers(CommitPolicyFactory.class).contains("success-file");
            if (!successFile) {
                LOG.info(
                        "The BATCH write to Hive table {}.{} commits its partitions to the metastore only:"
                                + " no plugin of this deployment offers the commit policy 'success-file'",
                        context.options().get(HiveTargetOptions.CATALOG_DATABASE),
                        context.options().get(HiveTargetOptions.CATALOG_TABLE));
            }
            return Map.of(HiveTargetOptions.POLICY_KIND, successFile ? BATCH_POLICIES : "metastore");
        }
        if (policies == null || policies.isBlank()) {
            throw new IllegalArgumentException("Streaming write to partitioned Hive table "
                    + context.options().get(HiveTargetOptions.CATALOG_DATABASE) + "."
                    + context.options().get(HiveTargetOptions.CATALOG_TABLE)
                    + " without a commit policy: set '" + HiveTargetOptions.POLICY_KIND + "' (such as '"
                    + BATCH_POLICIES + "'), or its partitions never reach the metastore");
        }
        return Map.of();
    }

    /**
     * Tables of the sink's metastore by {@code database.table} ({@link HiveDynamicTables}): created
     * when first seen, their columns evolved, their partitions added as their files commit.
     */
    @Override
    public Optional<DynamicTableSupport> dynamicTables() {
        return Optional.of(DYNAMIC_TABLES);
    }

    private static final DynamicTableSupport DYNAMIC_TABLES = new DynamicTableSupport() {
        @Override
        public DynamicTables open(SinkContext context) {
            return new HiveDynamicTables(context.rawOptions());
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
        HiveTableInfo table = HiveTableInfo.load(context.rawOptions());
        boolean serde = HiveTableInfo.SERDE_FORMATS.contains(table.format());
        TargetWriter files = partFiles(context, table)
                .bucketAssigner(
                        new HivePartitionBucketAssigner(fileRowType(context, table), partitionKeys(context, table)))
                .rollingPolicy(new FileSizeRollingPolicy(
                        context.options().get(FileOptions.ROLLING_FILE_SIZE).getBytes()))
                .groupedInput(context.inputGroupedByPartition())
                .writerMemoryBudget(context.options())
                .build()
                .createWriter(restoredState, context.writerLineage().orElse(null));
        if (!serde) {
            return files;
        }
        SerDeRecords records = SerDeRecords.of(
                table,
                SerDeRecordWriter.fileType(context.rowType(), partitionKeys(context, table)),
                table.format().equals("text"));
        return new SerDeRecordWriter(files, records, context.rowType(), partitionKeys(context, table));
    }

    /**
     * The partition columns: the sink's, which a SQL table of a hive catalog always names, or for
     * a sink that names none (a DataStream job's {@code TableSinkBuilder}) the Hive table's own.
     * A sink naming others is refused in {@link #validate}.
     */
    static List<String> partitionKeys(SinkContext context, HiveTableInfo table) {
        return context.partitionKeys().isEmpty() ? table.partitionKeys : context.partitionKeys();
    }

    /**
     * The rows the part files get: the sink's, or for a text or SequenceFile table each row's SerDe
     * record and the partition keys ({@link SerDeRecordWriter}).
     */
    private static org.apache.flink.table.types.logical.RowType fileRowType(SinkContext context, HiveTableInfo table) {
        return HiveTableInfo.SERDE_FORMATS.contains(table.format())
                ? SerDeRecordWriter.recordType(context.rowType(), partitionKeys(context, table))
                : context.rowType();
    }

    @Override
    public TargetCommitter createCommitter(SinkContext context) throws IOException {
        boolean statistics = HiveStatistics.enabled(context);
        int threads = statistics ? HiveStatistics.threads(context) : 1;
        return new LazyTargetCommitter(() -> {
            HiveTableInfo table = HiveTableInfo.load(context.rawOptions());
            TargetCommitter files = partFiles(context, table).build().createCommitter();
            return statistics ? new StatisticsCommitter(files, table, threads) : files;
        });
    }

    private static PartFiles.Builder partFiles(SinkContext context, HiveTableInfo table) {
        SinkCompaction compaction = context.compaction()
                .orElseThrow(() -> new IllegalStateException("The framework offers no compaction to the hive target"));
        return PartFiles.builder(table.location)
                .bucketLocations(table::bucketLocation)
                .overwrite(context.overwrite())
                .compaction(compaction.enabled())
                .compactionParallelism(compaction.parallelism())
                .writers(() -> partWriters(context, table))
                // asked for at the first unit only: a job without compaction needs no compactor
                .compactor(compaction::compactor);
    }

    /** Hive keeps partition values in the directory names only, so the files leave those columns out. */
    private static PartWriters partWriters(SinkContext context, HiveTableInfo table) {
        String format = table.format();
        Map<String, String> options = new HashMap<>(context.rawOptions());
        if (table.compressOutput) {
            options.putAll(compression(table, format));
        }
        PartWriters writers = PartWriters.create(
                context.extensions(), format, fileRowType(context, table), options, partitionKeys(context, table));
        if (HiveWriterChoice.mapred(context, format)) {
            return writers.withBulkWriter(new HiveMapredWriterFactory(table, writers.fileType()));
        }
        return writers;
    }

    /**
     * Hive compresses what it writes when {@code hive.exec.compress.output} is true (here: a table
     * parameter, or the catalog's Hive configuration), with the codec and SequenceFile compression
     * type of Hadoop's output keys. SequenceFiles take it; Parquet and ORC have their own table
     * properties; a compressed text file cannot be a part file that is resumed after a failure.
     */
    private static Map<String, String> compression(HiveTableInfo table, String format) {
        if (format.equals("text")) {
            throw new IllegalArgumentException(
                    "Hive table " + table.path.getFullName() + " asks for compressed output ('"
                            + HiveTableInfo.COMPRESS_OUTPUT + "' = 'true'): the hive target writes text tables"
                            + " uncompressed only; set it to false, or store the table as sequencefile, orc or parquet");
        }
        if (!format.equals("sequence-file")) {
            return Map.of();
        }
        Map<String, String> settings = table.hiveSettings;
        String codec = settings.getOrDefault(
                "mapreduce.output.fileoutputformat.compress.codec",
                settings.getOrDefault("mapred.output.compression.codec", "org.apache.hadoop.io.compress.DefaultCodec"));
        String type = settings.getOrDefault(
                "mapreduce.output.fileoutputformat.compress.type",
                settings.getOrDefault("io.seqfile.compression.type", "RECORD"));
        // the formats plugin takes Hadoop's codec aliases: GzipCodec is 'gzip', DefaultCodec 'default'
        String alias = codec.substring(codec.lastIndexOf('.') + 1);
        if (alias.endsWith("Codec")) {
            alias = alias.substring(0, alias.length() - "Codec".length());
        }
        return Map.of(
                "sequence-file.compression.codec",
                alias.toLowerCase(java.util.Locale.ROOT),
                "sequence-file.compression.type",
                type);
    }
}

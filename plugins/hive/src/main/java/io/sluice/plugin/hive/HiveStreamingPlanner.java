package io.sluice.plugin.hive;

import io.sluice.spi.Payload;
import io.sluice.spi.source.PlannedSplit;
import io.sluice.spi.source.ScanPlan;
import io.sluice.spi.source.ScanPlanner;
import io.sluice.spi.source.SourceContext;

import org.apache.flink.connector.file.table.FileSystemConnectorOptions;
import org.apache.flink.connector.file.table.PartitionTimeExtractor;
import org.apache.flink.connectors.hive.HiveOptions.PartitionOrder;
import org.apache.flink.connectors.hive.HiveSourceFileEnumerator;
import org.apache.flink.connectors.hive.HiveTablePartition;
import org.apache.flink.connectors.hive.read.HiveSourceSplit;
import org.apache.flink.connectors.hive.util.HivePartitionUtils;
import org.apache.flink.table.catalog.hive.client.HiveMetastoreClientFactory;
import org.apache.flink.table.catalog.hive.client.HiveMetastoreClientWrapper;
import org.apache.flink.table.catalog.hive.client.HiveShimLoader;
import org.apache.flink.table.utils.PartitionPathUtils;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hive.metastore.api.Partition;
import org.apache.hadoop.hive.metastore.api.Table;
import org.apache.hadoop.mapred.JobConf;

import javax.annotation.Nullable;

import java.io.IOException;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * Plans a streaming read of a Hive table ({@code streaming-source.enable}): each plan asks the
 * metastore for the table's partitions, takes those that are new after the {@link
 * StreamingPosition} in the read's order, and splits their files as a bounded read does; an
 * unpartitioned table's new files are taken in the order of their modification times. Also plans
 * the latest partition for a temporal join ({@link #latest}).
 *
 * <p>Each plan costs one listing of the partition names (and, in {@code create-time} order, the
 * partitions themselves: their creation time is not in the name), whatever the position; only the
 * new partitions' files are listed.
 */
final class HiveStreamingPlanner implements ScanPlanner {

    /** Partitions fetched from the metastore per call, as Hive's own clients batch them. */
    private static final int BATCH = 1000;

    private final SourceContext context;
    private final HiveStreamingRead read;

    /** The table's settings, loaded by the first plan: a catalog opened once, not every poll. */
    @Nullable
    private Setting setting;

    HiveStreamingPlanner(SourceContext context, HiveStreamingRead read) {
        this.context = context;
        this.read = read;
    }

    @Override
    public ScanPlan plan(@Nullable Payload payload) throws IOException {
        if (setting == null) {
            setting = Setting.load(context);
        }
        Setting setting = this.setting;
        StreamingPosition position = payload == null
                ? read.startPosition(setting.table.path.getFullName(), setting.table.partitionKeys)
                : StreamingPosition.fromPayload(payload);
        try (HiveMetastoreClientWrapper client = setting.client()) {
            return setting.table.partitionKeys.isEmpty()
                    ? planFiles(setting, position)
                    : planPartitions(setting, client, position);
        } catch (IOException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException(
                    "Cannot plan a streaming read of Hive table " + setting.table.path.getFullName() + ": " + e, e);
        }
    }

    private ScanPlan planPartitions(Setting setting, HiveMetastoreClientWrapper client, StreamingPosition position)
            throws Exception {
        Keys keys = keys(setting, client, read.order);
        Map<String, Comparable<?>> taken = new LinkedHashMap<>();
        for (Map.Entry<String, Comparable<?>> e : keys.byName.entrySet()) {
            if (position.isNew(e.getKey(), e.getValue())) {
                taken.put(e.getKey(), e.getValue());
            }
        }
        List<String> names = sortedByKey(taken);
        List<HiveTablePartition> partitions = setting.partitions(client, names, keys.fetched);
        List<PlannedSplit> splits = HiveScanPlanner.planned(
                HiveSourceFileEnumerator.createInputSplits(0, partitions, setting.jobConf, false));
        return new ScanPlan(
                splits,
                position.after(taken, read.lookbackMillis(setting.table.partitionKeys))
                        .toPayload());
    }

    /** The unpartitioned table's files, each a split of its own, keyed by their modification time. */
    private ScanPlan planFiles(Setting setting, StreamingPosition position) throws Exception {
        Table hiveTable = setting.hiveTable; // fetched by this poll's client
        HiveTablePartition table = new HiveTablePartition(
                hiveTable.getSd(), org.apache.hadoop.hive.metastore.utils.MetaStoreUtils.getTableMetadata(hiveTable));
        Path root = new Path(hiveTable.getSd().getLocation());
        FileSystem fs = root.getFileSystem(setting.jobConf);
        boolean recursive = setting.jobConf.getBoolean(
                org.apache.hadoop.mapreduce.lib.input.FileInputFormat.INPUT_DIR_RECURSIVE, false);
        Map<String, Comparable<?>> taken = new LinkedHashMap<>();
        Map<String, FileStatus> files = new HashMap<>();
        String rootPath = root.toUri().getPath();
        for (FileStatus file : visibleFiles(fs, root, recursive)) {
            String name = file.getPath().toUri().getPath().substring(rootPath.length());
            Long key = HiveStreamingRead.localMillis(file.getModificationTime());
            if (position.isNew(name, key)) {
                taken.put(name, key);
                files.put(name, file);
            }
        }
        List<PlannedSplit> splits = new ArrayList<>();
        for (String name : sortedByKey(taken)) {
            FileStatus file = files.get(name);
            splits.addAll(HiveScanPlanner.planned(List.of(new HiveSourceSplit(
                    name,
                    new org.apache.flink.core.fs.Path(file.getPath().toUri()),
                    0,
                    file.getLen(),
                    file.getModificationTime(),
                    file.getLen(),
                    new String[0],
                    null,
                    table))));
        }
        return new ScanPlan(
                splits,
                position.after(taken, read.lookbackMillis(setting.table.partitionKeys))
                        .toPayload());
    }

    /** The files a reader of the folder would read: none whose name, or a folder's on the way, starts with '.' or '_'. */
    private static List<FileStatus> visibleFiles(FileSystem fs, Path dir, boolean recursive) throws IOException {
        List<FileStatus> files = new ArrayList<>();
        if (!fs.exists(dir)) {
            return files;
        }
        for (FileStatus status : fs.listStatus(dir)) {
            String name = status.getPath().getName();
            if (name.startsWith(".") || name.startsWith("_")) {
                continue;
            }
            if (status.isDirectory()) {
                if (recursive) {
                    files.addAll(visibleFiles(fs, status.getPath(), true));
                }
            } else {
                files.add(status);
            }
        }
        return files;
    }

    /**
     * The splits of the latest partition in the order (all partitions of the newest key: every
     * region of the newest day, say), for a temporal join of {@code partition.include = latest}.
     *
     * @throws IOException if the table has no partition yet, naming it, as upstream
     */
    static List<HiveSourceSplit> latest(SourceContext context, HiveStreamingRead read) throws IOException {
        Setting setting = Setting.load(context);
        try (HiveMetastoreClientWrapper client = setting.client()) {
            Keys keys = keys(setting, client, read.order);
            Comparable<?> newest = null;
            for (Comparable<?> key : keys.byName.values()) {
                if (newest == null || compare(key, newest) > 0) {
                    newest = key;
                }
            }
            if (newest == null) {
                throw new IOException("Hive table " + setting.table.path.getFullName() + " has no partition yet: a"
                        + " temporal join of its latest partition ('streaming-source.partition.include' = 'latest')"
                        + " needs one");
            }
            List<String> names = new ArrayList<>();
            for (Map.Entry<String, Comparable<?>> e : keys.byName.entrySet()) {
                if (compare(e.getValue(), newest) == 0) {
                    names.add(e.getKey());
                }
            }
            java.util.Collections.sort(names);
            return HiveSourceFileEnumerator.createInputSplits(
                    0, setting.partitions(client, names, keys.fetched), setting.jobConf, false);
        } catch (IOException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException(
                    "Cannot plan the latest partition of Hive table " + setting.table.path.getFullName() + ": " + e, e);
        }
    }

    /** Every partition's key in the order, by name; in {@code create-time} order with the partitions fetched. */
    private static Keys keys(Setting setting, HiveMetastoreClientWrapper client, PartitionOrder order)
            throws Exception {
        String db = setting.table.path.getDatabaseName();
        String tableName = setting.table.path.getObjectName();
        // -1: every partition (upstream asks for at most Short.MAX_VALUE and misses the rest)
        List<String> names = client.listPartitionNames(db, tableName, (short) -1);
        Keys keys = new Keys();
        switch (order) {
            case PARTITION_NAME:
                for (String name : names) {
                    keys.byName.put(name, name);
                }
                break;
            case PARTITION_TIME:
                PartitionTimeExtractor extractor = PartitionTimeExtractor.create(
                        HiveStreamingPlanner.class.getClassLoader(),
                        org.apache.flink.connector.file.table.DefaultPartTimeExtractor.DEFAULT,
                        null,
                        setting.context
                                .options()
                                .get(FileSystemConnectorOptions.PARTITION_TIME_EXTRACTOR_TIMESTAMP_PATTERN),
                        setting.context
                                .options()
                                .get(FileSystemConnectorOptions.PARTITION_TIME_EXTRACTOR_TIMESTAMP_FORMATTER));
                for (String name : names) {
                    LocalDateTime time;
                    try {
                        time = extractor.extract(
                                setting.table.partitionKeys,
                                PartitionPathUtils.extractPartitionValues(new org.apache.flink.core.fs.Path(name)));
                    } catch (RuntimeException e) {
                        throw new IOException(
                                "Partition " + SerDeRecords.printable(name) + " of Hive table "
                                        + setting.table.path.getFullName()
                                        + " holds no time that 'partition.time-extractor"
                                        + ".timestamp-pattern' finds ('streaming-source.partition-order' = 'partition-time'): "
                                        + e.getMessage(),
                                e);
                    }
                    keys.byName.put(name, HiveStreamingRead.localMillis(time));
                }
                break;
            case CREATE_TIME:
                for (int from = 0; from < names.size(); from += BATCH) {
                    List<String> batch = names.subList(from, Math.min(names.size(), from + BATCH));
                    List<Partition> partitions = client.getPartitionsByNames(db, tableName, batch);
                    for (int i = 0; i < partitions.size(); i++) {
                        Partition p = partitions.get(i);
                        String name = org.apache.hadoop.hive.metastore.Warehouse.makePartName(
                                setting.hiveTable.getPartitionKeys(), p.getValues());
                        keys.byName.put(name, HiveStreamingRead.localMillis(p.getCreateTime() * 1000L));
                        keys.fetched.put(name, p);
                    }
                }
                break;
            default:
                throw new IllegalStateException("Unknown partition order " + order);
        }
        return keys;
    }

    private static List<String> sortedByKey(Map<String, Comparable<?>> keys) {
        List<String> names = new ArrayList<>(keys.keySet());
        names.sort(Comparator.<String, Comparable<?>>comparing(keys::get, HiveStreamingPlanner::compare)
                .thenComparing(Comparator.naturalOrder()));
        return names;
    }

    private static int compare(Comparable<?> a, Comparable<?> b) {
        return StreamingPosition.compare(a, b);
    }

    @Override
    public void close() {}

    /** Partition keys in the order, by partition name, and the partitions already fetched for them. */
    private static final class Keys {
        final Map<String, Comparable<?>> byName = new LinkedHashMap<>();
        final Map<String, Partition> fetched = new HashMap<>();
    }

    /**
     * What a plan needs of the table: its metadata and the read's job configuration (loaded once),
     * and the metastore's {@code Table} as this poll's client fetched it.
     */
    static final class Setting {
        final SourceContext context;
        final HiveTableInfo table;
        final JobConf jobConf;
        Table hiveTable;

        Setting(SourceContext context, HiveTableInfo table, JobConf jobConf) {
            this.context = context;
            this.table = table;
            this.jobConf = jobConf;
        }

        static Setting load(SourceContext context) throws IOException {
            try {
                HiveTableInfo table = HiveTableInfo.loadWithoutPartitions(context.rawOptions());
                return new Setting(
                        context, table, HiveReadSettings.jobConf(table.hiveConf, context.jobConfiguration()));
            } catch (RuntimeException e) {
                throw new IOException(e.getMessage(), e);
            }
        }

        HiveMetastoreClientWrapper client() throws Exception {
            HiveMetastoreClientWrapper client =
                    HiveMetastoreClientFactory.create(table.hiveConf, HiveShimLoader.getHiveVersion());
            try {
                hiveTable = client.getTable(table.path.getDatabaseName(), table.path.getObjectName());
            } catch (Exception e) {
                client.close();
                throw e;
            }
            return client;
        }

        /** The named partitions as upstream's enumerator takes them, those the query's filters rule out left out. */
        List<HiveTablePartition> partitions(
                HiveMetastoreClientWrapper client, List<String> names, Map<String, Partition> fetched)
                throws Exception {
            Properties tableProps = org.apache.hadoop.hive.metastore.utils.MetaStoreUtils.getTableMetadata(hiveTable);
            HivePartitionFilters filters = context.pushedFilters().isPresent()
                    ? HivePartitionFilters.read(context.pushedFilters().get())
                    : null;
            List<String> missing = new ArrayList<>();
            for (String name : names) {
                if (!fetched.containsKey(name)) {
                    missing.add(name);
                }
            }
            Map<String, Partition> byName = new HashMap<>(fetched);
            for (int from = 0; from < missing.size(); from += BATCH) {
                for (Partition p : client.getPartitionsByNames(
                        table.path.getDatabaseName(),
                        table.path.getObjectName(),
                        missing.subList(from, Math.min(missing.size(), from + BATCH)))) {
                    byName.put(
                            org.apache.hadoop.hive.metastore.Warehouse.makePartName(
                                    hiveTable.getPartitionKeys(), p.getValues()),
                            p);
                }
            }
            List<HiveTablePartition> partitions = new ArrayList<>(names.size());
            for (String name : names) {
                Partition p = byName.get(name);
                if (p == null) {
                    continue; // dropped since it was listed: nothing to read
                }
                HiveTablePartition partition =
                        HivePartitionUtils.toHiveTablePartition(table.partitionKeys, tableProps, p);
                if (filters == null || filters.matches(partition.getPartitionSpec())) {
                    partitions.add(partition);
                }
            }
            return partitions;
        }
    }
}

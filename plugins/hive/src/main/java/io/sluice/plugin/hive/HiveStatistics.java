package io.sluice.plugin.hive;

import io.sluice.hadoopbridge.ObjectStores;
import io.sluice.partfiles.FileSystems;
import io.sluice.spi.sink.SinkContext;

import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.hadoop.hive.common.StatsSetupConst;
import org.apache.hadoop.hive.conf.HiveConf;
import org.apache.hadoop.hive.metastore.HiveMetaStoreClient;
import org.apache.hadoop.hive.metastore.api.EnvironmentContext;
import org.apache.hadoop.hive.metastore.api.NoSuchObjectException;
import org.apache.hadoop.hive.metastore.api.Partition;
import org.apache.hadoop.hive.metastore.api.Table;
import org.apache.orc.OrcFile;
import org.apache.orc.Reader;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The statistics a BATCH write gathers for the metastore, as upstream's keys: {@code numFiles} and
 * {@code totalSize} of every format, {@code numRows} and {@code rawDataSize} of Parquet and ORC
 * files from their footers only. Always computed from the data files a reader of the directory
 * sees (no names starting with {@code .} or {@code _}), not from what one commit added, so that a
 * retried commit, an append and an overwrite all set the same, absolute values.
 */
final class HiveStatistics {

    private static final Logger LOG = LoggerFactory.getLogger(HiveStatistics.class);

    static final ConfigOption<Boolean> ENABLE = ConfigOptions.key("table.exec.hive.sink.statistic-auto-gather.enable")
            .booleanType()
            .defaultValue(true)
            .withDescription("Gather statistics of the partitions (or the table) a BATCH job writes");

    static final ConfigOption<Integer> THREADS = ConfigOptions.key(
                    "table.exec.hive.sink.statistic-auto-gather.thread-num")
            .intType()
            .defaultValue(3)
            .withDescription("Threads that read the files' footers for the statistics");

    private static final String FOOTER_FORMATS = "parquet orc";

    private HiveStatistics() {}

    /** Whether the sink's job gathers statistics: BATCH mode and the option (job configuration) on. */
    static boolean enabled(SinkContext context) {
        ReadableConfig job = context.jobConfiguration();
        return job.get(ExecutionOptions.RUNTIME_MODE) == RuntimeExecutionMode.BATCH && job.get(ENABLE);
    }

    /** The threads the footers are read with, checked. */
    static int threads(SinkContext context) {
        int threads = context.jobConfiguration().get(THREADS);
        if (threads < 1) {
            throw new IllegalArgumentException(
                    "Invalid '" + THREADS.key() + "' " + threads + ": at least 1 thread gathers the statistics");
        }
        return threads;
    }

    /** The statistics of each directory, as metastore parameters, read with {@code threads} threads. */
    static Map<Path, Map<String, String>> gather(
            List<Path> dirs, String format, int threads, org.apache.hadoop.conf.Configuration tableConf)
            throws IOException {
        boolean footers = FOOTER_FORMATS.contains(format);
        // the table's (the catalog's site files, object stores through Flink), copied once for the readers
        org.apache.hadoop.conf.Configuration conf =
                ObjectStores.routeThroughFlink(new org.apache.hadoop.conf.Configuration(tableConf));
        Map<Path, List<FileStatus>> files = new LinkedHashMap<>();
        for (Path dir : dirs) {
            FileSystem fs = FileSystems.of(dir);
            List<FileStatus> data = new ArrayList<>();
            FileStatus[] listed = fs.exists(dir) ? fs.listStatus(dir) : new FileStatus[0];
            for (FileStatus status : listed == null ? new FileStatus[0] : listed) {
                String name = status.getPath().getName();
                if (!status.isDir() && !name.startsWith(".") && !name.startsWith("_")) {
                    data.add(status);
                }
            }
            files.put(dir, data);
        }
        Map<Path, List<Future<long[]>>> footerReads = new LinkedHashMap<>();
        // named, so that a thread dump (and the DEBUG log of each footer) shows who reads footers
        AtomicInteger created = new AtomicInteger();
        ExecutorService pool = footers
                ? Executors.newFixedThreadPool(threads, task -> {
                    Thread thread = new Thread(task, "sluice-hive-statistics-" + created.incrementAndGet());
                    thread.setDaemon(true);
                    return thread;
                })
                : null;
        try {
            if (footers) {
                ClassLoader loader = Thread.currentThread().getContextClassLoader();
                for (Map.Entry<Path, List<FileStatus>> dir : files.entrySet()) {
                    List<Future<long[]>> reads = new ArrayList<>();
                    for (FileStatus file : dir.getValue()) {
                        reads.add(pool.submit(() -> {
                            Thread.currentThread().setContextClassLoader(loader);
                            LOG.debug("Reading the footer of {} for the statistics", file.getPath());
                            return format.equals("orc")
                                    ? orcFooter(file.getPath(), conf)
                                    : parquetFooter(file.getPath(), conf);
                        }));
                    }
                    footerReads.put(dir.getKey(), reads);
                }
            }
            Map<Path, Map<String, String>> stats = new LinkedHashMap<>();
            for (Map.Entry<Path, List<FileStatus>> dir : files.entrySet()) {
                long size = 0;
                for (FileStatus file : dir.getValue()) {
                    size += file.getLen();
                }
                Map<String, String> params = new LinkedHashMap<>();
                params.put(
                        StatsSetupConst.NUM_FILES, Long.toString(dir.getValue().size()));
                params.put(StatsSetupConst.TOTAL_SIZE, Long.toString(size));
                if (footers) {
                    long rows = 0;
                    long raw = 0;
                    for (Future<long[]> read : footerReads.get(dir.getKey())) {
                        long[] footer = read.get();
                        rows += footer[0];
                        raw += footer[1];
                    }
                    params.put(StatsSetupConst.ROW_COUNT, Long.toString(rows));
                    params.put(StatsSetupConst.RAW_DATA_SIZE, Long.toString(raw));
                }
                stats.put(dir.getKey(), params);
            }
            return stats;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("Interrupted while gathering statistics", e);
        } catch (ExecutionException e) {
            throw new IOException("Cannot read a footer for the statistics: " + e.getCause(), e.getCause());
        } finally {
            if (pool != null) {
                pool.shutdownNow();
            }
        }
    }

    /** Rows and uncompressed size of a Parquet file, from its footer. */
    private static long[] parquetFooter(Path file, org.apache.hadoop.conf.Configuration conf) throws IOException {
        try (ParquetFileReader reader =
                ParquetFileReader.open(HadoopInputFile.fromPath(new org.apache.hadoop.fs.Path(file.toUri()), conf))) {
            long rows = 0;
            long raw = 0;
            for (BlockMetaData block : reader.getFooter().getBlocks()) {
                rows += block.getRowCount();
                raw += block.getTotalByteSize();
            }
            return new long[] {rows, raw};
        }
    }

    /** Rows and raw data size of an ORC file, from its footer. */
    private static long[] orcFooter(Path file, org.apache.hadoop.conf.Configuration conf) throws IOException {
        try (Reader reader =
                OrcFile.createReader(new org.apache.hadoop.fs.Path(file.toUri()), OrcFile.readerOptions(conf))) {
            return new long[] {reader.getNumberOfRows(), reader.getRawDataSize()};
        }
    }

    /**
     * Sets statistics on the metastore: on the table for partition name {@code ""}, else on the
     * partition. A partition the metastore does not have yet is left out (false): the {@code
     * metastore} policy, which adds it after the commit, sets them then.
     */
    static boolean write(HiveConf conf, ObjectPath path, String partitionName, Map<String, String> stats)
            throws IOException {
        HiveMetaStoreClient client;
        try {
            client = new HiveMetaStoreClient(conf);
        } catch (Exception e) {
            throw new IOException("Cannot open the metastore for the statistics of " + path.getFullName(), e);
        }
        EnvironmentContext context = new EnvironmentContext();
        // the values are ours: the metastore must not compute its own over them
        context.putToProperties(StatsSetupConst.DO_NOT_UPDATE_STATS, StatsSetupConst.TRUE);
        try {
            if (partitionName.isEmpty()) {
                Table table = client.getTable(path.getDatabaseName(), path.getObjectName());
                table.getParameters().putAll(stats);
                client.alter_table_with_environmentContext(
                        path.getDatabaseName(), path.getObjectName(), table, context);
                return true;
            }
            Partition partition;
            try {
                partition = client.getPartition(path.getDatabaseName(), path.getObjectName(), partitionName);
            } catch (NoSuchObjectException e) {
                return false;
            }
            partition.getParameters().putAll(stats);
            client.alter_partition(path.getDatabaseName(), path.getObjectName(), partition, context);
            return true;
        } catch (Exception e) {
            throw new IOException(
                    "Cannot write the statistics of " + path.getFullName()
                            + (partitionName.isEmpty() ? "" : " partition " + partitionName) + ": " + e.getMessage(),
                    e);
        } finally {
            client.close();
        }
    }
}

package io.sluice.plugin.iceberg.it;

import io.sluice.runtime.sink.SluiceSink;

import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Histogram;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.RowKind;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sink's metrics as a Flink reporter sees them: the writer's under group {@code
 * IcebergStreamWriter} with tags {@code table} and {@code subtask_index}, the committer's under
 * {@code IcebergFilesCommitter} with tag {@code table}, with the names of Iceberg's Flink sink and
 * values that match what the table holds afterwards.
 */
class IcebergMetricsIT {

    private static final InMemoryReporter METRICS = InMemoryReporter.createWithRetainedMetrics();

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                    .setConfiguration(METRICS.addToConfiguration(new Configuration()))
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(2)
                    .build());

    private static final RowType ROW = RowType.of(
            new LogicalType[] {new BigIntType(false), new VarCharType(VarCharType.MAX_LENGTH)},
            new String[] {"id", "name"});
    private static final String TABLE_NAME = "sluice_it.db.measured";

    @TempDir
    Path tmp;

    @BeforeAll
    static void onlyAfterPackaging() {
        TestPluginsDir.assumeIntegrationTestPhase();
    }

    @Test
    void writerAndCommitterMetricsMatchTheTable() throws Exception {
        Path warehouse = tmp.resolve("warehouse");
        // 1000 rows appended, then upserts: 100 of the keys updated and 50 deleted, data and delete files
        JobExecutionResult appended = run(warehouse, 1000, i -> row(RowKind.INSERT, i, "v1"), false);
        JobExecutionResult upserted = run(
                warehouse, 150, i -> i < 100 ? row(RowKind.UPDATE_AFTER, i, "v2") : row(RowKind.DELETE, i, null), true);

        Table table = IcebergTables.load(warehouse, "db", "measured");
        assertThat(IcebergTables.records(table)).hasSize(950);
        List<DataFile> dataFiles = new ArrayList<>();
        Set<String> deleteFiles = new HashSet<>();
        long deleteBytes = 0;
        try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
            for (FileScanTask task : tasks) {
                dataFiles.add(task.file());
                for (DeleteFile d : task.deletes()) {
                    if (deleteFiles.add(d.location())) {
                        deleteBytes += d.fileSizeInBytes();
                    }
                }
            }
        }

        // the first job: appends only
        Map<String, Metric> committer = group(appended, "IcebergFilesCommitter");
        assertThat(count(committer, "committedDataFilesRecordCount")).isEqualTo(1000);
        long firstFiles = count(committer, "committedDataFilesCount");
        assertThat(firstFiles).isPositive();
        assertThat(count(committer, "committedDeleteFilesCount")).isZero();
        assertThat(count(committer, "committedDeleteFilesRecordCount")).isZero();
        assertThat(gauge(committer, "lastCommitDurationMs")).isGreaterThanOrEqualTo(0);
        assertThat(gauge(committer, "lastCheckpointDurationMs")).isGreaterThanOrEqualTo(0);
        assertThat(gauge(committer, "elapsedSecondsSinceLastSuccessfulCommit")).isBetween(0L, 60L);
        Map<String, Metric> writer = group(appended, "IcebergStreamWriter");
        assertThat(count(writer, "flushedDataFiles")).isEqualTo(firstFiles);
        assertThat(count(writer, "flushedDeleteFiles")).isZero();
        assertThat(count(writer, "dataFilesSizeHistogram.count")).isEqualTo(firstFiles);
        assertThat(gauge(writer, "lastFlushDurationMs")).isGreaterThanOrEqualTo(0);

        // the second job: 100 rows written, 150 keys deleted by equality (an upsert deletes its key first)
        committer = group(upserted, "IcebergFilesCommitter");
        assertThat(count(committer, "committedDataFilesRecordCount")).isEqualTo(100);
        assertThat(count(committer, "committedDeleteFilesCount"))
                .isEqualTo(deleteFiles.size())
                .isPositive();
        assertThat(count(committer, "committedDeleteFilesRecordCount")).isEqualTo(150);
        assertThat(count(committer, "committedDeleteFilesByteCount")).isEqualTo(deleteBytes);
        assertThat(count(committer, "committedDataFilesCount") + firstFiles).isEqualTo(dataFiles.size());
        assertThat(count(committer, "committedDataFilesByteCount")
                        + count(group(appended, "IcebergFilesCommitter"), "committedDataFilesByteCount"))
                .isEqualTo(
                        dataFiles.stream().mapToLong(DataFile::fileSizeInBytes).sum());
        writer = group(upserted, "IcebergStreamWriter");
        assertThat(count(writer, "flushedDeleteFiles")).isEqualTo(deleteFiles.size());
        assertThat(count(writer, "deleteFilesSizeHistogram.count")).isEqualTo(deleteFiles.size());
        assertThat(count(writer, "flushedReferencedDataFiles")).isZero(); // no position deletes: each key once
    }

    private interface Rows extends java.io.Serializable {
        RowData row(long i);
    }

    private static RowData row(RowKind kind, long id, String name) {
        GenericRowData row = GenericRowData.of(id, name == null ? null : StringData.fromString(name));
        row.setRowKind(kind);
        return row;
    }

    /**
     * A bounded STREAMING job (BATCH would let the adaptive scheduler shrink the writers to one
     * subtask for so few rows) of parallelism 2 writing (or upserting) {@code count} generated rows into {@code db.measured}. */
    private JobExecutionResult run(Path warehouse, long count, Rows rows, boolean upsert) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        DataGeneratorSource<RowData> source = new DataGeneratorSource<>(rows::row, count, InternalTypeInfo.of(ROW));
        SluiceSink sink = SluiceSink.forRowData(ROW)
                .withOption("sluice.plugins.dir", TestPluginsDir.get().toString())
                .withOption("target", "iceberg")
                .withOption("catalog-name", "sluice_it")
                .withOption("catalog-type", "hadoop")
                .withOption("warehouse", warehouse.toUri().toString())
                .withOption("catalog-database", "db")
                .withOption("catalog-table", "measured")
                .withOption("format-version", "2")
                .withOption("upsert-enabled", String.valueOf(upsert))
                .withPrimaryKey("id")
                .build();
        env.fromSource(source, WatermarkStrategy.noWatermarks(), "rows")
                .keyBy(r -> r.getLong(0))
                .sinkTo(sink);
        return env.execute("iceberg metrics");
    }

    /**
     * The metrics of the job's groups named {@code name} (one per subtask for the writer), with
     * their tags checked; counters of several subtasks are summed under their name, the counts of
     * histograms under {@code <name>.count}.
     */
    private static Map<String, Metric> group(JobExecutionResult job, String name) {
        Map<String, Metric> metrics = new HashMap<>();
        Map<String, Long> sums = new HashMap<>();
        Set<String> subtasks = new HashSet<>();
        for (Map.Entry<MetricGroup, Map<String, Metric>> e :
                METRICS.getMetricsByGroup().entrySet()) {
            MetricGroup g = e.getKey();
            String[] scope = g.getScopeComponents();
            Map<String, String> tags = g.getAllVariables();

            if (!job.getJobID().toString().equals(tags.get("<job_id>"))
                    || !Arrays.asList(scope).contains(name)) {
                continue;
            }
            assertThat(tags).containsEntry("<table>", TABLE_NAME);
            assertThat(tags).containsKey("<subtask_index>");
            subtasks.add(tags.get("<subtask_index>"));
            for (Map.Entry<String, Metric> m : e.getValue().entrySet()) {
                if (m.getValue() instanceof Counter) {
                    sums.merge(m.getKey(), ((Counter) m.getValue()).getCount(), Long::sum);
                } else if (m.getValue() instanceof Histogram) {
                    sums.merge(m.getKey() + ".count", ((Histogram) m.getValue()).getCount(), Long::sum);
                }
                metrics.put(m.getKey(), m.getValue());
            }
        }
        assertThat(subtasks)
                .as("subtasks reporting %s", name)
                .isEqualTo(name.equals("IcebergStreamWriter") ? Set.of("0", "1") : Set.of("0"));
        sums.forEach((metric, sum) -> metrics.put(metric, new org.apache.flink.metrics.SimpleCounter() {
            {
                inc(sum);
            }
        }));
        return metrics;
    }

    private static long count(Map<String, Metric> metrics, String name) {
        assertThat(metrics).containsKey(name);
        return ((Counter) metrics.get(name)).getCount();
    }

    private static long gauge(Map<String, Metric> metrics, String name) {
        assertThat(metrics).containsKey(name);
        return ((Number) ((Gauge<?>) metrics.get(name)).getValue()).longValue();
    }
}

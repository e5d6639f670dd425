package io.sluice.plugin.iceberg.it;

import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code distribution-mode} on an Iceberg table partitioned by {@code days(ts)}: with {@code hash}
 * the rows of one day reach one writer (every data file of the partition carries one writer
 * subtask's number), with {@code none} several writers write each day. The table property {@code
 * write.distribution-mode} applies when the sink names no mode, and the sink's option wins over it.
 */
class IcebergHashDistributionIT {

    private static final int PARALLELISM = 4;
    private static final int DAYS = 5;
    private static final long ROWS = 8_000;

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(PARALLELISM)
                    .build());

    @TempDir
    Path tmp;

    @BeforeAll
    static void onlyAfterPackaging() {
        TestPluginsDir.assumeIntegrationTestPhase();
    }

    @Test
    void hashPutsEachDayOnOneWriterNoneSpreadsIt() throws Exception {
        assertThat(writersPerPartition(write("hash", null, "'distribution-mode' = 'hash', ")))
                .hasSize(DAYS)
                .allSatisfy((day, writers) -> assertThat(writers).as(day).hasSize(1));
        assertThat(writersPerPartition(write("none", null, "")))
                .hasSize(DAYS)
                .allSatisfy((day, writers) -> assertThat(writers).as(day).hasSizeGreaterThan(1));
    }

    @Test
    void theTablePropertyAppliesUnlessTheSinkNamesAMode() throws Exception {
        assertThat(writersPerPartition(write("by-table", "hash", "")))
                .hasSize(DAYS)
                .allSatisfy((day, writers) -> assertThat(writers).as(day).hasSize(1));
        assertThat(writersPerPartition(write("option-wins", "hash", "'distribution-mode' = 'none', ")))
                .hasSize(DAYS)
                .allSatisfy((day, writers) -> assertThat(writers).as(day).hasSizeGreaterThan(1));
    }

    /** Ids 1..ROWS, day {@code id % DAYS}, from PARALLELISM source subtasks, STREAMING, into a new table. */
    private Table write(String name, String tableMode, String modeOption) throws Exception {
        Path warehouse = tmp.resolve(name);
        Schema schema = new Schema(
                Types.NestedField.required(1, "id", Types.LongType.get()),
                Types.NestedField.optional(2, "ts", Types.TimestampType.withoutZone()));
        try (HadoopCatalog catalog = IcebergTables.catalog(warehouse)) {
            catalog.createTable(
                    TableIdentifier.of(Namespace.of("db"), "t"),
                    schema,
                    PartitionSpec.builderFor(schema).day("ts").build(),
                    tableMode == null ? Map.of() : Map.of(TableProperties.WRITE_DISTRIBUTION_MODE, tableMode));
        }
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(PARALLELISM);
        env.enableCheckpointing(300);
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
        tEnv.executeSql("CREATE TABLE numbers (id BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '" + ROWS
                + "', 'rows-per-second' = '8000', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1',"
                + " 'fields.id.end' = '" + ROWS + "')");
        tEnv.executeSql("CREATE TABLE t (id BIGINT NOT NULL, ts TIMESTAMP(6)) WITH ("
                + "'connector' = 'sluice', 'target' = 'iceberg', 'sluice.plugins.dir' = '" + TestPluginsDir.get()
                + "', "
                + modeOption + "'catalog-type' = 'hadoop', 'warehouse' = '" + warehouse.toUri() + "', "
                + "'catalog-database' = 'db', 'catalog-table' = 't')");
        tEnv.executeSql("INSERT INTO t SELECT id, TIMESTAMPADD(DAY, CAST(id % " + DAYS + " AS INT),"
                        + " TIMESTAMP '2024-01-01 00:00:00') FROM numbers")
                .await();

        Table table = IcebergTables.load(warehouse, "db", "t");
        List<Long> ids = IcebergTables.rows(table).stream()
                .map(r -> Long.parseLong(r.split("\\|")[0]))
                .collect(Collectors.toList());
        assertThat(ids)
                .as("every row once")
                .hasSize((int) ROWS)
                .containsExactlyInAnyOrderElementsOf(
                        LongStream.rangeClosed(1, ROWS).boxed().collect(Collectors.toList()));
        return table;
    }

    /**
     * partition -> the writer subtasks whose data files it has: upstream's file names start with
     * the writer's subtask index ({@code 00002-0-<operation>-00001.parquet}).
     */
    private static Map<String, Set<String>> writersPerPartition(Table table) throws Exception {
        Map<String, Set<String>> writers = new TreeMap<>();
        try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
            for (FileScanTask task : tasks) {
                String file =
                        Path.of(task.file().path().toString()).getFileName().toString();
                writers.computeIfAbsent(table.spec().partitionToPath(task.file().partition()), k -> new TreeSet<>())
                        .add(file.substring(0, file.indexOf('-')));
            }
        }
        return writers;
    }
}

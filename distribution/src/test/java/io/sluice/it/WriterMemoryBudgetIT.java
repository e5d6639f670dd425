package io.sluice.it;

import io.sluice.runtime.sink.SluiceSink;

import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * One writer subtask with 10,000 partitions of Parquet open at once, in a JVM of 1 GB heap (its
 * own Failsafe execution, {@code distribution/pom.xml}): 100,000 rows, the partitions taking turns
 * (ten rows each, spread over the whole input), STREAMING without checkpoints, so no checkpoint
 * rolls a file, nothing sorts the rows by partition (BATCH would: one file open at a time) and
 * every partition's file stays open to the end of input unless the writer memory budget rolls it.
 * An open file of these three columns holds about 80 KB (DirectParquetWriterHeapTest), 10,000 of
 * them more than the heap. The budget (its default, an eighth of the heap) rolls the largest once,
 * then the writer holds the rows of the partitions without an open file and writes one file per
 * partition at the end: at most two files a partition (a file per overrun before, one or two rows
 * each), and parquet-java reads every number back once.
 */
class WriterMemoryBudgetIT {

    private static final int PARTITIONS = 10_000;
    private static final long ROWS = 100_000;

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(1)
                    .build());

    private static final RowType ROW = RowType.of(
            new LogicalType[] {
                new BigIntType(false),
                new VarCharType(false, 10),
                new VarCharType(VarCharType.MAX_LENGTH),
                new DoubleType()
            },
            new String[] {"id", "p", "s", "d"});

    @TempDir
    Path tmp;

    @Test
    void tenThousandOpenPartitionsOfParquetCompleteInAOneGigabyteHeap() throws Exception {
        // with -Dit.test the default execution runs it too: only the one with 1 GB of heap counts
        assumeTrue(Boolean.getBoolean("sluice.test.heap-1g"), "runs in the one-gigabyte-heap execution");
        assertThat(Runtime.getRuntime().maxMemory())
                .as("the one-gigabyte-heap execution's JVM")
                .isLessThanOrEqualTo(1100L << 20);
        Path out = tmp.resolve("out");

        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setRuntimeMode(RuntimeExecutionMode.STREAMING);
        env.setParallelism(1);
        env.fromSequence(1, ROWS)
                .map(i -> (RowData) GenericRowData.of(
                        i,
                        StringData.fromString("p" + (i - 1) % PARTITIONS),
                        StringData.fromString("value-" + i % 50),
                        i * 0.5))
                .returns(InternalTypeInfo.of(ROW))
                .sinkTo(SluiceSink.forRowData(ROW)
                        .withTarget("filesystem")
                        .withPluginsDir(TestDistribution.pluginsDir())
                        .withPath(out.toString())
                        .withFormat("parquet")
                        .withPartitionKeys("p")
                        .withOptions(java.util.Map.of(
                                "sink.writer.memory-budget", System.getProperty("sluice.test.budget", "128mb")))
                        .build());
        env.execute("10,000 open partitions of parquet in 1 GB");

        long peak = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                peak += pool.getPeakUsage().getUsed();
            }
        }
        List<Long> ids = CommittedFiles.parquet(out, g -> g.getLong("id", 0));
        System.out.println(
                "WriterMemoryBudgetIT: " + CommittedFiles.visible(out).size() + " files, peak heap " + (peak >> 20)
                        + " MB of " + (Runtime.getRuntime().maxMemory() >> 20) + " MB");
        assertThat(ids).hasSize((int) ROWS).doesNotHaveDuplicates();
        assertThat(ids.stream().mapToLong(Long::longValue).max().getAsLong()).isEqualTo(ROWS);
        assertThat(partitionDirectories(out)).isEqualTo(PARTITIONS);
        assertThat(CommittedFiles.visible(out).size())
                .as("files: at most two a partition")
                .isLessThanOrEqualTo(2 * PARTITIONS);
    }

    private static long partitionDirectories(Path out) throws IOException {
        try (Stream<Path> dirs = Files.list(out)) {
            return dirs.filter(d -> d.getFileName().toString().startsWith("p=")).count();
        }
    }
}

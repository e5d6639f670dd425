package io.sluice.partfiles;

import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** Rows of many buckets held, spilled and handed back bucket by bucket, each in the order it came. */
class BucketRowBufferTest {

    private static final RowType ROW = RowType.of(
            new LogicalType[] {new BigIntType(false), new VarCharType(VarCharType.MAX_LENGTH)},
            new String[] {"id", "s"});

    @Test
    void everyBucketsRowsComeBackInOrderFromMemoryAndFromEveryRun() throws Exception {
        Random random = new Random(20261207);
        Map<String, List<Long>> expected = new java.util.TreeMap<>();
        List<Path> runsBefore = runFiles();
        try (BucketRowBuffer buffer = new BucketRowBuffer(ROW)) {
            for (long id = 0; id < 5_000; id++) {
                String bucket = "dt=" + random.nextInt(40);
                buffer.add(
                        bucket, GenericRowData.of(id, StringData.fromString("v" + id + "-".repeat((int) (id % 17)))));
                expected.computeIfAbsent(bucket, b -> new ArrayList<>()).add(id);
                if (id % 1_234 == 1_233) {
                    long held = buffer.heapBytes();
                    buffer.spill();
                    assertThat(buffer.heapBytes())
                            .as("heap after a spill of %d bytes", held)
                            .isZero();
                }
            }
            assertThat(buffer.runs()).isEqualTo(4);
            assertThat(runFiles()).as("the runs on local disk").hasSize(runsBefore.size() + 4);

            Map<String, List<Long>> drained = new LinkedHashMap<>();
            buffer.drain(new BucketRowBuffer.BucketSink() {
                private String current;

                @Override
                public void begin(String bucketId) {
                    assertThat(drained).doesNotContainKey(bucketId);
                    current = bucketId;
                    drained.put(bucketId, new ArrayList<>());
                }

                @Override
                public void row(RowData row) {
                    drained.get(current).add(row.getLong(0));
                    assertThat(row.getString(1).toString()).startsWith("v" + row.getLong(0));
                }

                @Override
                public void end(String bucketId) {
                    assertThat(bucketId).isEqualTo(current);
                }
            });
            assertThat(drained).isEqualTo(expected);
            assertThat(new ArrayList<>(drained.keySet())).isSorted();
            assertThat(buffer.isEmpty()).isTrue();
            assertThat(buffer.runs()).isZero();
            assertThat(runFiles()).as("runs deleted once drained").hasSameElementsAs(runsBefore);
        }
    }

    @Test
    void theHeapCountsTheRowsBytesAndABucketsOverhead() throws Exception {
        try (BucketRowBuffer buffer = new BucketRowBuffer(ROW)) {
            assertThat(buffer.heapBytes()).isZero();
            buffer.add("a", GenericRowData.of(1L, StringData.fromString("x")));
            long oneBucket = buffer.heapBytes();
            assertThat(oneBucket).isGreaterThanOrEqualTo(BucketRowBuffer.BUCKET_OVERHEAD_BYTES);
            for (int i = 0; i < 1_000; i++) {
                buffer.add("a", GenericRowData.of((long) i, StringData.fromString("x".repeat(100))));
            }
            assertThat(buffer.heapBytes()).as("1,000 rows of over 100 bytes").isGreaterThan(100_000);
        }
    }

    @Test
    void closingDeletesTheRuns() throws Exception {
        List<Path> runsBefore = runFiles();
        BucketRowBuffer buffer = new BucketRowBuffer(ROW);
        buffer.add("a", GenericRowData.of(1L, StringData.fromString("x")));
        buffer.spill();
        assertThat(runFiles()).hasSize(runsBefore.size() + 1);
        buffer.close();
        assertThat(runFiles()).hasSameElementsAs(runsBefore);
    }

    private static List<Path> runFiles() throws IOException {
        try (Stream<Path> files = Files.list(Paths.get(System.getProperty("java.io.tmpdir")))) {
            return files.filter(f -> f.getFileName().toString().startsWith("sluice-rows-"))
                    .collect(java.util.stream.Collectors.toList());
        }
    }
}

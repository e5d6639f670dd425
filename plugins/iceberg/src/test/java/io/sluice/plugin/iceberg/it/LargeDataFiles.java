package io.sluice.plugin.iceberg.it;

import io.sluice.testservers.s3.S3Fault;
import io.sluice.testservers.s3.S3Request;
import io.sluice.testservers.s3.S3Server;

import org.apache.flink.table.api.TableEnvironment;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;

import java.io.IOException;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A write of data files larger than S3's least part (5 MB), so that they go up as multipart
 * uploads, under faults on the part uploads and completions: the rows, the faults, and the check
 * of what was written. For the iceberg plugin's two S3 clients (S3A through Flink, S3FileIO).
 */
final class LargeDataFiles {

    /** S3's least part size, which the tests set their clients' part size to. */
    static final long PART_SIZE = 5L * 1024 * 1024;

    /** 1,000 random hex characters a row: some 12 MB of Parquet, three parts. */
    static final int ROWS = 24_000;

    private LargeDataFiles() {}

    /**
     * Writes the rows into {@code table} ({@code id BIGINT, payload STRING}) by one writer, so that
     * its file is large, restarting the job up to five times, while {@code s3}'s proxy injects
     * {@link #faults}; returns the faults injected.
     */
    static List<String> insertUnderFaults(TableEnvironment tEnv, String table, S3Server s3, long seed)
            throws Exception {
        tEnv.getConfig().set("parallelism.default", "1");
        tEnv.getConfig().set("restart-strategy.type", "fixed-delay");
        tEnv.getConfig().set("restart-strategy.fixed-delay.attempts", "5");
        tEnv.getConfig().set("restart-strategy.fixed-delay.delay", "200 ms");
        createSource(tEnv);
        s3.traffic().faults(faults(seed));
        try {
            tEnv.executeSql("INSERT INTO " + table + " SELECT id, payload FROM payloads")
                    .await();
        } finally {
            s3.traffic().faults(S3Fault.Plan.NONE);
        }
        return s3.traffic().injectedFaults();
    }

    /** A bounded datagen table {@code payloads (id BIGINT, payload STRING)} of ids 1 to {@link #ROWS}. */
    private static void createSource(TableEnvironment tEnv) {
        tEnv.executeSql("CREATE TEMPORARY TABLE payloads (id BIGINT, payload STRING) WITH ('connector' = 'datagen', "
                + "'number-of-rows' = '" + ROWS + "', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', "
                + "'fields.id.end' = '" + ROWS + "', 'fields.payload.length' = '1000')");
    }

    /**
     * The second part upload reset mid-upload, and parts and completions failed at random (503,
     * 500, resets mid-upload), three faults at most from {@code seed}.
     */
    private static S3Fault.Plan faults(long seed) {
        S3Fault.Plan secondPartReset = S3Fault.Plan.nth(S3Request.Kind.UPLOAD_PART, 2, S3Fault.resetMidRequest());
        S3Fault.Plan random = S3Fault.Plan.random(
                seed,
                0.3,
                3,
                EnumSet.of(S3Request.Kind.UPLOAD_PART, S3Request.Kind.MULTIPART_COMPLETE),
                S3Fault.slowDown(),
                S3Fault.internalError(),
                S3Fault.resetMidRequest());
        return (request, sequence) -> {
            S3Fault fault = secondPartReset.decide(request, sequence);
            return fault != null ? fault : random.decide(request, sequence);
        };
    }

    /**
     * Checks the requests (faults injected, two part uploads at least) and the table read by
     * Iceberg's reader (every id once, a data file larger than a part); prints the counts.
     */
    static void check(String client, Table table, List<S3Request> requests, List<String> faults) throws IOException {
        long parts = requests.stream()
                .filter(r -> r.kind() == S3Request.Kind.UPLOAD_PART)
                .count();
        long uploads = requests.stream()
                .filter(r -> r.kind() == S3Request.Kind.MULTIPART_INIT)
                .count();
        Map<Long, Integer> counts = new TreeMap<>();
        try (CloseableIterable<Record> read =
                IcebergGenerics.read(table).select("id").build()) {
            read.forEach(r -> counts.merge((Long) r.getField("id"), 1, Integer::sum));
        }
        long lost = LongStream.rangeClosed(1, ROWS)
                .filter(id -> !counts.containsKey(id))
                .count();
        long duplicates = counts.values().stream().mapToLong(c -> c - 1).sum();
        System.out.println("iceberg multipart, " + client + ": " + uploads + " uploads begun, " + parts
                + " part uploads, " + faults.size() + " faults " + faults + "; rows " + ROWS + ", lost " + lost
                + ", duplicates " + duplicates);
        assertThat(faults).as("faults injected").isNotEmpty();
        assertThat(parts).as("part uploads").isGreaterThanOrEqualTo(2);
        assertThat(lost).as("rows lost; faults " + faults).isZero();
        assertThat(duplicates).as("rows twice; faults " + faults).isZero();
        assertThat(counts).hasSize(ROWS);
        try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
            assertThat(tasks)
                    .as("a data file larger than a part")
                    .anyMatch(task -> task.file().fileSizeInBytes() > PART_SIZE);
        }
    }
}

package io.sluice.bench;

import io.sluice.testshared.BenchmarkRows;
import io.sluice.testshared.TimedRun;

import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.VarCharType;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

import static io.sluice.testshared.BenchmarkMachine.cpuModel;
import static io.sluice.testshared.BenchmarkMachine.mb;

/**
 * What the file benchmarks ({@link FileSinkBenchmark}, {@link FileSourceBenchmark}) share, so that
 * their knobs, rows, timings and ratios mean the same: the {@code sluice.bench.*} knobs, the rows
 * (schema and generator), one timed job, the medians and ratios of the table, and where the table
 * goes.
 */
final class BenchHarness {

    static final long ROWS = Long.getLong("sluice.bench.rows", 5_000_000L);
    static final int WARMUP = Integer.getInteger("sluice.bench.warmup", 1);
    static final int RUNS = Integer.getInteger("sluice.bench.runs", 5);

    static final RowType ROW = RowType.of(
            new LogicalType[] {
                new BigIntType(), new VarCharType(VarCharType.MAX_LENGTH), new DoubleType(), new TimestampType(3)
            },
            new String[] {"id", "name", "amount", "ts"});

    private BenchHarness() {}

    /** The cases of {@code -Dsluice.bench.cases}, or the benchmark's defaults (comma-separated). */
    static List<String> cases(String defaults) {
        return Arrays.stream(System.getProperty("sluice.bench.cases", defaults).split(","))
                .map(String::trim)
                .collect(Collectors.toList());
    }

    /** Runs the job built on {@code env}: its net run time on the cluster, wall time, and the JVM's CPU time. */
    static Run execute(StreamExecutionEnvironment env, String jobName) throws Exception {
        return new Run(TimedRun.execute(env, jobName, ROWS));
    }

    // ------------------------------------------------------------------ rows

    /**
     * Row i: (i, 16 letters derived from a hash of i, an amount with cents, a timestamp one
     * millisecond per row apart). The same for both sides of every benchmark; the names do not
     * repeat, so Parquet's dictionary gives up on them as it would on real names or ids.
     */
    static final class Rows implements GeneratorFunction<Long, RowData> {
        private static final long serialVersionUID = 1L;
        static final long EPOCH_2025 = 1_735_689_600_000L;

        @Override
        public RowData map(Long i) {
            long h = BenchmarkRows.hash(i);
            return GenericRowData.of(
                    i,
                    StringData.fromString(BenchmarkRows.name(h)),
                    BenchmarkRows.amount(h),
                    TimestampData.fromEpochMillis(EPOCH_2025 + i));
        }
    }

    // ------------------------------------------------------------------ results

    /** One timed job, and what the benchmark found of its output. */
    static final class Run extends TimedRun {
        long bytes;
        int files;
        long checksum;

        Run(TimedRun timing) {
            super(timing);
        }
    }

    /** Date, cores and CPU, OS, Java and heap: the first words of a results table's caption. */
    static String machine() {
        return String.format(
                Locale.ROOT,
                "%s, %d cores (%s), %s %s, Java %s, max heap %s",
                LocalDate.now(),
                Runtime.getRuntime().availableProcessors(),
                cpuModel(),
                System.getProperty("os.name"),
                System.getProperty("os.arch"),
                System.getProperty("java.version"),
                mb(Runtime.getRuntime().maxMemory()));
    }

    /**
     * Prints the report and writes it to {@code -Dsluice.bench.results} (the profile sets
     * {@code target/benchmark-results.md}), or, with a file name, to that file beside it: each
     * benchmark of one run keeps its own table.
     */
    static void writeReport(String report, String siblingName) throws IOException {
        System.out.println();
        System.out.println(report);
        Path file = Paths.get(System.getProperty("sluice.bench.results", "target/benchmark-results.md"));
        if (siblingName != null) {
            file = file.resolveSibling(siblingName);
        }
        Files.write(file, report.getBytes(StandardCharsets.UTF_8));
        System.out.println("written to " + file.toAbsolutePath());
    }

    static void log(String line) {
        System.out.println(line);
    }
}

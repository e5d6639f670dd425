package io.sluice.bench;

import io.sluice.testshared.BenchmarkRows;

import org.apache.flink.api.common.serialization.BulkWriter;
import org.apache.flink.core.fs.FileSystem.WriteMode;
import org.apache.flink.core.fs.local.LocalFileSystem;
import org.apache.flink.formats.parquet.row.ParquetRowDataBuilder;
import org.apache.flink.formats.parquet.utils.ParquetSchemaConverter;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.hadoop.util.HadoopOutputFile;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.MessageType;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static io.sluice.testshared.BenchmarkMachine.processCpuNanos;

/**
 * What the benchmark's parquet job costs without Flink around it: the same rows written by the
 * same number of threads, each into its own local file, in a plain loop. Three loops, each a
 * limit a sink cannot beat on this machine:
 *
 * <ul>
 *   <li>{@code generator}: the rows made (as the job's generator makes them) and dropped;
 *   <li>{@code generator + Flink RowData writer}: each row made as a {@link RowData} and written by
 *       Flink's {@code ParquetRowDataBuilder} writer, the encoder FileSink's parquet case uses;
 *   <li>{@code parquet-java from primitive fields}: the same values handed to parquet-java's record
 *       consumer as primitives (no RowData, no objects per row but the name), the cheapest way
 *       parquet-java's public writer API offers.
 * </ul>
 *
 * All SNAPPY, INT96 timestamps in UTC, the schema Flink derives: the same files as the jobs'.
 */
final class ParquetEncoderLimit {

    static final String GENERATOR = "generator";
    static final String ROWDATA_WRITER = "generator + Flink RowData writer";
    static final String PRIMITIVES = "parquet-java from primitive fields";

    private static final long EPOCH_2025 = BenchHarness.Rows.EPOCH_2025;

    private final RowType rowType;
    private final long rows;
    private final int threads;

    ParquetEncoderLimit(RowType rowType, long rows, int threads) {
        this.rowType = rowType;
        this.rows = rows;
        this.threads = threads;
    }

    /** One timed run of a loop: {wall nanos, CPU nanos of the JVM}; files are verified and deleted. */
    long[] run(String loop, Path dir) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<Long>> parts = new ArrayList<>();
            long cpuStart = processCpuNanos();
            long start = System.nanoTime();
            for (int t = 0; t < threads; t++) {
                long from = rows * t / threads;
                long to = rows * (t + 1) / threads;
                Path file = dir.resolve("limit-" + t + ".parquet");
                parts.add(pool.submit(() -> write(loop, from, to, file)));
            }
            long written = 0;
            for (Future<Long> part : parts) {
                written += part.get();
            }
            long wall = System.nanoTime() - start;
            long cpu = processCpuNanos() - cpuStart;
            if (!loop.equals(GENERATOR)) {
                long inFiles = 0;
                for (int t = 0; t < threads; t++) {
                    inFiles += rowCount(dir.resolve("limit-" + t + ".parquet"));
                }
                written = inFiles;
            }
            if (written != rows) {
                throw new AssertionError(loop + " wrote " + written + " rows, not " + rows);
            }
            return new long[] {wall, cpu};
        } finally {
            pool.shutdownNow();
        }
    }

    private long write(String loop, long from, long to, Path file) throws IOException {
        switch (loop) {
            case GENERATOR: {
                // consume every field, so the JIT cannot drop the rows
                BenchHarness.Rows generator = new BenchHarness.Rows();
                long sum = 0;
                for (long i = from; i < to; i++) {
                    RowData row = generator.map(i);
                    sum += row.getLong(0)
                            + row.getString(1).toBytes().length
                            + (long) row.getDouble(2)
                            + row.getTimestamp(3, 3).getMillisecond();
                }
                return sum == Long.MIN_VALUE ? -1 : to - from;
            }
            case ROWDATA_WRITER: {
                BenchHarness.Rows generator = new BenchHarness.Rows();
                BulkWriter.Factory<RowData> factory = ParquetRowDataBuilder.createWriterFactory(rowType, conf(), true);
                try (org.apache.flink.core.fs.FSDataOutputStream out = LocalFileSystem.getSharedInstance()
                        .create(new org.apache.flink.core.fs.Path(file.toUri()), WriteMode.OVERWRITE)) {
                    BulkWriter<RowData> writer = factory.create(out);
                    for (long i = from; i < to; i++) {
                        writer.addElement(generator.map(i));
                    }
                    writer.finish();
                }
                return to - from;
            }
            case PRIMITIVES: {
                Configuration conf = conf();
                MessageType schema = ParquetSchemaConverter.convertToParquetMessageType("flink_schema", rowType, conf);
                OutputFile out = HadoopOutputFile.fromPath(new org.apache.hadoop.fs.Path(file.toUri()), conf);
                try (ParquetWriter<Long> writer = new PrimitiveRowsBuilder(out, schema)
                        .withConf(conf)
                        .withCompressionCodec(CompressionCodecName.SNAPPY)
                        .withWriteMode(org.apache.parquet.hadoop.ParquetFileWriter.Mode.OVERWRITE)
                        .build()) {
                    for (long i = from; i < to; i++) {
                        writer.write(i);
                    }
                }
                return to - from;
            }
            default:
                throw new IllegalArgumentException(loop);
        }
    }

    private static Configuration conf() {
        Configuration conf = new Configuration();
        conf.set("parquet.compression", "SNAPPY");
        return conf;
    }

    private static long rowCount(Path file) throws IOException {
        try (ParquetFileReader reader = ParquetFileReader.open(
                HadoopInputFile.fromPath(new org.apache.hadoop.fs.Path(file.toUri()), new Configuration()))) {
            return reader.getRecordCount();
        }
    }

    private static final class PrimitiveRowsBuilder extends ParquetWriter.Builder<Long, PrimitiveRowsBuilder> {
        private final MessageType schema;

        PrimitiveRowsBuilder(OutputFile file, MessageType schema) {
            super(file);
            this.schema = schema;
        }

        @Override
        protected PrimitiveRowsBuilder self() {
            return this;
        }

        @Override
        protected WriteSupport<Long> getWriteSupport(Configuration conf) {
            return new PrimitiveRows(schema);
        }
    }

    /** Row {@code i}'s values, as the generator computes them, straight into the record consumer. */
    private static final class PrimitiveRows extends WriteSupport<Long> {
        private static final long MILLIS_PER_DAY = 86_400_000L;
        private static final int JULIAN_DAY_OF_EPOCH = 2_440_588;

        private final MessageType schema;
        private final byte[] int96 = new byte[12];
        private RecordConsumer consumer;

        PrimitiveRows(MessageType schema) {
            this.schema = schema;
        }

        @Override
        public WriteContext init(Configuration configuration) {
            return new WriteContext(schema, new HashMap<>());
        }

        @Override
        public void prepareForWrite(RecordConsumer recordConsumer) {
            this.consumer = recordConsumer;
        }

        @Override
        public void write(Long boxed) {
            long i = boxed;
            long h = BenchmarkRows.hash(i);
            long millis = EPOCH_2025 + i;
            long nanosOfDay = (millis % MILLIS_PER_DAY) * 1_000_000L;
            int julianDay = (int) (millis / MILLIS_PER_DAY + JULIAN_DAY_OF_EPOCH);
            for (int b = 0; b < 8; b++) {
                int96[b] = (byte) (nanosOfDay >>> (8 * b));
            }
            for (int b = 0; b < 4; b++) {
                int96[8 + b] = (byte) (julianDay >>> (8 * b));
            }
            consumer.startMessage();
            consumer.startField("id", 0);
            consumer.addLong(i);
            consumer.endField("id", 0);
            consumer.startField("name", 1);
            consumer.addBinary(Binary.fromString(BenchmarkRows.name(h)));
            consumer.endField("name", 1);
            consumer.startField("amount", 2);
            consumer.addDouble(BenchmarkRows.amount(h));
            consumer.endField("amount", 2);
            consumer.startField("ts", 3);
            consumer.addBinary(Binary.fromReusedByteArray(int96));
            consumer.endField("ts", 3);
            consumer.endMessage();
        }
    }
}

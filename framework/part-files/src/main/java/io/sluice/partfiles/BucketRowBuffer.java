package io.sluice.partfiles;

import org.apache.flink.core.memory.DataInputViewStreamWrapper;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.RowType;

import java.io.BufferedInputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The rows one writer received for many buckets since its last checkpoint, held as bytes instead of
 * in open files, so that a writer of thousands of partitions writes each partition's file at the
 * checkpoint, one file after the other, with one file's buffers in its heap instead of thousands.
 * When the bytes outgrow the writer's memory budget they are spilled to a local file as a run,
 * bucket after bucket; {@link #drain} then reads each bucket's rows from every run and from memory,
 * in the order they came.
 *
 * <p>The rows are those after the last checkpoint: a failure loses them with the process and the
 * source replays them, as the rows of an open bulk file. Runs are deleted when drained and at
 * {@link #close}; a killed process leaves them in the JVM's temporary directory.
 */
final class BucketRowBuffer implements Closeable {

    /** What a bucket costs besides its rows' bytes: its map entry, id and buffer object. */
    static final int BUCKET_OVERHEAD_BYTES = 160;

    private static final int FIRST_BUFFER_BYTES = 256;

    /** What the rows of one bucket go into. */
    interface BucketSink {
        void begin(String bucketId) throws IOException;

        void row(RowData row) throws IOException;

        void end(String bucketId) throws IOException;
    }

    /** Where one bucket's rows are in one run. */
    private static final class Segment {
        final int run;
        final long offset;
        final int length;

        Segment(int run, long offset, int length) {
            this.run = run;
            this.offset = offset;
            this.length = length;
        }
    }

    private final RowDataSerializer serializer;
    /** Per row a lookup: a hash map, sorted only when spilled or drained. */
    private final Map<String, DataOutputSerializer> inMemory = new java.util.HashMap<>();

    private final TreeMap<String, List<Segment>> spilled = new TreeMap<>();
    private final List<java.nio.file.Path> runs = new ArrayList<>();
    private long heapBytes;
    private long rows;

    BucketRowBuffer(RowType rowType) {
        this.serializer = new RowDataSerializer(rowType);
    }

    void add(String bucketId, RowData row) throws IOException {
        DataOutputSerializer bytes = inMemory.get(bucketId);
        if (bytes == null) {
            bytes = new DataOutputSerializer(FIRST_BUFFER_BYTES);
            inMemory.put(bucketId, bytes);
            heapBytes += FIRST_BUFFER_BYTES + BUCKET_OVERHEAD_BYTES;
        }
        int capacity = bytes.getSharedBuffer().length;
        serializer.serialize(row, bytes);
        heapBytes += bytes.getSharedBuffer().length - capacity;
        rows++;
    }

    /** The heap the held rows take, about. */
    long heapBytes() {
        return heapBytes;
    }

    boolean isEmpty() {
        return rows == 0;
    }

    /** How many runs the rows since the last {@link #drain} were spilled in. */
    int runs() {
        return runs.size();
    }

    /** Writes the rows in memory to a new run, bucket after bucket, and frees their heap. */
    void spill() throws IOException {
        if (inMemory.isEmpty()) {
            return;
        }
        java.nio.file.Path run = Files.createTempFile("sluice-rows-", ".run");
        runs.add(run);
        try (FileChannel out = FileChannel.open(run, StandardOpenOption.WRITE)) {
            long offset = 0;
            for (Map.Entry<String, DataOutputSerializer> bucket : new TreeMap<>(inMemory).entrySet()) {
                int length = bucket.getValue().length();
                ByteBuffer bytes = ByteBuffer.wrap(bucket.getValue().getSharedBuffer(), 0, length);
                while (bytes.hasRemaining()) {
                    out.write(bytes);
                }
                spilled.computeIfAbsent(bucket.getKey(), k -> new ArrayList<>())
                        .add(new Segment(runs.size() - 1, offset, length));
                offset += length;
            }
        }
        inMemory.clear();
        heapBytes = 0;
    }

    /**
     * Hands every bucket's rows to {@code sink}, buckets in the order of their ids, each bucket's
     * rows in the order they were added; then the buffer is empty and its runs are deleted.
     */
    void drain(BucketSink sink) throws IOException {
        java.util.TreeSet<String> buckets = new java.util.TreeSet<>(spilled.keySet());
        buckets.addAll(inMemory.keySet());
        List<FileChannel> channels = new ArrayList<>();
        try {
            for (java.nio.file.Path run : runs) {
                channels.add(FileChannel.open(run, StandardOpenOption.READ));
            }
            for (String bucket : buckets) {
                sink.begin(bucket);
                for (Segment segment : spilled.getOrDefault(bucket, List.of())) {
                    FileChannel channel = channels.get(segment.run).position(segment.offset);
                    readRows(new BufferedInputStream(limited(Channels.newInputStream(channel), segment.length)), sink);
                }
                DataOutputSerializer bytes = inMemory.get(bucket);
                if (bytes != null) {
                    readRows(new java.io.ByteArrayInputStream(bytes.getSharedBuffer(), 0, bytes.length()), sink);
                }
                sink.end(bucket);
            }
        } finally {
            for (FileChannel channel : channels) {
                channel.close();
            }
            clear();
        }
    }

    private void readRows(InputStream in, BucketSink sink) throws IOException {
        DataInputViewStreamWrapper view = new DataInputViewStreamWrapper(in);
        while (in.available() > 0 || hasMore(in)) {
            sink.row(serializer.deserialize(view));
        }
    }

    /** Whether a stream whose {@code available} may say 0 before its end has another byte. */
    private static boolean hasMore(InputStream in) throws IOException {
        if (!in.markSupported()) {
            return false;
        }
        in.mark(1);
        boolean more = in.read() >= 0;
        in.reset();
        return more;
    }

    /** {@code in}, ending after {@code length} bytes. */
    private static InputStream limited(InputStream in, long length) {
        return new InputStream() {
            long left = length;

            @Override
            public int read() throws IOException {
                if (left <= 0) {
                    return -1;
                }
                int b = in.read();
                if (b >= 0) {
                    left--;
                }
                return b;
            }

            @Override
            public int read(byte[] buffer, int offset, int count) throws IOException {
                if (left <= 0) {
                    return -1;
                }
                int n = in.read(buffer, offset, (int) Math.min(count, left));
                if (n > 0) {
                    left -= n;
                }
                return n;
            }
        };
    }

    private void clear() throws IOException {
        inMemory.clear();
        spilled.clear();
        heapBytes = 0;
        rows = 0;
        IOException failure = null;
        for (java.nio.file.Path run : runs) {
            try {
                Files.deleteIfExists(run);
            } catch (IOException e) {
                failure = e;
            }
        }
        runs.clear();
        if (failure != null) {
            throw failure;
        }
    }

    /** Drops the rows and deletes the runs (the writer is abandoned: the rows will be replayed). */
    @Override
    public void close() throws IOException {
        clear();
    }
}

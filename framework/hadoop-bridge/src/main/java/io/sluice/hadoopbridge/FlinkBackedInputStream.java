package io.sluice.hadoopbridge;

import org.apache.hadoop.fs.FSExceptionMessages;
import org.apache.hadoop.fs.FSInputStream;
import org.apache.hadoop.fs.FileSystem;

import java.io.EOFException;
import java.io.IOException;

/**
 * Hadoop's seekable stream over Flink's {@link org.apache.flink.core.fs.FSDataInputStream}:
 * sequential reads, {@code seek} and {@code getPos} go to Flink's stream; positioned reads ({@code
 * read(position, ...)}, {@code readFully(position, ...)}) are {@link FSInputStream}'s: seek, read,
 * seek back, under the stream's lock.
 */
final class FlinkBackedInputStream extends FSInputStream {

    private final org.apache.flink.core.fs.FSDataInputStream in;
    private final FileSystem.Statistics statistics;
    private boolean closed;

    FlinkBackedInputStream(org.apache.flink.core.fs.FSDataInputStream in, FileSystem.Statistics statistics) {
        this.in = in;
        this.statistics = statistics;
    }

    @Override
    public synchronized void seek(long position) throws IOException {
        checkOpen();
        if (position < 0) {
            throw new EOFException(FSExceptionMessages.NEGATIVE_SEEK);
        }
        in.seek(position);
    }

    @Override
    public synchronized long getPos() throws IOException {
        checkOpen();
        return in.getPos();
    }

    /** One copy of every object: there is no other source to try. */
    @Override
    public boolean seekToNewSource(long targetPos) {
        return false;
    }

    @Override
    public synchronized int read() throws IOException {
        checkOpen();
        int b = in.read();
        if (b >= 0) {
            statistics.incrementBytesRead(1);
        }
        return b;
    }

    @Override
    public synchronized int read(byte[] buffer, int offset, int length) throws IOException {
        checkOpen();
        int n = in.read(buffer, offset, length);
        if (n > 0) {
            statistics.incrementBytesRead(n);
        }
        return n;
    }

    @Override
    public synchronized long skip(long n) throws IOException {
        checkOpen();
        return in.skip(n);
    }

    @Override
    public synchronized int available() throws IOException {
        checkOpen();
        return in.available();
    }

    @Override
    public synchronized void close() throws IOException {
        if (!closed) {
            closed = true;
            in.close();
        }
    }

    private void checkOpen() throws IOException {
        if (closed) {
            throw new IOException(FSExceptionMessages.STREAM_IS_CLOSED);
        }
    }
}

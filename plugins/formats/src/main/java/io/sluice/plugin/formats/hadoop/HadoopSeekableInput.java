package io.sluice.plugin.formats.hadoop;

import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.hadoop.fs.PositionedReadable;
import org.apache.hadoop.fs.Seekable;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;

/**
 * A Flink input stream seen as Hadoop's seekable input, which Hadoop's {@code
 * FSDataInputStream} insists on wrapping. Positioned reads seek there and back: the stream is used
 * by one reader thread only.
 */
public final class HadoopSeekableInput extends InputStream implements Seekable, PositionedReadable {

    private final FSDataInputStream in;

    public HadoopSeekableInput(FSDataInputStream in) {
        this.in = in;
    }

    @Override
    public int read() throws IOException {
        return in.read();
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        return in.read(buffer, offset, length);
    }

    @Override
    public void seek(long position) throws IOException {
        in.seek(position);
    }

    @Override
    public long getPos() throws IOException {
        return in.getPos();
    }

    @Override
    public boolean seekToNewSource(long targetPos) {
        // a Flink stream has one source
        return false;
    }

    @Override
    public int read(long position, byte[] buffer, int offset, int length) throws IOException {
        long current = in.getPos();
        try {
            in.seek(position);
            return in.read(buffer, offset, length);
        } finally {
            in.seek(current);
        }
    }

    @Override
    public void readFully(long position, byte[] buffer, int offset, int length) throws IOException {
        long current = in.getPos();
        try {
            in.seek(position);
            int done = 0;
            while (done < length) {
                int n = in.read(buffer, offset + done, length - done);
                if (n < 0) {
                    throw new EOFException("End of stream at byte " + (position + done));
                }
                done += n;
            }
        } finally {
            in.seek(current);
        }
    }

    @Override
    public void readFully(long position, byte[] buffer) throws IOException {
        readFully(position, buffer, 0, buffer.length);
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}

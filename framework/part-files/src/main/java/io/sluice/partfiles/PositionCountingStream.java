package io.sluice.partfiles;

import org.apache.flink.core.fs.FSDataOutputStream;

import java.io.IOException;

/**
 * The stream a part file's encoder or bulk writer writes to: passes every byte through to the
 * file system's stream and keeps the position itself, so that the size checks of a rolling policy
 * (once per row) cost no system call ({@code LocalRecoverableFsDataOutputStream#getPos} is a
 * {@code FileChannel.position()}, an lseek). Everything written to the part file goes through
 * here, so the count is the file's position.
 */
final class PositionCountingStream extends FSDataOutputStream {

    private final FSDataOutputStream out;
    private long pos;

    PositionCountingStream(FSDataOutputStream out) throws IOException {
        this.out = out;
        this.pos = out.getPos();
    }

    @Override
    public void write(int b) throws IOException {
        out.write(b);
        pos++;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        out.write(b, off, len);
        pos += len;
    }

    @Override
    public long getPos() {
        return pos;
    }

    @Override
    public void flush() throws IOException {
        out.flush();
    }

    @Override
    public void sync() throws IOException {
        out.sync();
    }

    @Override
    public void close() throws IOException {
        out.close();
    }
}

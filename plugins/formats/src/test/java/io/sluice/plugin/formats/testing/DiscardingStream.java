package io.sluice.plugin.formats.testing;

import org.apache.flink.core.fs.FSDataOutputStream;

/** Counts what a writer writes and keeps nothing. */
final class DiscardingStream extends FSDataOutputStream {
    private long position;

    @Override
    public long getPos() {
        return position;
    }

    @Override
    public void write(int b) {
        position++;
    }

    @Override
    public void write(byte[] b, int off, int len) {
        position += len;
    }

    @Override
    public void flush() {}

    @Override
    public void sync() {}

    @Override
    public void close() {}
}

package io.sluice.plugin.formats.delimited;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Cuts a byte stream into records as {@link RecordSyntax} says, remembering the line number and
 * the byte offset where each record starts, so that a record that cannot be parsed can be found in
 * the file.
 *
 * <p>Reads through its own buffer, so the stream's position runs ahead of the records returned.
 */
final class RecordSplitter {

    private static final int BUFFER_SIZE = 64 * 1024;
    private static final int INITIAL_RECORD_SIZE = 256;

    private final InputStream in;
    private final RecordSyntax syntax;
    private final byte[] buffer = new byte[BUFFER_SIZE];
    private int position;
    private int limit;

    private byte[] record = new byte[INITIAL_RECORD_SIZE];
    private int recordLength;

    // offset and line of the next unread byte; lines count from 1
    private long offset;
    private long line = 1;
    private long recordOffset;
    private long recordLine;

    /**
     * @param in the stream, positioned where the first record starts
     * @param startOffset the stream's offset in the file, so that reported offsets are the file's
     */
    RecordSplitter(InputStream in, RecordSyntax syntax, long startOffset) {
        this.in = in;
        this.syntax = syntax;
        this.offset = startOffset;
    }

    /**
     * Moves to the next record.
     *
     * @return false at the end of the stream
     */
    boolean next() throws IOException {
        recordLength = 0;
        recordOffset = offset;
        recordLine = line;
        int quote = syntax.quote();
        int escape = syntax.escape();
        boolean quoted = false;
        boolean escaped = false;
        boolean sawAny = false;
        // a chunk of the buffer at a time: the bytes are scanned in a local loop and copied into the
        // record in one go, since a call and a bounds check per byte cost more than the scan
        while (position < limit || fill()) {
            sawAny = true;
            byte[] bytes = buffer;
            int start = position;
            int end = limit;
            int i = start;
            boolean complete = false;
            for (; i < end; i++) {
                int b = bytes[i] & 0xFF;
                if (b == '\n') {
                    line++;
                    if (!quoted) {
                        complete = true;
                        break;
                    }
                }
                if (escaped) {
                    escaped = false;
                } else if (b == escape) {
                    escaped = true;
                } else if (b == quote) {
                    // a doubled quote inside quotes toggles twice: still quoted, as CSV means it
                    quoted = !quoted;
                }
            }
            append(bytes, start, i - start);
            if (complete) {
                position = i + 1; // past the line end, which is not the record's
                offset += i + 1 - start;
                dropTrailingCarriageReturn();
                return true;
            }
            position = end;
            offset += end - start;
        }
        // the last record may lack its line end; an empty tail is not a record
        dropTrailingCarriageReturn();
        return sawAny;
    }

    /** How records are delimited. */
    RecordSyntax syntax() {
        return syntax;
    }

    /** The bytes of the current record; only the first {@link #length()} count. */
    byte[] bytes() {
        return record;
    }

    /** The length of the current record. */
    int length() {
        return recordLength;
    }

    /** A copy of the current record, as a schema that wants a whole array needs it. */
    byte[] copy() {
        return Arrays.copyOf(record, recordLength);
    }

    /** Byte offset in the file where the current record starts. */
    long recordOffset() {
        return recordOffset;
    }

    /** Line number (from 1) where the current record starts. */
    long recordLine() {
        return recordLine;
    }

    private void dropTrailingCarriageReturn() {
        if (recordLength > 0 && record[recordLength - 1] == '\r') {
            recordLength--;
        }
    }

    /** Refills the buffer from the stream; false at its end. */
    private boolean fill() throws IOException {
        int read = in.read(buffer, 0, buffer.length);
        position = 0;
        limit = Math.max(read, 0);
        return read > 0;
    }

    private void append(byte[] bytes, int from, int length) {
        if (recordLength + length > record.length) {
            record = Arrays.copyOf(record, Math.max(record.length * 2, recordLength + length));
        }
        System.arraycopy(bytes, from, record, recordLength, length);
        recordLength += length;
    }
}

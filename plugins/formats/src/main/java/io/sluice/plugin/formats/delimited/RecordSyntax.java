package io.sluice.plugin.formats.delimited;

import java.io.Serializable;

/**
 * How a line-oriented file marks the end of a record, and which records carry no data.
 *
 * <p>A record ends at {@code \n} (a {@code \r} right before it is dropped, so files written on
 * Windows read the same). With a quote character, a {@code \n} between quotes belongs to the
 * record: a CSV value with a line break is one record, not two broken ones. Quote and escape are
 * only recognised when they are ASCII, because records are cut on bytes and a byte below 0x80 is
 * never part of a multi-byte UTF-8 character; other characters leave the records as plain lines.
 */
public final class RecordSyntax implements Serializable {

    private static final long serialVersionUID = 1L;

    private static final int NONE = -1;

    private final int quote;
    private final int escape;
    private final int comment;
    private final boolean skipBlank;

    private RecordSyntax(int quote, int escape, int comment, boolean skipBlank) {
        this.quote = quote;
        this.escape = escape;
        this.comment = comment;
        this.skipBlank = skipBlank;
    }

    /** One record per line, blank lines carrying none (JSON: an object is never blank). */
    public static RecordSyntax linesSkippingBlanks() {
        return new RecordSyntax(NONE, NONE, NONE, true);
    }

    /**
     * CSV records: quote and escape as configured (null when not used), and lines starting with
     * {@code #} skipped when comments are allowed. A blank line is a record: a row of one column
     * whose value is null is written as one.
     */
    public static RecordSyntax csv(Character quote, Character escape, boolean allowComments) {
        return new RecordSyntax(ascii(quote), ascii(escape), allowComments ? '#' : NONE, false);
    }

    private static int ascii(Character c) {
        return c != null && c < 0x80 ? c : NONE;
    }

    /** The quote byte, or -1. */
    int quote() {
        return quote;
    }

    /** The escape byte, or -1. */
    int escape() {
        return escape;
    }

    /** Whether a record holds no row (a comment, or a blank line where blanks are skipped). */
    boolean carriesNoRow(byte[] record, int length) {
        if (comment != NONE && length > 0 && record[0] == comment) {
            return true;
        }
        if (!skipBlank) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            if (!Character.isWhitespace(record[i])) {
                return false;
            }
        }
        return true;
    }
}

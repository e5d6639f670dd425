package io.sluice.runtime.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Splits a SQL script into statements at each {@code ;} that is outside quotes ({@code '},
 * {@code "}, {@code `}) and comments ({@code --} to the end of the line, {@code /* ... *&#47;}).
 *
 * <p>Comments stay inside a statement, because {@code /*+ OPTIONS(...) *&#47;} hints are comments
 * the planner must see; comments before a statement's first keyword are dropped so that a
 * statement is known by its keyword. {@code EXECUTE STATEMENT SET BEGIN ...; ...; END} is one
 * statement even though its inserts end with {@code ;}.
 */
final class SqlScriptSplitter {

    private static final Pattern STATEMENT_SET_BLOCK =
            Pattern.compile("EXECUTE\\s+STATEMENT\\s+SET\\s+BEGIN\\b", Pattern.CASE_INSENSITIVE);

    private enum State {
        CODE,
        SINGLE_QUOTED,
        DOUBLE_QUOTED,
        BACK_QUOTED,
        LINE_COMMENT,
        BLOCK_COMMENT
    }

    private final String script;
    private final List<SqlStatement> statements = new ArrayList<>();

    private State state = State.CODE;
    private int line = 1;
    private int stateStartLine;
    /** Index of the current statement's first significant character, or -1 before it. */
    private int start = -1;

    private int startLine;
    /** Within the current statement: the significant text since its last inner {@code ;}. */
    private int segmentStart = -1;

    private int segmentEnd = -1;

    private SqlScriptSplitter(String script) {
        this.script = script;
    }

    /**
     * The statements of a script, in order, without empty ones.
     *
     * @throws CliException if the script ends inside a quoted name, a string or a block comment
     */
    public static List<SqlStatement> split(String script) {
        SqlScriptSplitter splitter = new SqlScriptSplitter(script);
        splitter.run();
        return splitter.statements;
    }

    private void run() {
        for (int i = 0; i < script.length(); i++) {
            char c = script.charAt(i);
            char next = i + 1 < script.length() ? script.charAt(i + 1) : '\0';
            switch (state) {
                case CODE:
                    i = code(i, c, next);
                    break;
                case SINGLE_QUOTED:
                    closeQuote(i, c, '\'');
                    break;
                case DOUBLE_QUOTED:
                    closeQuote(i, c, '"');
                    break;
                case BACK_QUOTED:
                    closeQuote(i, c, '`');
                    break;
                case LINE_COMMENT:
                    if (c == '\n') {
                        state = State.CODE;
                    }
                    break;
                case BLOCK_COMMENT:
                    if (c == '*' && next == '/') {
                        state = State.CODE;
                        i++;
                    }
                    break;
                default:
                    throw new IllegalStateException(state.name());
            }
            if (c == '\n') {
                line++;
            }
        }
        if (state != State.CODE && state != State.LINE_COMMENT) {
            throw new CliException(
                    CliException.USAGE,
                    "The script ends inside " + describe(state) + " opened on line " + stateStartLine);
        }
        if (start >= 0) {
            emit(script.length());
        }
    }

    /** Handles a character outside quotes and comments; returns the index it consumed up to. */
    private int code(int i, char c, char next) {
        if (c == '-' && next == '-') {
            enter(State.LINE_COMMENT);
            return i + 1;
        }
        if (c == '/' && next == '*') {
            enter(State.BLOCK_COMMENT);
            return i + 1;
        }
        if (c == ';') {
            semicolon(i);
            return i;
        }
        if (Character.isWhitespace(c)) {
            return i;
        }
        significant(i);
        if (c == '\'') {
            enter(State.SINGLE_QUOTED);
        } else if (c == '"') {
            enter(State.DOUBLE_QUOTED);
        } else if (c == '`') {
            enter(State.BACK_QUOTED);
        }
        return i;
    }

    private void closeQuote(int i, char c, char quote) {
        significant(i);
        // a doubled quote ('it''s') closes and reopens: the same outcome as an escape
        if (c == quote) {
            state = State.CODE;
        }
    }

    private void enter(State quotedOrComment) {
        state = quotedOrComment;
        stateStartLine = line;
    }

    private void significant(int i) {
        if (start < 0) {
            start = i;
            startLine = line;
        }
        if (segmentStart < 0) {
            segmentStart = i;
        }
        segmentEnd = i + 1;
    }

    private void semicolon(int i) {
        if (start < 0) {
            return; // an empty statement such as ';;'
        }
        if (STATEMENT_SET_BLOCK.matcher(script).region(start, i).lookingAt()) {
            // inside a statement set, only a ';' right after the closing END ends the statement
            String segment = segmentStart < 0 ? "" : script.substring(segmentStart, segmentEnd);
            if (!segment.equalsIgnoreCase("END")) {
                segmentStart = -1;
                segmentEnd = -1;
                return;
            }
        }
        emit(i);
    }

    private void emit(int end) {
        String text = script.substring(start, end).trim();
        statements.add(new SqlStatement(statements.size() + 1, startLine, text));
        start = -1;
        segmentStart = -1;
        segmentEnd = -1;
    }

    private static String describe(State s) {
        switch (s) {
            case SINGLE_QUOTED:
                return "a string literal ('...')";
            case DOUBLE_QUOTED:
                return "a quoted identifier (\"...\")";
            case BACK_QUOTED:
                return "a quoted identifier (`...`)";
            default:
                return "a block comment (/* ... */)";
        }
    }
}

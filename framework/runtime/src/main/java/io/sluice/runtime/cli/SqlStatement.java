package io.sluice.runtime.cli;

/** One statement of a SQL script: its text without the closing {@code ;} and where it starts. */
final class SqlStatement {

    private final int number;
    private final int line;
    private final String text;

    public SqlStatement(int number, int line, String text) {
        this.number = number;
        this.line = line;
        this.text = text;
    }

    /** 1-based position among the script's statements. */
    public int number() {
        return number;
    }

    /** 1-based line of the script the statement starts on. */
    public int line() {
        return line;
    }

    /** The statement, starting at its first keyword, without the closing {@code ;}. */
    public String text() {
        return text;
    }

    /** The first line, marked when there is more, so that a log of statements stays readable. */
    public String firstLine() {
        int newline = text.indexOf('\n');
        return newline < 0 ? text : text.substring(0, newline).trim() + " ...";
    }

    @Override
    public String toString() {
        return "statement " + number + " (line " + line + ")";
    }
}

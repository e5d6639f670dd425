package io.sluice.runtime.cli;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SqlScriptSplitterTest {

    private static List<String> texts(String script) {
        return SqlScriptSplitter.split(script).stream().map(SqlStatement::text).collect(Collectors.toList());
    }

    @Test
    void splitsOnSemicolonsAndNumbersStatementsWithTheirLines() {
        List<SqlStatement> statements =
                SqlScriptSplitter.split("SET 'a' = 'b';\n\nCREATE TABLE t (\n  x INT\n);\nSHOW TABLES");

        assertThat(statements)
                .extracting(SqlStatement::text)
                .containsExactly("SET 'a' = 'b'", "CREATE TABLE t (\n  x INT\n)", "SHOW TABLES");
        assertThat(statements).extracting(SqlStatement::number).containsExactly(1, 2, 3);
        assertThat(statements).extracting(SqlStatement::line).containsExactly(1, 3, 6);
        assertThat(statements.get(1).firstLine()).isEqualTo("CREATE TABLE t ( ...");
    }

    @Test
    void semicolonsInsideQuotesDoNotSplit() {
        assertThat(texts("SELECT 'a;b', 'it''s;', \"x;y\", `p;q` FROM t; SELECT 2"))
                .containsExactly("SELECT 'a;b', 'it''s;', \"x;y\", `p;q` FROM t", "SELECT 2");
    }

    @Test
    void semicolonsAndQuotesInsideCommentsDoNotSplit() {
        assertThat(texts("SELECT 1 -- it's; a comment\n, 2;\nSELECT /* ; ' */ 3;"))
                .containsExactly("SELECT 1 -- it's; a comment\n, 2", "SELECT /* ; ' */ 3");
    }

    @Test
    void leadingCommentsAreDroppedButHintsStay() {
        List<SqlStatement> statements = SqlScriptSplitter.split(
                "-- header\n/* block\n comment */\nINSERT INTO t /*+ OPTIONS('k' = ';') */ SELECT 1;");

        assertThat(statements)
                .extracting(SqlStatement::text)
                .containsExactly("INSERT INTO t /*+ OPTIONS('k' = ';') */ SELECT 1");
        assertThat(statements.get(0).line()).isEqualTo(4);
    }

    @Test
    void emptyStatementsAndTrailingCommentsAreSkipped() {
        assertThat(texts(";;SELECT 1;; ;\n-- the end\n")).containsExactly("SELECT 1");
        assertThat(texts("  \n-- nothing\n")).isEmpty();
    }

    @Test
    void aStatementSetBlockIsOneStatementEvenWithCaseEnd() {
        String block = "EXECUTE STATEMENT SET\nBEGIN\n"
                + "  INSERT INTO a SELECT CASE WHEN x > 0 THEN 1 ELSE 2 END FROM t;\n"
                + "  INSERT INTO b SELECT x FROM t; -- second\n"
                + "END";

        assertThat(texts(block + ";\nSHOW TABLES;")).containsExactly(block, "SHOW TABLES");
    }

    @Test
    void anUnterminatedStringIsAnErrorNamingItsLine() {
        assertThatThrownBy(() -> SqlScriptSplitter.split("SELECT 1;\nSELECT 'oops;\n"))
                .isInstanceOf(CliException.class)
                .hasMessageContaining("string literal")
                .hasMessageContaining("line 2");
        assertThatThrownBy(() -> SqlScriptSplitter.split("SELECT 1 /* never closed"))
                .isInstanceOf(CliException.class)
                .hasMessageContaining("block comment");
    }
}

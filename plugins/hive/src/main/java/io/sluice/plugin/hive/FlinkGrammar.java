package io.sluice.plugin.hive;

import org.apache.calcite.config.Lex;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.flink.sql.parser.impl.FlinkSqlParserImpl;
import org.apache.flink.sql.parser.validate.FlinkSqlConformance;

import java.util.Optional;

/**
 * Flink's SQL grammar in its default dialect, configured as the planner parses a view's query when
 * a query reads the view. The planner's own parser is out of a catalog's reach (Flink's planner
 * loader hides it), and its error names no view; this copy lets the catalog tell first.
 */
final class FlinkGrammar {

    private static final SqlParser.Config CONFIG = SqlParser.config()
            .withParserFactory(FlinkSqlParserImpl.FACTORY)
            .withConformance(FlinkSqlConformance.DEFAULT)
            .withLex(Lex.JAVA)
            .withIdentifierMaxLength(256);

    private FlinkGrammar() {}

    /** Why Flink cannot parse {@code statement}, or empty if it can. */
    static Optional<String> parseError(String statement) {
        try {
            SqlParser.create(statement, CONFIG).parseStmt();
            return Optional.empty();
        } catch (SqlParseException e) {
            // the first line says where; the rest lists every token the grammar expected there
            String message = String.valueOf(e.getMessage());
            int newline = message.indexOf('\n');
            return Optional.of(newline < 0 ? message : message.substring(0, newline));
        }
    }
}

package io.sluice.runtime.cli;

import io.sluice.runtime.config.Secrets;

import org.apache.flink.core.execution.JobClient;
import org.apache.flink.table.api.ResultKind;
import org.apache.flink.table.api.SqlParserException;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.internal.TableEnvironmentInternal;
import org.apache.flink.table.operations.BeginStatementSetOperation;
import org.apache.flink.table.operations.EndStatementSetOperation;
import org.apache.flink.table.operations.ModifyOperation;
import org.apache.flink.table.operations.Operation;
import org.apache.flink.table.operations.StatementSetOperation;
import org.apache.flink.table.operations.command.ResetOperation;
import org.apache.flink.table.operations.command.SetOperation;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.function.Supplier;

/**
 * Runs the statements of a script one at a time in one table environment, printing each
 * statement's outcome: query results as tables, INSERTs as a job that is waited for and followed
 * by a {@link CommitReport}. Statements are parsed here rather than through {@code executeSql}
 * so that the sink tables of an INSERT are known before its job starts.
 */
final class ScriptRunner {

    private final TableEnvironmentInternal env;
    private final SessionOptions options;
    private final JobWatcher watcher;
    private final PrintStream out;
    /** The INSERTs of an open {@code BEGIN STATEMENT SET}, or {@code null}. */
    private List<ModifyOperation> statementSet;

    ScriptRunner(TableEnvironmentInternal env, StartupOptions startup, JobWatcher watcher, PrintStream out) {
        this.env = env;
        this.options = new SessionOptions(env.getConfig(), startup, out);
        this.watcher = watcher;
        this.out = out;
    }

    /**
     * Runs one statement.
     *
     * @throws Exception whatever parsing, planning or the job threw
     */
    void run(SqlStatement statement) throws Exception {
        List<Operation> operations;
        try {
            operations = env.getParser().parse(statement.text());
        } catch (SqlParserException e) {
            throw notAStatement(statement, e);
        }
        if (operations.size() != 1) {
            throw new CliException(
                    CliException.FAILED,
                    "Expected one statement but found " + operations.size() + "; is a ';' missing?");
        }
        Operation op = operations.get(0);
        if (statementSet != null) {
            collect(op);
        } else if (op instanceof BeginStatementSetOperation) {
            statementSet = new ArrayList<>();
            out.println("[OK] statement set begins: INSERTs run as one job at END");
        } else if (op instanceof EndStatementSetOperation) {
            throw new CliException(CliException.FAILED, "END without BEGIN STATEMENT SET");
        } else if (op instanceof ModifyOperation || op instanceof StatementSetOperation) {
            runJob(SinkTable.of(op), () -> env.executeInternal(op));
        } else if (op instanceof SetOperation) {
            options.set((SetOperation) op);
        } else if (op instanceof ResetOperation) {
            options.reset((ResetOperation) op);
        } else {
            show(op, env.executeInternal(op));
        }
    }

    /** SHOW CREATE TABLE / VIEW / CATALOG and DESCRIBE CATALOG: results that hold a table's or catalog's options. */
    private static boolean printsOptions(Operation op) {
        String name = op.getClass().getSimpleName();
        return name.startsWith("ShowCreate") || name.equals("DescribeCatalogOperation");
    }

    /**
     * Calcite reads a statement that starts with a word no statement starts with ({@code SELEC 1})
     * as an expression, and fails with "Non-query expression encountered in illegal context",
     * which names neither the word nor where it is (so this error replaces it rather than wrap it).
     * Other parse errors name both already.
     */
    private static Exception notAStatement(SqlStatement statement, SqlParserException e) {
        if (!String.valueOf(e.getMessage()).contains("Non-query expression encountered in illegal context")) {
            return e;
        }
        String first = statement.text().split("[\\s(;]+", 2)[0];
        return new CliException(
                CliException.FAILED,
                "Line " + statement.line() + ": '" + first + "' does not start a statement Sluice knows"
                        + " (SELECT, INSERT, CREATE, DROP, ALTER, SET, SHOW, USE, EXPLAIN, DESCRIBE ...): a misspelt keyword?");
    }

    /** Fails if a {@code BEGIN STATEMENT SET} was never closed. */
    void finish() {
        if (statementSet != null) {
            throw new CliException(
                    CliException.FAILED,
                    "BEGIN STATEMENT SET without END: " + statementSet.size() + " INSERT(s) not run");
        }
    }

    private void collect(Operation op) throws Exception {
        if (op instanceof ModifyOperation) {
            statementSet.add((ModifyOperation) op);
            out.println("[OK] added to the statement set");
        } else if (op instanceof EndStatementSetOperation) {
            List<ModifyOperation> inserts = statementSet;
            statementSet = null;
            if (inserts.isEmpty()) {
                out.println("[OK] empty statement set: nothing to run");
            } else {
                runJob(SinkTable.of(inserts), () -> env.executeInternal(inserts));
            }
        } else {
            throw new CliException(
                    CliException.FAILED,
                    "Only INSERT statements may appear between BEGIN STATEMENT SET and END, not: "
                            + op.asSummaryString());
        }
    }

    private void runJob(List<SinkTable> sinks, Supplier<TableResult> submit) throws Exception {
        CommitReport report = CommitReport.before(sinks, out);
        long started = System.nanoTime();
        TableResult result = submit.get();
        if (!result.getJobClient().isPresent()) {
            show(result);
            return;
        }
        JobClient job = result.getJobClient().get();
        out.println("  job " + job.getJobID() + " submitted");
        try {
            watcher.await(job);
        } catch (ExecutionException e) {
            throw new CliException(
                    CliException.FAILED,
                    "Job " + job.getJobID() + " failed after " + JobWatcher.seconds(started),
                    e.getCause());
        }
        out.println("[OK] job " + job.getJobID() + " finished in " + JobWatcher.seconds(started));
        report.print(out);
    }

    private void show(TableResult result) {
        show(null, result);
    }

    private void show(Operation op, TableResult result) {
        if (op != null && printsOptions(op)) {
            // Flink prints every option as it is, secrets too: this output is masked line by line
            try (CloseableIterator<Row> rows = result.collect()) {
                while (rows.hasNext()) {
                    Row row = rows.next();
                    for (int i = 0; i < row.getArity(); i++) {
                        out.println(Secrets.maskSql(String.valueOf(row.getField(i))));
                    }
                }
            } catch (Exception e) {
                throw new CliException(CliException.FAILED, "Cannot read the result: " + e.getMessage(), e);
            }
        } else if (result.getResultKind() == ResultKind.SUCCESS_WITH_CONTENT) {
            result.print();
        } else {
            out.println("[OK]");
        }
    }
}

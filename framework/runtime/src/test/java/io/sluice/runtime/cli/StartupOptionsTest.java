package io.sluice.runtime.cli;

import org.apache.flink.api.common.RuntimeExecutionMode;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StartupOptionsTest {

    @Test
    void readsTheLeadingSetStatementsOnly() {
        StartupOptions options = StartupOptions.of(SqlScriptSplitter.split("SET 'execution.runtime-mode' = 'batch';\n"
                + "set 'pipeline.name' = 'it''s mine';\n"
                + "SET parallelism.default = 2;\n"
                + "CREATE TABLE t (x INT);\n"
                + "SET 'table.local-time-zone' = 'UTC';"));

        assertThat(options.statementCount()).isEqualTo(3);
        assertThat(options.runtimeMode()).isEqualTo(RuntimeExecutionMode.BATCH);
        assertThat(options.configuration().toMap())
                .containsEntry("pipeline.name", "it's mine")
                .containsEntry("parallelism.default", "2")
                .doesNotContainKey("table.local-time-zone");
    }

    @Test
    void streamingByDefault() {
        StartupOptions options = StartupOptions.of(SqlScriptSplitter.split("SELECT 1;"));

        assertThat(options.statementCount()).isZero();
        assertThat(options.runtimeMode()).isEqualTo(RuntimeExecutionMode.STREAMING);
    }

    @Test
    void automaticModeIsRejected() {
        assertThatThrownBy(
                        () -> StartupOptions.of(SqlScriptSplitter.split("SET 'execution.runtime-mode' = 'automatic';")))
                .isInstanceOf(CliException.class)
                .hasMessageContaining("'streaming' or 'batch'");
    }
}

package io.sluice.runtime.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ScriptVariablesTest {

    private static final String SCRIPT = "CREATE TABLE t (id INT) WITH (\n"
            + "  'path' = '${lake:-/tmp/q}/orders',\n"
            + "  'metastore.dir' = '${metastore:-/tmp/q/hms}');\n";

    @Test
    void referencesTakeTheirDefaultsWithoutDefinitions() {
        assertThat(new ScriptVariables().substitute(SCRIPT))
                .contains("'path' = '/tmp/q/orders'")
                .contains("'metastore.dir' = '/tmp/q/hms'");
    }

    @Test
    void aDefinitionReplacesEveryReferenceAsWritten() {
        ScriptVariables variables = new ScriptVariables();
        variables.define("lake=s3a://bucket/quick start$1\\x");
        String script = variables.substitute(SCRIPT + "SELECT '${lake}';");

        assertThat(script)
                .contains("'path' = 's3a://bucket/quick start$1\\x/orders'")
                .contains("SELECT 's3a://bucket/quick start$1\\x';")
                .contains("'metastore.dir' = '/tmp/q/hms'");
    }

    @Test
    void anEmptyValueAndAnEqualsSignInAValueAreKept() {
        ScriptVariables variables = new ScriptVariables();
        variables.define("lake=");
        variables.define("metastore=a=b");

        assertThat(variables.substitute(SCRIPT)).contains("'path' = '/orders'").contains("'a=b'");
    }

    @Test
    void aReferenceWithoutDefaultOrDefinitionIsAUsageErrorNamingItAndItsLine() {
        assertThatThrownBy(() -> new ScriptVariables().substitute("SELECT 1;\nSELECT '${who}';"))
                .isInstanceOf(CliException.class)
                .hasMessageContaining("${who} (line 2)")
                .hasMessageContaining("-D who=VALUE")
                .satisfies(e -> assertThat(((CliException) e).exitCode()).isEqualTo(CliException.USAGE));
    }

    @Test
    void aDefinitionTheScriptNeverUsesIsAUsageErrorNamingWhatItUses() {
        ScriptVariables variables = new ScriptVariables();
        variables.define("laek=s3a://b");

        assertThatThrownBy(() -> variables.substitute(SCRIPT))
                .isInstanceOf(CliException.class)
                .hasMessageContaining("-D laek: the script uses no such variable")
                .hasMessageContaining("it uses lake, metastore");
    }

    @ParameterizedTest
    @ValueSource(strings = {"lake", "=x", "1lake=x", "la-ke=x", "la ke=x", "${lake}=x"})
    void aMalformedDefinitionIsAUsageError(String definition) {
        assertThatThrownBy(() -> new ScriptVariables().define(definition))
                .isInstanceOf(CliException.class)
                .hasMessageContaining(
                        definition.contains("=") && definition.indexOf('=') > 0
                                ? "Invalid variable name"
                                : "-D needs name=value");
    }

    @Test
    void textThatIsNotAReferenceStaysAsItIs() {
        String script = "SELECT REGEXP_REPLACE(s, '\\$\\{x', ''), '$lake', '${1}', '${ lake }' FROM t;";

        assertThat(new ScriptVariables().substitute(script)).isEqualTo(script);
    }
}

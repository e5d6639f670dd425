package io.sluice.runtime.config;

import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Which keys count as secrets, name by name, and that masking leaves everything else as it is. */
class SecretsTest {

    @Test
    void flinksSensitiveKeysAndIcebergsSecretsAreMasked() {
        for (String key : new String[] {
            "credential",
            "token",
            "header.Authorization",
            "header.X-Api-Key",
            "s3.access-key-id",
            "s3.secret-access-key",
            "s3.session-token",
            "rest.auth.basic.password",
            "adls.auth.shared-key.account.key",
            "gcs.oauth2.token",
            "client.private-key",
            "Password"
        }) {
            assertThat(Secrets.isSensitive(key)).as(key).isTrue();
            assertThat(Secrets.mask(key, "s3cr3t-value")).as(key).isEqualTo(Secrets.HIDDEN);
        }
        for (String key : new String[] {
            "uri",
            "warehouse",
            "catalog-type",
            "oauth2-server-uri",
            "scope",
            "path",
            "sink.partition-commit.policy.kind",
            "catalog-table",
            "write-format"
        }) {
            assertThat(Secrets.isSensitive(key)).as(key).isFalse();
            assertThat(Secrets.mask(key, "plain")).as(key).isEqualTo("plain");
        }
    }

    @Test
    void theUserInfoOfAUriIsMaskedAndTheRestKept() {
        assertThat(Secrets.mask("uri", "https://alice:pa55word@rest.example.com:8181/api?x=1"))
                .isEqualTo("https://******@rest.example.com:8181/api?x=1");
        assertThat(Secrets.mask("uri", "thrift://metastore:9083")).isEqualTo("thrift://metastore:9083");
        assertThat(Secrets.maskUserInfo("at 'uri' = 'http://bob@h/' and s3://key:sec@bucket/p"))
                .isEqualTo("at 'uri' = 'http://******@h/' and s3://******@bucket/p");
        assertThat(Secrets.maskUserInfo("mail alice@example.com")).isEqualTo("mail alice@example.com");
    }

    @Test
    void sqlTextHasItsSensitivePairsMasked() {
        String ddl = "CREATE TABLE t (id INT) WITH ('connector' = 'sluice', 'credential' = 'id:it''s', "
                + "'uri'='http://u:p@h/', 'header.Authorization' = 'Bearer abc', 'path' = '/data')";
        assertThat(Secrets.maskSql(ddl))
                .isEqualTo(
                        "CREATE TABLE t (id INT) WITH ('connector' = 'sluice', "
                                + "'credential' = '******', 'uri'='http://******@h/', 'header.Authorization' = '******', 'path' = '/data')");
    }

    @Test
    void aFailureChainIsCopiedWithItsSecretsMaskedOnlyWhenItHasAny() {
        Map<String, String> options = new LinkedHashMap<>();
        options.put("credential", "client:VERY-SECRET");
        options.put("uri", "http://admin:PW-SECRET@localhost/");
        IllegalStateException root = new IllegalStateException("server said no to client:VERY-SECRET");
        RuntimeException top = new RuntimeException("cannot reach http://admin:PW-SECRET@localhost/", root);
        top.addSuppressed(new IllegalArgumentException("again client:VERY-SECRET"));

        Throwable scrubbed = Secrets.scrub(top, options);

        String printed = ExceptionUtils.stringifyException(scrubbed);
        assertThat(printed)
                .doesNotContain("VERY-SECRET")
                .doesNotContain("PW-SECRET")
                .contains("java.lang.RuntimeException: cannot reach http://******@localhost/")
                .contains("java.lang.IllegalStateException: server said no to ******")
                .contains("java.lang.IllegalArgumentException: again ******");
        assertThat(scrubbed.getStackTrace()).isEqualTo(top.getStackTrace());
        RuntimeException clean = new RuntimeException("nothing to hide", new IllegalStateException("here neither"));
        assertThat(Secrets.scrub(clean, options)).isSameAs(clean);
    }
}

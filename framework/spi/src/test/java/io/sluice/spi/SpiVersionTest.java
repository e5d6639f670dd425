package io.sluice.spi;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SpiVersionTest {

    @Test
    void currentIsTheBuildsSpiVersion() {
        // the pom hands its sluice.spi.version to the tests (surefire systemPropertyVariables)
        assertThat(System.getProperty("sluice.spi.version")).isNotBlank();
        assertThat(SpiVersion.CURRENT).isEqualTo(System.getProperty("sluice.spi.version"));
    }

    @Test
    void onlyAPlainVersionIsAccepted() {
        assertThat(SpiVersion.check("2.0.0")).isEqualTo("2.0.0");
        assertThat(SpiVersion.check("10.20.30")).isEqualTo("10.20.30");
        for (String bad :
                new String[] {null, "", "2.0", "2.0.0-SNAPSHOT", "v2.0.0", "${sluice.spi.version}", "02.0.0"}) {
            assertThatThrownBy(() -> SpiVersion.check(bad))
                    .as(String.valueOf(bad))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("'" + bad + "'")
                    .hasMessageContaining("sluice.spi.version");
        }
    }
}

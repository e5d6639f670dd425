package io.sluice.plugin.formats.orc;

import io.sluice.spi.format.FormatFactory;
import io.sluice.testkit.FormatConformance;

import java.util.Map;

/** The orc format against Sluice's format kit: what it writes it reads back. */
class OrcFormatConformanceTest extends FormatConformance {

    @Override
    protected FormatFactory formatFactory() {
        return new OrcFormatFactory();
    }

    @Override
    protected Map<String, String> invalidOptions() {
        return Map.of("compress", "bogus");
    }
}

package io.sluice.plugin.formats.json;

import io.sluice.spi.format.FormatFactory;
import io.sluice.testkit.FormatConformance;

import java.util.Map;

/** The json format against Sluice's format kit: what it writes it reads back. */
class JsonFormatConformanceTest extends FormatConformance {

    @Override
    protected FormatFactory formatFactory() {
        return new JsonFormatFactory();
    }

    @Override
    protected Map<String, String> invalidOptions() {
        return Map.of("timestamp-format.standard", "NOPE");
    }
}

package io.sluice.plugin.formats.avro;

import io.sluice.spi.format.FormatFactory;
import io.sluice.testkit.FormatConformance;

import java.util.Map;

/** The avro format against Sluice's format kit: what it writes it reads back. */
class AvroFormatConformanceTest extends FormatConformance {

    @Override
    protected FormatFactory formatFactory() {
        return new AvroFormatFactory();
    }

    @Override
    protected Map<String, String> invalidOptions() {
        return Map.of("codec", "nope");
    }
}

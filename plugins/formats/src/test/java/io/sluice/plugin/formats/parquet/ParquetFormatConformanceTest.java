package io.sluice.plugin.formats.parquet;

import io.sluice.spi.format.FormatFactory;
import io.sluice.testkit.FormatConformance;

import java.util.Map;

/** The parquet format against Sluice's format kit: what it writes it reads back. */
class ParquetFormatConformanceTest extends FormatConformance {

    @Override
    protected FormatFactory formatFactory() {
        return new ParquetFormatFactory();
    }

    @Override
    protected Map<String, String> invalidOptions() {
        return Map.of("compression", "lzx");
    }
}

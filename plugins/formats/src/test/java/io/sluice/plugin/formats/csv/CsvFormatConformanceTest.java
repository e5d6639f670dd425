package io.sluice.plugin.formats.csv;

import io.sluice.spi.format.FormatFactory;
import io.sluice.testkit.FormatConformance;

import java.util.Map;

/** The "csv", comma-separated with upstream's options format against Sluice's format kit: what it writes it reads back. */
class CsvFormatConformanceTest extends FormatConformance {

    @Override
    protected FormatFactory formatFactory() {
        return new CsvFormatFactory();
    }

    /** As upstream's csv, a null survives a round trip only with a null literal (else it reads back as ""). */
    @Override
    protected Map<String, String> options() {
        return Map.of("null-literal", "\\N");
    }

    @Override
    protected Map<String, String> invalidOptions() {
        return Map.of("field-delimiter", "ab");
    }
}

package io.sluice.plugin.formats.text;

import io.sluice.spi.format.FormatFactory;
import io.sluice.testkit.FormatConformance;

import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.types.logical.RowType;

import java.util.Map;

/** The text: one string column per line format against Sluice's format kit: what it writes it reads back. */
class TextFormatConformanceTest extends FormatConformance {

    @Override
    protected FormatFactory formatFactory() {
        return new TextFormatFactory();
    }

    @Override
    protected RowType rowType() {
        return (RowType)
                DataTypes.ROW(DataTypes.FIELD("line", DataTypes.STRING())).getLogicalType();
    }

    @Override
    protected Map<String, String> invalidOptions() {
        return Map.of("charset", "no-such-charset");
    }
}

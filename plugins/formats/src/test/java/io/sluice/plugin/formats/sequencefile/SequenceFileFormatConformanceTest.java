package io.sluice.plugin.formats.sequencefile;

import io.sluice.spi.format.FormatFactory;
import io.sluice.testkit.FormatConformance;

import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.types.logical.RowType;

import java.util.Map;

/** The sequence-file: one string column per record format against Sluice's format kit: what it writes it reads back. */
class SequenceFileFormatConformanceTest extends FormatConformance {

    @Override
    protected FormatFactory formatFactory() {
        return new SequenceFileFormatFactory();
    }

    @Override
    protected RowType rowType() {
        return (RowType)
                DataTypes.ROW(DataTypes.FIELD("line", DataTypes.STRING())).getLogicalType();
    }

    @Override
    protected Map<String, String> invalidOptions() {
        return Map.of("compression.codec", "nope");
    }
}

package com.acme.shout;

import io.sluice.spi.format.FormatFactory;
import io.sluice.testkit.FormatConformance;

import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.types.logical.RowType;

/** Sluice's conformance checks for a format, run against the shout format. */
class ShoutFormatConformanceTest extends FormatConformance {

    @Override
    protected FormatFactory formatFactory() {
        return new ShoutFormat();
    }

    @Override
    protected RowType rowType() {
        return (RowType) DataTypes.ROW(DataTypes.FIELD("word", DataTypes.STRING())).getLogicalType();
    }
}

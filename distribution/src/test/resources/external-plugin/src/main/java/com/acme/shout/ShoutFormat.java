package com.acme.shout;

import io.sluice.spi.format.FormatContext;
import io.sluice.spi.format.RowEncodingFormat;

import org.apache.flink.api.common.serialization.Encoder;
import org.apache.flink.table.data.RowData;
import org.pf4j.Extension;

import java.nio.charset.StandardCharsets;

/** Writes the first column of each row in capitals, one line per row. */
@Extension
public class ShoutFormat implements RowEncodingFormat {

    @Override
    public String identifier() {
        return "shout";
    }

    @Override
    public Encoder<RowData> createEncoder(FormatContext context) {
        return (row, out) -> out.write((row.getString(0).toString().toUpperCase() + "\n").getBytes(StandardCharsets.UTF_8));
    }
}

package io.sluice.plugin.formats.testing;

import io.sluice.spi.format.FormatContext;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.types.logical.RowType;

import java.util.HashMap;
import java.util.Map;

/** A {@link FormatContext} as the framework would pass it: a row type and prefix-free options. */
public final class TestFormatContext implements FormatContext {

    private final RowType rowType;
    private final Configuration options;

    private TestFormatContext(RowType rowType, Configuration options) {
        this.rowType = rowType;
        this.options = options;
    }

    /** A context with the given options, as alternating keys and values. */
    public static TestFormatContext of(RowType rowType, String... keysAndValues) {
        Map<String, String> map = new HashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return new TestFormatContext(rowType, Configuration.fromMap(map));
    }

    @Override
    public RowType rowType() {
        return rowType;
    }

    @Override
    public ReadableConfig options() {
        return options;
    }
}

package io.sluice.runtime.sink.distribution;

import io.sluice.runtime.config.SluiceOptions;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The traffic statistics of distribution mode {@code range} ({@code
 * range-distribution-statistics-type}), with the names and meaning of Iceberg's Flink sink.
 */
public enum StatisticsType {
    /** Exact counts per sort key: for low cardinality (hundreds to thousands of keys). */
    MAP("Map"),
    /** A reservoir sample and ranges that split it evenly: for high cardinality, in little memory. */
    SKETCH("Sketch"),
    /** {@link #MAP}, switching to {@link #SKETCH} once more than 10,000 distinct keys are seen. */
    AUTO("Auto");

    private final String optionValue;

    StatisticsType(String optionValue) {
        this.optionValue = optionValue;
    }

    /** The option's value: {@code Map}, {@code Sketch}, {@code Auto}. */
    public String optionValue() {
        return optionValue;
    }

    /**
     * The type an option value names, in any case.
     *
     * @throws IllegalArgumentException naming the option and the valid values
     */
    public static StatisticsType parse(String value) {
        for (StatisticsType type : values()) {
            if (type.optionValue.toLowerCase(Locale.ROOT).equals(value.trim().toLowerCase(Locale.ROOT))) {
                return type;
            }
        }
        throw new IllegalArgumentException("Invalid '" + SluiceOptions.RANGE_DISTRIBUTION_STATISTICS_TYPE.key()
                + "' '" + value + "': one of "
                + Arrays.stream(values()).map(StatisticsType::optionValue).collect(Collectors.joining(", ")));
    }
}

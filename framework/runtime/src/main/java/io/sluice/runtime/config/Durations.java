package io.sluice.runtime.config;

import org.apache.flink.util.TimeUtils;

import java.time.Duration;

/**
 * The range of every duration option. Flink parses any number of days, but counts a duration in
 * nanoseconds when it prints one ({@link TimeUtils#formatWithHighestUnit}) and adds it to the
 * clock in milliseconds when it sets a timer: a value past what a {@code long} holds in nanoseconds
 * (about 292 years) failed with a bare "long overflow" that named no option, or set a timer in the
 * past. No interval of a job needs more, so longer values are refused naming the option.
 */
public final class Durations {

    /** The longest duration an option takes: whole days that fit in a {@code long} of nanoseconds. */
    public static final Duration LONGEST =
            Duration.ofDays(Duration.ofNanos(Long.MAX_VALUE).toDays());

    private Durations() {}

    /** Whether an option may have this duration, or a negative one as long (which options refuse on their own). */
    public static boolean inRange(Duration value) {
        return value.abs().compareTo(LONGEST) <= 0;
    }

    /** The rule {@link #inRange} checks, as an error message says it. */
    public static String range() {
        return "at most " + LONGEST.toDays() + " d";
    }

    /**
     * @param key the option, for the message
     * @throws IllegalArgumentException naming the option and the longest value, for a longer one
     */
    public static Duration checkInRange(String key, Duration value) {
        if (!inRange(value)) {
            throw new IllegalArgumentException(
                    "Invalid value '" + value.toDays() + " d' for option '" + key + "': " + range());
        }
        return value;
    }

    /** A duration as an option's value, for a builder that sets the option from Java. */
    public static String asOptionValue(String key, Duration value) {
        return TimeUtils.formatWithHighestUnit(checkInRange(key, value));
    }
}

package io.sluice.runtime.sink.partition;

import io.sluice.spi.partition.PartitionTimeExtractor;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.List;

/**
 * The {@code default} partition time extractor: builds a timestamp string from the partition values
 * with {@code partition.time-extractor.timestamp-pattern} ({@code $key} placeholders; the first
 * value when no pattern is set) and parses it with {@code
 * partition.time-extractor.timestamp-formatter}. A string that holds only a date means the start of
 * that day.
 */
final class DefaultPartitionTimeExtractor implements PartitionTimeExtractor {

    private final String pattern; // nullable
    private final DateTimeFormatter formatter;
    private final String formatterPattern;

    /**
     * @throws IllegalArgumentException if the formatter pattern is invalid, naming the option
     */
    DefaultPartitionTimeExtractor(String pattern, String formatterPattern) {
        this.pattern = pattern;
        this.formatterPattern = formatterPattern;
        try {
            this.formatter = DateTimeFormatter.ofPattern(formatterPattern);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "Invalid 'partition.time-extractor.timestamp-formatter' '" + formatterPattern + "': "
                            + e.getMessage(),
                    e);
        }
    }

    @Override
    public LocalDateTime extract(List<String> keys, List<String> values) {
        String text;
        if (pattern == null) {
            if (values.isEmpty()) {
                throw new IllegalArgumentException("Partition has no values to extract a time from");
            }
            text = values.get(0);
        } else {
            text = pattern;
            for (int i = 0; i < keys.size(); i++) {
                text = text.replace("$" + keys.get(i), values.get(i));
            }
        }
        try {
            return LocalDateTime.parse(text, formatter);
        } catch (DateTimeParseException notDateTime) {
            try {
                return LocalDate.parse(text, formatter).atStartOfDay();
            } catch (DateTimeParseException notDate) {
                try {
                    return LocalDate.parse(text).atStartOfDay();
                } catch (DateTimeParseException e) {
                    throw new IllegalArgumentException(
                            "Cannot extract a time from partition " + keys + "=" + values
                                    + ": '" + text + "' does not match 'partition.time-extractor.timestamp-formatter' '"
                                    + formatterPattern + "'",
                            notDateTime);
                }
            }
        }
    }
}

package io.sluice.plugin.formats;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ReadableConfig;

import java.nio.charset.Charset;
import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * Reads and checks format option values, so that every format reports a bad value the same way:
 * an {@link IllegalArgumentException} naming the format, the option and the value.
 */
public final class OptionValues {

    private OptionValues() {}

    /** The error for an option value that cannot be used. */
    public static IllegalArgumentException invalid(
            String format, ConfigOption<?> option, Object value, String expected) {
        return new IllegalArgumentException(String.format(
                "Invalid value '%s' for option '%s' of format '%s': %s", value, option.key(), format, expected));
    }

    /**
     * A single character. A backslash escape such as {@code \t} or {@code \u0001} also counts as
     * one, because SQL string literals cannot hold a tab or a control character directly.
     */
    public static char singleChar(String format, ReadableConfig options, ConfigOption<String> option) {
        String value = options.get(option);
        Character parsed = value == null ? null : unescapeSingle(value);
        if (parsed == null) {
            throw invalid(format, option, value, "expected exactly one character");
        }
        return parsed;
    }

    private static Character unescapeSingle(String value) {
        if (value.length() == 1) {
            return value.charAt(0);
        }
        if (value.length() == 2 && value.charAt(0) == '\\') {
            switch (value.charAt(1)) {
                case 't':
                    return '\t';
                case 'n':
                    return '\n';
                case 'r':
                    return '\r';
                case 'f':
                    return '\f';
                case 'b':
                    return '\b';
                case '0':
                    return '\0';
                case '\\':
                    return '\\';
                case '\'':
                    return '\'';
                case '"':
                    return '"';
                default:
                    return null;
            }
        }
        if (value.length() == 6 && value.startsWith("\\u")) {
            try {
                return (char) Integer.parseInt(value.substring(2), 16);
            } catch (NumberFormatException e) {
                return null;
            }
        }
        return null;
    }

    /** The constant of {@code type} whose name matches the value, ignoring case. */
    public static <E extends Enum<E>> E enumValue(
            String format, ReadableConfig options, ConfigOption<String> option, Class<E> type) {
        String value = options.get(option);
        for (E constant : type.getEnumConstants()) {
            if (constant.name().equalsIgnoreCase(value)) {
                return constant;
            }
        }
        throw invalid(format, option, value, "expected one of " + names(type));
    }

    private static <E extends Enum<E>> String names(Class<E> type) {
        return Arrays.stream(type.getEnumConstants()).map(Enum::name).collect(Collectors.joining(", ", "[", "]"));
    }

    /** A character set this JVM supports. */
    public static Charset charset(String format, ReadableConfig options, ConfigOption<String> option) {
        String value = options.get(option);
        try {
            return Charset.forName(value);
        } catch (IllegalArgumentException e) {
            // IllegalCharsetNameException and UnsupportedCharsetException are both of this type
            throw invalid(format, option, value, "not a character set this JVM supports");
        }
    }

    /** A number greater than zero. */
    public static int positive(String format, ReadableConfig options, ConfigOption<Integer> option) {
        int value = options.get(option);
        if (value <= 0) {
            throw invalid(format, option, value, "expected a number greater than 0");
        }
        return value;
    }

    /** The entry of {@code allowed} that the value names, ignoring case. */
    public static String oneOf(String format, ReadableConfig options, ConfigOption<String> option, String... allowed) {
        String value = options.get(option);
        for (String candidate : allowed) {
            if (candidate.equalsIgnoreCase(value)) {
                return candidate;
            }
        }
        throw invalid(format, option, value, "expected one of " + Arrays.toString(allowed));
    }
}

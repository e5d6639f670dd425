package io.sluice.spi.format;

import io.sluice.spi.ExtensionLookup;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Finds a capability of the format a user named, for the framework and for targets alike, so that
 * a format that exists but cannot do what is asked is reported as such (naming what it can do)
 * rather than as an unknown format.
 *
 * @since 2.0.0
 */
public final class Formats {

    /** The capability types, in the order an error lists them. */
    private static final List<Class<? extends FormatFactory>> CAPABILITIES = Arrays.asList(
            RowEncodingFormat.class, BulkWritingFormat.class, StreamReadingFormat.class, BulkReadingFormat.class);

    private Formats() {}

    /** Whether the format {@code format} exists and offers {@code capability}. */
    public static boolean offers(ExtensionLookup extensions, Class<? extends FormatFactory> capability, String format) {
        return extensions.identifiers(capability).contains(format);
    }

    /**
     * The capability {@code capability} of the format {@code format}.
     *
     * @param purpose what the caller wants to do, for the message: {@code "be written row by row"}
     * @throws IllegalArgumentException if the format does not exist (listing those that do) or
     *     lacks the capability (naming those it has)
     */
    public static <T extends FormatFactory> T require(
            ExtensionLookup extensions, Class<T> capability, String format, String purpose) {
        if (offers(extensions, capability, format)) {
            return extensions.find(capability, format);
        }
        throw lacking(extensions, format, purpose);
    }

    /**
     * How the format is read: its {@link StreamReadingFormat} or its {@link BulkReadingFormat},
     * whichever it offers (stream first), or empty if it cannot be read.
     *
     * @throws IllegalArgumentException if the format does not exist
     */
    public static Optional<FormatFactory> reader(ExtensionLookup extensions, String format) {
        if (offers(extensions, StreamReadingFormat.class, format)) {
            return Optional.of(extensions.find(StreamReadingFormat.class, format));
        }
        if (offers(extensions, BulkReadingFormat.class, format)) {
            return Optional.of(extensions.find(BulkReadingFormat.class, format));
        }
        extensions.find(FormatFactory.class, format); // an unknown format: the error lists the known ones
        return Optional.empty();
    }

    /**
     * The error for a format that cannot do what is asked: unknown (listing the known formats), or
     * lacking the capability (naming those it has).
     */
    public static IllegalArgumentException lacking(ExtensionLookup extensions, String format, String purpose) {
        extensions.find(FormatFactory.class, format); // throws, listing the known formats, if there is none
        List<String> has = new ArrayList<>();
        for (Class<? extends FormatFactory> c : CAPABILITIES) {
            if (offers(extensions, c, format)) {
                has.add(c.getSimpleName());
            }
        }
        return new IllegalArgumentException("Format '" + format + "' cannot " + purpose + ": it offers "
                + (has.isEmpty() ? "no capability" : "only " + String.join(", ", has)));
    }
}

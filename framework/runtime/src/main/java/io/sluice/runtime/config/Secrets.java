package io.sluice.runtime.config;

import org.apache.flink.configuration.GlobalConfiguration;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one place that decides which option values are secrets and masks them, wherever Sluice
 * prints options, URIs or messages that may quote them.
 *
 * <p>A key is sensitive when Flink's own {@link GlobalConfiguration#isSensitive} says so (password,
 * secret, token, apikey ...: what Flink masks in its logs and in {@code FactoryUtil}'s option
 * dumps), and also for what Iceberg's catalogs and FileIOs call their secrets but Flink does not
 * know: {@code credential}, {@code header.*} (a REST catalog's {@code header.Authorization}),
 * {@code *access-key*} ({@code s3.access-key-id}), {@code *private-key*}, {@code *shared-key*}.
 * The user-info of a URI ({@code https://user:password@host}) is masked in any value and message.
 */
public final class Secrets {

    /** What a secret is replaced with: Flink's own marker, so masked output looks alike everywhere. */
    public static final String HIDDEN = GlobalConfiguration.HIDDEN_CONTENT;

    private static final List<String> MORE_SENSITIVE = List.of("credential", "access-key", "private-key", "shared-key");
    /** {@code scheme://user-info@}: the user-info part up to the {@code @}, never crossing a path, space or quote. */
    private static final Pattern USER_INFO = Pattern.compile("([a-zA-Z][a-zA-Z0-9+.-]*://)([^/@\\s'\"]+)@");

    /** {@code 'key' = 'value'} in SQL text (a DDL's WITH clause, SHOW CREATE output), quotes doubled inside. */
    private static final Pattern QUOTED_OPTION = Pattern.compile("'((?:[^']|'')*)'(\\s*=\\s*)'((?:[^']|'')*)'");

    private Secrets() {}

    /** Whether the value of this option key is a secret. */
    public static boolean isSensitive(String key) {
        if (key == null) {
            return false;
        }
        String lower = key.toLowerCase(Locale.ROOT);
        return GlobalConfiguration.isSensitive(lower)
                || lower.startsWith("header.")
                || MORE_SENSITIVE.stream().anyMatch(lower::contains);
    }

    /** The value to print for an option: {@link #HIDDEN} for a secret, else the value with any URI user-info masked. */
    public static String mask(String key, String value) {
        if (value == null) {
            return null;
        }
        return isSensitive(key) ? HIDDEN : maskUserInfo(value);
    }

    /** The options with every secret masked ({@link #mask(String, String)}), in their order. */
    public static Map<String, String> mask(Map<String, String> options) {
        Map<String, String> masked = new LinkedHashMap<>();
        options.forEach((k, v) -> masked.put(k, mask(k, v)));
        return masked;
    }

    /** The text with the user-info of every URI in it replaced by {@link #HIDDEN}. */
    public static String maskUserInfo(String text) {
        if (text == null || text.indexOf('@') < 0) {
            return text;
        }
        Matcher m = USER_INFO.matcher(text);
        return m.replaceAll(r -> Matcher.quoteReplacement(r.group(1) + HIDDEN + "@"));
    }

    /**
     * SQL text with the value of every sensitive {@code 'key' = 'value'} pair masked, and every URI
     * user-info: for statements and the output of {@code SHOW CREATE TABLE / CATALOG}.
     */
    public static String maskSql(String sql) {
        if (sql == null) {
            return null;
        }
        Matcher m = QUOTED_OPTION.matcher(sql);
        String masked = m.replaceAll(r -> {
            String key = r.group(1).replace("''", "'");
            String value = r.group(3).replace("''", "'");
            return Matcher.quoteReplacement(
                    "'" + r.group(1) + "'" + r.group(2) + "'" + mask(key, value).replace("'", "''") + "'");
        });
        return maskUserInfo(masked);
    }

    /**
     * The text with every secret value of {@code options} and every URI user-info masked: for
     * messages that may quote an option (a plugin's, a library's) without saying which.
     */
    public static String scrub(String text, Map<String, String> options) {
        if (text == null) {
            return null;
        }
        String scrubbed = text;
        for (String secret : secretValues(options)) {
            scrubbed = scrubbed.replace(secret, HIDDEN);
        }
        return maskUserInfo(scrubbed);
    }

    /**
     * The failure with every message of its chain (causes and suppressed) scrubbed ({@link
     * #scrub(String, Map)}). The failure itself when nothing in it needs masking; otherwise a copy
     * of the chain of {@link MaskedException}s that keeps each one's class name (in the message) and
     * stack trace, so that no log or report of it can show a secret.
     */
    public static Throwable scrub(Throwable failure, Map<String, String> options) {
        if (failure == null || !needsScrubbing(failure, options, Collections.newSetFromMap(new IdentityHashMap<>()))) {
            return failure;
        }
        return copy(failure, options, new IdentityHashMap<>());
    }

    private static boolean needsScrubbing(Throwable t, Map<String, String> options, Set<Throwable> seen) {
        if (t == null || !seen.add(t)) {
            return false;
        }
        String message = t.getMessage();
        if (message != null && !message.equals(scrub(message, options))) {
            return true;
        }
        for (Throwable s : t.getSuppressed()) {
            if (needsScrubbing(s, options, seen)) {
                return true;
            }
        }
        return needsScrubbing(t.getCause(), options, seen);
    }

    private static Throwable copy(Throwable t, Map<String, String> options, Map<Throwable, Throwable> copies) {
        Throwable done = copies.get(t);
        if (done != null) {
            return done;
        }
        MaskedException masked = new MaskedException(t.getClass().getName(), scrub(t.getMessage(), options));
        copies.put(t, masked);
        masked.setStackTrace(t.getStackTrace());
        if (t.getCause() != null && t.getCause() != t) {
            masked.initCause(copy(t.getCause(), options, copies));
        }
        for (Throwable s : t.getSuppressed()) {
            masked.addSuppressed(copy(s, options, copies));
        }
        return masked;
    }

    /** Secret values, longest first so that one that contains another is replaced whole. */
    private static List<String> secretValues(Map<String, String> options) {
        List<String> values = new ArrayList<>();
        if (options != null) {
            options.forEach((k, v) -> {
                // very short values would mask ordinary words of a message; they are no real secrets either
                if (isSensitive(k) && v != null && v.length() >= 4 && !v.equals(HIDDEN)) {
                    values.add(v);
                }
            });
        }
        values.sort(Comparator.comparingInt(String::length).reversed());
        return values;
    }

    /** A failure whose message had a secret: it names the original class, whose stack trace it carries. */
    public static final class MaskedException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        private final String originalClass;

        MaskedException(String originalClass, String message) {
            super(originalClass + (message == null ? "" : ": " + message));
            this.originalClass = originalClass;
        }

        /** The class name of the failure this one stands for. */
        public String originalClass() {
            return originalClass;
        }

        /** Reads like the original failure's own {@code toString()}. */
        @Override
        public String toString() {
            return getMessage();
        }
    }
}

package io.sluice.runtime.cli;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Variables of a script, {@code ${name}} or {@code ${name:-default}} as in a shell, given values
 * on the command line with {@code -D name=value}: one script for the local files of a first try
 * and for a bucket ({@code -D lake=s3a://bucket/quickstart}). A value is put in as written, in
 * the script's text before it is split into statements. A variable the script uses without a
 * default and the command line does not define, and a definition the script never uses (a typo
 * would otherwise silently write to the default), are usage errors.
 */
final class ScriptVariables {

    /** A name as a shell's: letters, digits, underscores, not starting with a digit. */
    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    private static final Pattern REFERENCE = Pattern.compile("\\$\\{(" + NAME.pattern() + ")(?::-([^}\\n]*))?}");

    private final Map<String, String> values = new LinkedHashMap<>();

    /** Adds one {@code name=value} of the command line. */
    void define(String definition) {
        int eq = definition.indexOf('=');
        if (eq <= 0) {
            throw new CliException(
                    CliException.USAGE, "-D needs name=value, got '" + definition + "'\n\n" + SluiceCli.USAGE);
        }
        String name = definition.substring(0, eq);
        if (!NAME.matcher(name).matches()) {
            throw new CliException(
                    CliException.USAGE,
                    "Invalid variable name '" + name + "' in -D " + definition
                            + ": letters, digits and underscores, not starting with a digit");
        }
        values.put(name, definition.substring(eq + 1));
    }

    /** The script with every reference replaced. */
    String substitute(String script) {
        Set<String> used = new TreeSet<>();
        Matcher m = REFERENCE.matcher(script);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String name = m.group(1);
            used.add(name);
            String value = values.get(name);
            if (value == null) {
                value = m.group(2);
            }
            if (value == null) {
                throw new CliException(
                        CliException.USAGE,
                        "The script uses ${" + name + "} (line " + lineOf(script, m.start())
                                + ") and has no default for it: pass -D " + name + "=VALUE");
            }
            m.appendReplacement(out, Matcher.quoteReplacement(value));
        }
        m.appendTail(out);
        Set<String> unused = new TreeSet<>(values.keySet());
        unused.removeAll(used);
        if (!unused.isEmpty()) {
            throw new CliException(
                    CliException.USAGE,
                    "-D " + String.join(", ", unused) + ": the script uses no such variable"
                            + (used.isEmpty() ? "" : " (it uses " + String.join(", ", used) + ")"));
        }
        return out.toString();
    }

    private static int lineOf(String text, int offset) {
        int line = 1;
        for (int i = 0; i < offset; i++) {
            if (text.charAt(i) == '\n') {
                line++;
            }
        }
        return line;
    }
}

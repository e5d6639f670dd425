package io.sluice.runtime.config;

import io.sluice.runtime.plugin.PluginRegistry;
import io.sluice.spi.FileOptions;
import io.sluice.spi.SluiceFactory;
import io.sluice.spi.compact.FileCompactorFactory;
import io.sluice.spi.format.FormatFactory;
import io.sluice.spi.partition.CommitPolicyFactory;
import io.sluice.spi.sink.BucketAssignerFactory;
import io.sluice.spi.sink.RollingPolicyFactory;
import io.sluice.spi.sink.TargetFactory;
import io.sluice.spi.source.FileEnumeratorFactory;
import io.sluice.spi.source.ScanSourceFactory;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.DelegatingConfiguration;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The options a Sluice table may have: one table is read and written with the same options, so
 * the sink and the source both accept what either side declares: the framework's, the target's,
 * the source's, the target's scan source's, the chosen format's (under its prefix) and those of the chosen extensions (bucket
 * assigner, rolling policy, commit policies, file enumerator, compactor). Keys under a prefix that
 * one of them passes through ({@link SluiceFactory#optionPrefixes()}) are known as well.
 */
public final class KnownOptions {

    private final List<ConfigOption<?>> options;
    private final String format; // nullable
    private final List<ConfigOption<?>> formatOptions;
    private final TreeSet<String> prefixes;
    /** Option key (as given, with a format's prefix) to the extension that declares it, for messages. */
    private final Map<String, String> owners;

    private KnownOptions(
            List<ConfigOption<?>> options,
            String format,
            List<ConfigOption<?>> formatOptions,
            TreeSet<String> prefixes,
            Map<String, String> owners) {
        this.owners = owners;
        this.options = options;
        this.format = format;
        this.formatOptions = formatOptions;
        this.prefixes = prefixes;
    }

    /** What the given options make known: the extensions they choose add their own. */
    public static KnownOptions of(Map<String, String> given, PluginRegistry registry) {
        List<ConfigOption<?>> known = new ArrayList<>(SluiceOptions.all());
        TreeSet<String> prefixes = new TreeSet<>();
        Map<String, String> owners = new java.util.HashMap<>();
        String target = given.get(SluiceOptions.TARGET.key());
        boolean readsByScan =
                target != null && registry.identifiers(ScanSourceFactory.class).contains(target);
        if (!readsByScan) {
            // the file source's options mean nothing to a table that its target's scan source reads
            known.addAll(FileSourceOptions.all());
        }
        if (target != null && registry.identifiers(TargetFactory.class).contains(target)) {
            TargetFactory factory = registry.find(TargetFactory.class, target);
            if (factory.compaction().isEmpty()) {
                known.removeAll(SluiceOptions.compaction());
            }
            if (factory.partitions().isEmpty()) {
                known.removeAll(SluiceOptions.partitionCommit());
            }
            known.addAll(declared(factory, TargetFactory.class, registry, owners, ""));
            prefixes.addAll(factory.optionPrefixes());
        }
        if (readsByScan) {
            ScanSourceFactory scans = registry.find(ScanSourceFactory.class, target);
            known.addAll(declared(scans, ScanSourceFactory.class, registry, owners, ""));
            prefixes.addAll(scans.optionPrefixes());
        }
        addChosen(registry, BucketAssignerFactory.class, given.get(FileOptions.BUCKET_ASSIGNER.key()), known, owners);
        addChosen(registry, RollingPolicyFactory.class, given.get(FileOptions.ROLLING_POLICY.key()), known, owners);
        addChosen(registry, FileEnumeratorFactory.class, given.get(FileSourceOptions.ENUMERATOR.key()), known, owners);
        addChosen(
                registry,
                FileCompactorFactory.class,
                given.get(SluiceOptions.COMPACTION_COMPACTOR.key()),
                known,
                owners);
        String kinds = given.get(SluiceOptions.PARTITION_COMMIT_POLICY_KIND.key());
        if (kinds != null) {
            for (String kind : kinds.split(",")) {
                addChosen(registry, CommitPolicyFactory.class, kind.trim(), known, owners);
            }
        }
        String format = given.get(FileOptions.FORMAT.key());
        List<ConfigOption<?>> formatOptions = new ArrayList<>();
        if (format != null) {
            formatOptions.addAll(declared(
                    registry.find(FormatFactory.class, format), FormatFactory.class, registry, owners, format + "."));
        }
        // a key the framework declares is the framework's, also where a plugin declares it too
        // (the hive plugin's 'lookup.join.cache.ttl'): its errors name no plugin
        SluiceOptions.all().forEach(option -> owners.remove(option.key()));
        return new KnownOptions(known, format, formatOptions, prefixes, owners);
    }

    private static <T extends SluiceFactory> void addChosen(
            PluginRegistry registry,
            Class<T> type,
            String identifier,
            List<ConfigOption<?>> known,
            Map<String, String> owners) {
        // an unknown identifier is reported by whoever uses it, with the available ones
        if (identifier != null && registry.identifiers(type).contains(identifier)) {
            known.addAll(declared(registry.find(type, identifier), type, registry, owners, ""));
        }
    }

    /** The factory's options, each recorded as the factory's (first declarer wins) for messages. */
    private static List<ConfigOption<?>> declared(
            SluiceFactory f,
            Class<? extends SluiceFactory> type,
            PluginRegistry registry,
            Map<String, String> owners,
            String keyPrefix) {
        List<ConfigOption<?>> all = new ArrayList<>(f.requiredOptions());
        all.addAll(f.optionalOptions());
        String owner =
                type.getSimpleName() + " '" + f.identifier() + "' of plugin " + registry.pluginOf(type, f.identifier());
        for (ConfigOption<?> option : all) {
            owners.putIfAbsent(keyPrefix + option.key(), owner);
        }
        return all;
    }

    /**
     * Checks that every given option is known and that every known option's value parses.
     *
     * @param what names the table side in the message, e.g. "target 'filesystem'"
     * @throws IllegalArgumentException listing the unknown options and the valid ones, or naming
     *     the option whose value does not parse
     */
    public void check(Map<String, String> given, String what) {
        TreeSet<String> keys = new TreeSet<>();
        options.forEach(o -> {
            keys.add(o.key());
            // a deprecated key (upstream's streaming-source.consume-order, say) is the option too
            o.fallbackKeys().forEach(k -> keys.add(k.getKey()));
        });
        formatOptions.forEach(o -> keys.add(format + "." + o.key()));
        TreeSet<String> unknown = new TreeSet<>(given.keySet());
        unknown.removeAll(keys);
        unknown.remove("connector");
        unknown.removeIf(key -> prefixes.stream().anyMatch(key::startsWith));
        if (!unknown.isEmpty()) {
            StringBuilder suggestions = new StringBuilder();
            for (String key : unknown) {
                String close = closest(key, keys);
                if (close != null) {
                    suggestions
                            .append(suggestions.length() == 0 ? " (" : ", ")
                            .append("'")
                            .append(key)
                            .append("': did you mean '")
                            .append(close)
                            .append("'?");
                }
            }
            if (suggestions.length() > 0) {
                suggestions.append(')');
            }
            prefixes.forEach(p -> keys.add(p + "*"));
            throw new IllegalArgumentException("Unsupported options for " + what + ": " + unknown + suggestions
                    + "\n\nSupported options:\n" + String.join("\n", keys));
        }
        Configuration config = Configuration.fromMap(given);
        for (ConfigOption<?> option : options) {
            parse(config, option, option.key(), given, owners.get(option.key()));
        }
        if (format != null) {
            DelegatingConfiguration formatConfig = new DelegatingConfiguration(config, format + ".");
            for (ConfigOption<?> option : formatOptions) {
                parse(
                        formatConfig,
                        option,
                        format + "." + option.key(),
                        given,
                        owners.get(format + "." + option.key()));
            }
        }
    }

    /** The known key closest to a misspelt one (a few characters apart), or null if none is. */
    static String closest(String key, Iterable<String> known) {
        String best = null;
        int bestDistance = Math.max(2, key.length() / 6) + 1;
        for (String candidate : known) {
            int d = distance(key, candidate);
            if (d < bestDistance) {
                best = candidate;
                bestDistance = d;
            }
        }
        return best;
    }

    /** Levenshtein distance: insertions, deletions and substitutions of one character. */
    private static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] t = previous;
            previous = current;
            current = t;
        }
        return previous[b.length()];
    }

    /**
     * Reads one option so that a value that does not parse fails here, with an error that names
     * the option and the value in its own message and has no cause: Flink's SQL client prints only
     * the innermost cause of a failed statement, and the innermost of Flink's own parse error is
     * the type's message (a {@code MemorySize} unit error names neither the option nor the whole
     * value). Flink's error stays attached as suppressed, for the stack trace.
     */
    private static void parse(
            Configuration config, ConfigOption<?> option, String key, Map<String, String> given, String owner) {
        try {
            Object value = config.getOptional(option).orElse(null);
            if (value instanceof java.time.Duration && !Durations.inRange((java.time.Duration) value)) {
                throw new IllegalArgumentException(Durations.range());
            }
        } catch (IllegalArgumentException e) {
            Throwable innermost = e;
            while (innermost.getCause() != null && innermost.getCause() != innermost) {
                innermost = innermost.getCause();
            }
            // a value given under a deprecated key is named under the key the user wrote
            String value = given.get(key);
            if (value == null) {
                for (org.apache.flink.configuration.FallbackKey fallback : option.fallbackKeys()) {
                    if (given.containsKey(fallback.getKey())) {
                        key = fallback.getKey();
                        value = given.get(key);
                        break;
                    }
                }
            }
            String declaredBy = owner == null ? "" : " (an option of " + owner + ")";
            IllegalArgumentException invalid = new IllegalArgumentException(
                    value == null
                            ? e.getMessage() + declaredBy
                            : "Invalid value '" + value + "' for option '" + key + "'" + declaredBy + ": "
                                    + innermost.getMessage());
            invalid.addSuppressed(e);
            throw invalid;
        }
    }
}

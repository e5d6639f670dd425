package io.sluice.runtime.cli;

import io.sluice.runtime.plugin.PluginInfo;
import io.sluice.runtime.plugin.PluginSettings;
import io.sluice.spi.SpiVersion;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Prints what a plugin registry found: one block per plugin and a summary line. */
final class PluginReport {

    private final PrintStream out;

    PluginReport(PrintStream out) {
        this.out = out;
    }

    void print(PluginSettings settings, List<PluginInfo> plugins) {
        out.println("Plugins directory: " + settings.pluginsDir());
        out.println(
                "Enabled plugins:   " + (settings.enabled().isEmpty() ? "all" : String.join(", ", settings.enabled())));
        out.println("Framework SPI:     " + SpiVersion.CURRENT);
        int loaded = 0;
        int disabled = 0;
        int failed = 0;
        for (PluginInfo plugin : plugins) {
            out.println();
            printPlugin(plugin);
            switch (plugin.status()) {
                case LOADED:
                    loaded++;
                    break;
                case DISABLED:
                    disabled++;
                    break;
                default:
                    failed++;
            }
        }
        out.println();
        out.println(
                plugins.size() + " plugin(s): " + loaded + " loaded, " + disabled + " disabled, " + failed + " failed");
    }

    private void printPlugin(PluginInfo plugin) {
        out.println(plugin.id());
        row("version", plugin.version());
        row("requires SPI", plugin.requiredSpi());
        row("status", plugin.status().name());
        row("path", String.valueOf(plugin.path()));
        // sorted so that the output is stable whatever order the registry indexed SPI types in
        for (Map.Entry<String, List<String>> e : new TreeMap<>(plugin.extensions()).entrySet()) {
            List<String> identifiers = new ArrayList<>(e.getValue());
            Collections.sort(identifiers);
            row(e.getKey(), String.join(", ", identifiers));
        }
        if (plugin.error() != null) {
            row("error", plugin.error());
        }
    }

    private void row(String name, String value) {
        out.printf("  %-24s %s%n", name + ":", value == null || value.isEmpty() ? "-" : value);
    }
}

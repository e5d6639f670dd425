package io.sluice.runtime.cli;

import io.sluice.runtime.plugin.PluginInfo;
import io.sluice.runtime.plugin.PluginRegistry;
import io.sluice.runtime.plugin.PluginSettings;

import java.io.PrintStream;
import java.util.List;

/**
 * {@code sluice plugins}: loads the plugins directory the way a job would and reports every
 * plugin. The exit code tells scripts whether the installation is usable: 0 when every enabled
 * plugin loaded, 1 when one failed.
 */
final class PluginsCommand {

    private final SluiceConf conf;
    private final PrintStream out;

    PluginsCommand(SluiceConf conf, PrintStream out) {
        this.conf = conf;
        this.out = out;
    }

    int run() {
        PluginSettings settings;
        PluginRegistry registry;
        try {
            settings = PluginSettings.fromOptions(conf.options());
            registry = PluginRegistry.get(settings);
        } catch (IllegalArgumentException e) {
            // no directory configured, or it is missing or empty: nothing to report per plugin
            throw new CliException(CliException.USAGE, e.getMessage(), e);
        }
        List<PluginInfo> plugins = registry.plugins();
        new PluginReport(out).print(settings, plugins);
        boolean anyFailed = plugins.stream().anyMatch(p -> p.status() == PluginInfo.Status.FAILED);
        return anyFailed ? CliException.FAILED : 0;
    }
}

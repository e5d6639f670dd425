package io.sluice.runtime.source.scan;

import io.sluice.runtime.config.Secrets;
import io.sluice.runtime.plugin.PluginRegistry;
import io.sluice.runtime.source.TaskSourceContext;
import io.sluice.runtime.source.lookup.TableLoader;
import io.sluice.spi.source.ScanPlanner;
import io.sluice.spi.source.ScanSourceFactory;
import io.sluice.spi.source.ScanSplitReader;
import io.sluice.spi.source.SplitRows;

import org.apache.flink.table.data.RowData;

import java.io.IOException;
import java.util.List;
import java.util.function.Consumer;

/**
 * Reads a scan target's table whole for a temporal join, as a bounded scan source would but in
 * the join's task: a planner and a split reader of the target's scan source with a lookup context
 * ({@link ScanDescriptor#lookupContext}), the first plan ({@code plan(null)}), then every split
 * from its start. Planner and reader are new for each load, so each load plans the table as it
 * is then; both come from the plugin registry of the TaskManager and run under the plugin's class
 * loader (the registry's wrappers).
 */
public final class ScanTableLoader implements TableLoader {

    private static final long serialVersionUID = 1L;

    private final ScanDescriptor descriptor;

    public ScanTableLoader(ScanDescriptor descriptor) {
        this.descriptor = descriptor;
    }

    @Override
    public void load(Consumer<RowData> rows) throws IOException {
        try {
            PluginRegistry registry = descriptor.registry();
            ScanSourceFactory factory = registry.find(ScanSourceFactory.class, descriptor.target());
            TaskSourceContext context = descriptor.lookupContext(registry);
            List<ScanSourceSplit> splits;
            try (ScanPlanner planner = factory.createPlanner(context)) {
                splits = ScanSplitEnumerator.planOnce(planner, descriptor.pluginId(), descriptor.target())
                        .pendingSplits();
            }
            try (ScanSplitReader reader = factory.createReader(context)) {
                for (ScanSourceSplit split : splits) {
                    read(reader, split, rows);
                }
            }
        } catch (IOException | RuntimeException e) {
            // the target's messages may quote an option (a catalog URI with its password)
            throw new IOException(
                    Secrets.scrub(e.getMessage(), descriptor.options()), Secrets.scrub(e, descriptor.options()));
        }
    }

    private static void read(ScanSplitReader reader, ScanSourceSplit split, Consumer<RowData> rows) throws IOException {
        try (SplitRows splitRows = reader.open(split.split().payload(), 0, 0)) {
            RowData row;
            while ((row = splitRows.next()) != null) {
                rows.accept(row);
            }
        } catch (IOException | RuntimeException e) {
            throw ScanReadingFormat.failure(split, e);
        }
    }

    @Override
    public String toString() {
        return "ScanTableLoader{" + descriptor + "}";
    }
}

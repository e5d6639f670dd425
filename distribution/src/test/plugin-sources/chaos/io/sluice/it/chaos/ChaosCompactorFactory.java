package io.sluice.it.chaos;

import io.sluice.spi.compact.CompactionInputs;
import io.sluice.spi.compact.CompactionOutput;
import io.sluice.spi.compact.CompactorContext;
import io.sluice.spi.compact.FileCompactor;
import io.sluice.spi.compact.FileCompactorFactory;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.HashSet;
import java.util.Set;

/**
 * Test compactor {@code chaos}: another plugin's compactor ({@code chaos.compactor.delegate}), that
 * fails once, in its second unit, after the delegate has written the whole output but before the
 * framework could publish it.
 */
@org.pf4j.Extension
public class ChaosCompactorFactory implements FileCompactorFactory {

    static final ConfigOption<String> DELEGATE =
            ConfigOptions.key("chaos.compactor.delegate").stringType().defaultValue("concat");

    @Override
    public String identifier() {
        return "chaos";
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        Set<ConfigOption<?>> options = new HashSet<>();
        options.add(DELEGATE);
        options.add(ChaosTargetFactory.MARKER_DIR);
        return options;
    }

    private static FileCompactorFactory delegate(CompactorContext context) {
        return context.extensions()
                .find(FileCompactorFactory.class, context.options().get(DELEGATE));
    }

    @Override
    public void validate(CompactorContext context) {
        delegate(context).validate(context);
    }

    @Override
    public FileCompactor createCompactor(CompactorContext context) {
        FileCompactor compactor = delegate(context).createCompactor(context);
        Path marker = Paths.get(context.options().get(ChaosTargetFactory.MARKER_DIR), "compactor-failed");
        return new FileCompactor() {
            int units;

            @Override
            public void compact(CompactionInputs inputs, CompactionOutput output) throws IOException {
                compactor.compact(inputs, output);
                if (++units >= 2 && !Files.exists(marker)) {
                    Files.createDirectories(marker.getParent());
                    Files.createFile(marker);
                    throw new IOException("chaos: injected failure in compaction of " + inputs.files());
                }
            }
        };
    }
}

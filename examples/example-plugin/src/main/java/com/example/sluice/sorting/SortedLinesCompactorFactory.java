package com.example.sluice.sorting;

import io.sluice.spi.compact.CompactionInputs;
import io.sluice.spi.compact.CompactionOutput;
import io.sluice.spi.compact.CompactorContext;
import io.sluice.spi.compact.FileCompactor;
import io.sluice.spi.compact.FileCompactorFactory;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.core.fs.Path;

import org.pf4j.Extension;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Set;

/**
 * {@code sorted-lines}: merges files of a line-per-record format (text, csv, json) into one file
 * whose lines are sorted, byte-wise. Files sorted by a leading key compress better and let readers
 * skip ranges. Holds one unit in memory, so it refuses units above {@code
 * compaction.sorted-lines.max-unit-size}; refuses bulk formats, whose files are not lines.
 */
@Extension
public final class SortedLinesCompactorFactory implements FileCompactorFactory {

    static final ConfigOption<MemorySize> MAX_UNIT_SIZE = ConfigOptions.key("compaction.sorted-lines.max-unit-size")
            .memoryType().defaultValue(MemorySize.parse("256mb"))
            .withDescription("Largest unit (sum of its files) the compactor sorts in memory.");

    @Override
    public String identifier() {
        return "sorted-lines";
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        return Collections.singleton(MAX_UNIT_SIZE);
    }

    @Override
    public void validate(CompactorContext context) {
        if (context.bulkFormat()) {
            throw new IllegalArgumentException("Invalid 'compaction.compactor' 'sorted-lines': files of the bulk format '"
                    + context.format() + "' are not lines");
        }
        maxUnitSize(context);
    }

    private static long maxUnitSize(CompactorContext context) {
        long max = context.options().get(MAX_UNIT_SIZE).getBytes();
        if (max <= 0 || max > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("Invalid '" + MAX_UNIT_SIZE.key() + "' " + context.options().get(MAX_UNIT_SIZE)
                    + ": must be between 1 byte and 2gb");
        }
        return max;
    }

    @Override
    public FileCompactor createCompactor(CompactorContext context) {
        long max = maxUnitSize(context);
        return (inputs, output) -> sortLines(inputs, output, max);
    }

    private static void sortLines(CompactionInputs inputs, CompactionOutput output, long max) throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        for (Path file : inputs.files()) {
            try (InputStream in = inputs.open(file)) {
                in.transferTo(all);
            }
            if (all.size() > max) {
                throw new IOException("Unit of " + inputs.files().size() + " files exceeds '" + MAX_UNIT_SIZE.key()
                        + "' (" + max + " bytes) at " + file);
            }
            if (all.size() > 0 && all.toByteArray()[all.size() - 1] != '\n') {
                all.write('\n'); // a file without a final line break still ends its last line
            }
        }
        List<byte[]> lines = split(all.toByteArray());
        lines.sort(Arrays::compareUnsigned);
        OutputStream out = output.stream();
        for (byte[] line : lines) {
            out.write(line);
            out.write('\n');
        }
    }

    private static List<byte[]> split(byte[] bytes) {
        List<byte[]> lines = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == '\n') {
                lines.add(Arrays.copyOfRange(bytes, start, i));
                start = i + 1;
            }
        }
        return lines;
    }
}

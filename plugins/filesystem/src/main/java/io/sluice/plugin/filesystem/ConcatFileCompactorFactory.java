package io.sluice.plugin.filesystem;

import io.sluice.spi.compact.CompactionInputs;
import io.sluice.spi.compact.CompactionOutput;
import io.sluice.spi.compact.CompactorContext;
import io.sluice.spi.compact.FileCompactor;
import io.sluice.spi.compact.FileCompactorFactory;

import org.apache.flink.core.fs.Path;
import org.pf4j.Extension;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * {@code concat}: the output is the inputs' bytes one after another. Right for row formats, whose
 * files are sequences of records (text, csv, json); wrong for bulk formats, which it rejects.
 */
@Extension
public final class ConcatFileCompactorFactory implements FileCompactorFactory {

    @Override
    public String identifier() {
        return "concat";
    }

    @Override
    public void validate(CompactorContext context) {
        if (context.bulkFormat()) {
            throw new IllegalArgumentException("Invalid 'compaction.compactor' 'concat': files of the bulk format '"
                    + context.format() + "' cannot be concatenated byte by byte; use 'record-wise'");
        }
    }

    @Override
    public FileCompactor createCompactor(CompactorContext context) {
        return ConcatFileCompactorFactory::concat;
    }

    private static void concat(CompactionInputs inputs, CompactionOutput output) throws IOException {
        OutputStream out = output.stream();
        for (Path file : inputs.files()) {
            try (InputStream in = inputs.open(file)) {
                in.transferTo(out);
            }
        }
    }
}

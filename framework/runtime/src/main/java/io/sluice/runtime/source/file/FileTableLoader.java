package io.sluice.runtime.source.file;

import io.sluice.runtime.config.Secrets;
import io.sluice.runtime.plugin.PluginRegistry;
import io.sluice.runtime.source.lookup.TableLoader;
import io.sluice.spi.source.FileEnumeratorFactory;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.file.src.FileSourceSplit;
import org.apache.flink.connector.file.src.enumerate.FileEnumerator;
import org.apache.flink.connector.file.src.reader.BulkFormat;
import org.apache.flink.connector.file.src.util.Utils;
import org.apache.flink.table.data.RowData;

import java.io.IOException;
import java.util.Collection;
import java.util.function.Consumer;

/**
 * Reads a file table whole for a temporal join, with the file source's own parts: the table's
 * {@code FileEnumerator} lists the paths (the partitions left after pruning) once, with a lookup
 * context ({@link FileSourceDescriptor#lookupContext}), and {@link SluiceFileSource#readingFormat} reads
 * each split, partition columns added, as the source's readers do. Hidden and in-progress files
 * are skipped by the listing as for any read.
 */
public final class FileTableLoader implements TableLoader {

    private static final long serialVersionUID = 1L;

    private final FileSourceDescriptor descriptor;

    public FileTableLoader(FileSourceDescriptor descriptor) {
        this.descriptor = descriptor;
    }

    @Override
    public void load(Consumer<RowData> rows) throws IOException {
        try {
            PluginRegistry registry = descriptor.registry();
            FileEnumerator files = registry.find(FileEnumeratorFactory.class, descriptor.enumerator())
                    .create(descriptor.lookupContext(registry));
            Collection<FileSourceSplit> splits;
            try {
                splits = files.enumerateSplits(descriptor.flinkPaths(), 1);
            } catch (IOException e) {
                throw new IOException("Cannot list files under " + descriptor.paths() + ": " + e.getMessage(), e);
            }
            BulkFormat<RowData, FileSourceSplit> format = SluiceFileSource.readingFormat(descriptor, registry);
            Configuration configuration = descriptor.configuration();
            for (FileSourceSplit split : splits) {
                // the format names the file in its errors; forEachRemaining closes the reader
                Utils.forEachRemaining(format.createReader(configuration, split), rows);
            }
        } catch (IOException | RuntimeException e) {
            throw new IOException(
                    Secrets.scrub(e.getMessage(), descriptor.options()), Secrets.scrub(e, descriptor.options()));
        }
    }

    @Override
    public String toString() {
        return "FileTableLoader{" + descriptor + "}";
    }
}

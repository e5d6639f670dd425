package io.sluice.plugin.iceberg;

import io.sluice.spi.Payload;
import io.sluice.spi.source.PlannedSplit;

import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.flink.source.split.IcebergSourceSplit;
import org.apache.iceberg.flink.source.split.IcebergSourceSplitSerializer;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Upstream's {@link IcebergSourceSplit}s as the framework keeps them: serialized by upstream's
 * serializer (the payload's version is the serializer's, so splits of older versions stay
 * readable), described by their data files.
 */
final class ScanSplits {

    /** How many data files a description names before it only counts them. */
    private static final int NAMED_FILES = 3;

    private final IcebergSourceSplitSerializer serializer;

    /** @param caseSensitive as the read's; upstream binds the split's residual filters with it */
    ScanSplits(boolean caseSensitive) {
        this.serializer = new IcebergSourceSplitSerializer(caseSensitive);
    }

    List<PlannedSplit> toPlanned(Collection<IcebergSourceSplit> splits) throws IOException {
        List<PlannedSplit> planned = new ArrayList<>(splits.size());
        for (IcebergSourceSplit split : splits) {
            planned.add(new PlannedSplit(
                    describe(split), new Payload(serializer.getVersion(), serializer.serialize(split))));
        }
        return planned;
    }

    IcebergSourceSplit fromPayload(Payload payload) throws IOException {
        return serializer.deserialize(payload.version(), payload.bytes());
    }

    /** The split's data files: the first few by path, the rest counted. */
    static String describe(IcebergSourceSplit split) {
        Collection<FileScanTask> files = split.task().files();
        List<String> named = new ArrayList<>();
        for (FileScanTask file : files) {
            if (named.size() == NAMED_FILES) {
                break;
            }
            named.add(file.file().location());
        }
        String description = String.join(", ", named);
        return files.size() > NAMED_FILES
                ? description + " and " + (files.size() - NAMED_FILES) + " more"
                : description;
    }
}

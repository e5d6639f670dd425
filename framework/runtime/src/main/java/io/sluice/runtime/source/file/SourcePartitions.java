package io.sluice.runtime.source.file;

import io.sluice.spi.partition.PartitionPaths;

import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import org.apache.flink.util.FlinkRuntimeException;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Partitions of a file table, for SQL partition pruning: listed from the {@code k=v} directories
 * under the table's paths, and turned back into the directories to read once the planner has
 * pruned them.
 */
public final class SourcePartitions {

    private SourcePartitions() {}

    /** Every partition directory under the source's paths, as key -> value. */
    public static List<Map<String, String>> list(FileSourceDescriptor descriptor) {
        List<Map<String, String>> partitions = new ArrayList<>();
        List<String> keys = descriptor.partitionKeys();
        if (keys.isEmpty()) {
            return partitions;
        }
        for (String base : descriptor.paths()) {
            try {
                Path path = new Path(base);
                collect(path.getFileSystem(), path, keys, 0, new LinkedHashMap<>(), partitions);
            } catch (IOException e) {
                throw new FlinkRuntimeException("Cannot list partitions under " + base + ": " + e.getMessage(), e);
            }
        }
        return partitions;
    }

    private static void collect(
            FileSystem fs,
            Path dir,
            List<String> keys,
            int depth,
            LinkedHashMap<String, String> spec,
            List<Map<String, String>> out)
            throws IOException {
        if (depth == keys.size()) {
            out.add(new LinkedHashMap<>(spec));
            return;
        }
        if (!fs.exists(dir)) {
            return;
        }
        for (FileStatus status : fs.listStatus(dir)) {
            String name = status.getPath().getName();
            if (!status.isDir() || name.startsWith(".") || name.startsWith("_")) {
                continue;
            }
            LinkedHashMap<String, String> one = PartitionPaths.spec(name);
            String value = one.get(keys.get(depth));
            if (value != null && one.size() == 1) {
                spec.put(keys.get(depth), value);
                collect(fs, status.getPath(), keys, depth + 1, spec, out);
                spec.remove(keys.get(depth));
            }
        }
    }

    /** The source reading only the given partitions. */
    public static FileSourceDescriptor restrictTo(
            FileSourceDescriptor descriptor, List<Map<String, String>> partitions) {
        List<String> paths = new ArrayList<>();
        for (String base : descriptor.paths()) {
            for (Map<String, String> partition : partitions) {
                LinkedHashMap<String, String> ordered = new LinkedHashMap<>();
                for (String key : descriptor.partitionKeys()) {
                    ordered.put(key, partition.get(key));
                }
                paths.add(new Path(new Path(base), PartitionPaths.path(ordered)).toString());
            }
        }
        return descriptor.withPaths(paths);
    }
}

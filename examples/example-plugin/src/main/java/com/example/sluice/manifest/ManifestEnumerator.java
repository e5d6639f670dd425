package com.example.sluice.manifest;

import org.apache.flink.connector.file.src.FileSourceSplit;
import org.apache.flink.connector.file.src.enumerate.FileEnumerator;
import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;

import java.io.BufferedReader;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/** Lists the files a manifest names, one split per file. */
final class ManifestEnumerator implements FileEnumerator {

    private final String manifestName;
    private long splitCounter;

    ManifestEnumerator(String manifestName) {
        this.manifestName = manifestName;
    }

    @Override
    public Collection<FileSourceSplit> enumerateSplits(Path[] paths, int minDesiredSplits) throws IOException {
        List<FileSourceSplit> splits = new ArrayList<>();
        for (Path dir : paths) {
            FileSystem fs = dir.getFileSystem();
            Path manifest = new Path(dir, manifestName);
            if (!fs.exists(manifest)) {
                continue; // nothing published here yet
            }
            for (String name : lines(fs, manifest)) {
                Path file = new Path(dir, name);
                FileStatus status;
                try {
                    status = fs.getFileStatus(file);
                } catch (FileNotFoundException e) {
                    throw new IOException("Manifest " + manifest + " lists " + file + ", which does not exist", e);
                }
                splits.add(new FileSourceSplit(String.valueOf(splitCounter++), file, 0, status.getLen(),
                        status.getModificationTime(), status.getLen()));
            }
        }
        return splits;
    }

    private static List<String> lines(FileSystem fs, Path manifest) throws IOException {
        List<String> names = new ArrayList<>();
        try (FSDataInputStream in = fs.open(manifest);
                BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                if (!line.trim().isEmpty() && !line.startsWith("#")) {
                    names.add(line.trim());
                }
            }
        }
        return names;
    }
}

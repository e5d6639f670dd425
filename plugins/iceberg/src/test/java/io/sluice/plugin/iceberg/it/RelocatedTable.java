package io.sluice.plugin.iceberg.it;

import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.ManifestContent;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.RewriteTablePathUtil;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.hadoop.HadoopFileIO;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A Hadoop catalog's table directory copied to another location, as a table there. Iceberg's
 * metadata names every file by its absolute location, so a copied directory is no table yet: its
 * metadata files, manifest lists and manifests are written anew with the new location by Iceberg's
 * own {@link RewriteTablePathUtil}, reading the originals from the copy's source through a file IO
 * that serves the old locations from there; data files are copied as they are. Nothing is written
 * outside the new location. Tables with delete files are refused (their files would need a rewrite
 * too).
 */
final class RelocatedTable {

    private static final Pattern METADATA_FILE = Pattern.compile("v(\\d+)\\.metadata\\.json");

    private RelocatedTable() {}

    /**
     * Copies the table directory {@code from} (with {@code metadata/version-hint.text}) to {@code
     * to}, a table directory of a Hadoop catalog's warehouse ({@code <warehouse>/<db>/<table>}).
     *
     * @return the location the table had in {@code from}'s metadata
     */
    static String copy(Path from, Path to) throws IOException {
        HadoopFileIO local = new HadoopFileIO(new Configuration());
        Path metadata = from.resolve("metadata");
        int current = Integer.parseInt(
                Files.readString(metadata.resolve("version-hint.text")).trim());
        TableMetadata latest = TableMetadataParser.read(local, location(metadata.resolve(metadataFile(current))));
        String source = latest.location();
        String target = location(to);
        FileIO io = new SourceServingFileIO(local, source, location(from));

        for (int version : metadataVersions(metadata)) {
            TableMetadata m = TableMetadataParser.read(local, location(metadata.resolve(metadataFile(version))));
            TableMetadataParser.write(
                    RewriteTablePathUtil.replacePaths(m, source, target),
                    local.newOutputFile(location(to.resolve("metadata").resolve(metadataFile(version)))));
        }
        Files.copy(metadata.resolve("version-hint.text"), to.resolve("metadata").resolve("version-hint.text"));

        Set<Long> snapshotIds = new HashSet<>();
        latest.snapshots().forEach(s -> snapshotIds.add(s.snapshotId()));
        Set<String> manifestsDone = new HashSet<>();
        for (Snapshot snapshot : latest.snapshots()) {
            Set<String> manifests =
                    snapshot.allManifests(io).stream().map(ManifestFile::path).collect(Collectors.toSet());
            RewriteTablePathUtil.rewriteManifestList(
                    snapshot,
                    io,
                    latest,
                    manifests,
                    source,
                    target,
                    target,
                    RewriteTablePathUtil.newPath(snapshot.manifestListLocation(), source, target));
            for (ManifestFile manifest : snapshot.allManifests(io)) {
                if (!manifestsDone.add(manifest.path())) {
                    continue;
                }
                if (manifest.content() != ManifestContent.DATA) {
                    throw new IllegalArgumentException("Manifest " + manifest.path() + " lists delete files: "
                            + "relocating them is not supported here");
                }
                RewriteTablePathUtil.rewriteDataManifest(
                        manifest,
                        snapshotIds,
                        io.newOutputFile(RewriteTablePathUtil.newPath(manifest.path(), source, target)),
                        io,
                        latest.formatVersion(),
                        latest.specsById(),
                        source,
                        target);
            }
        }

        try (Stream<Path> files = Files.walk(from)) {
            for (Path f : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
                Path relative = from.relativize(f);
                if (!relative.startsWith("metadata")) {
                    Files.createDirectories(to.resolve(relative).getParent());
                    Files.copy(f, to.resolve(relative));
                }
            }
        }
        return source;
    }

    /** The metadata versions in {@code metadata}, from the files' names. */
    private static Set<Integer> metadataVersions(Path metadata) throws IOException {
        try (Stream<Path> files = Files.list(metadata)) {
            return files.map(f -> METADATA_FILE.matcher(f.getFileName().toString()))
                    .filter(Matcher::matches)
                    .map(m -> Integer.parseInt(m.group(1)))
                    .collect(Collectors.toSet());
        }
    }

    private static String metadataFile(int version) {
        return "v" + version + ".metadata.json";
    }

    /** A local path as Hadoop (and so the Hadoop catalog) spells its location: {@code file:/...}. */
    static String location(Path path) {
        // without the '/' a URI of an existing directory ends with
        String location = new org.apache.hadoop.fs.Path(path.toAbsolutePath().toUri()).toString();
        return location.endsWith("/") ? location.substring(0, location.length() - 1) : location;
    }

    /**
     * Reads files under the table's old location from the copy's source; writes (the rewritten
     * metadata) go where they are asked to, and nothing is deleted.
     */
    private static final class SourceServingFileIO implements FileIO {
        private final FileIO local;
        private final String oldLocation;
        private final String sourceLocation;

        SourceServingFileIO(FileIO local, String oldLocation, String sourceLocation) {
            this.local = local;
            this.oldLocation = oldLocation;
            this.sourceLocation = sourceLocation;
        }

        @Override
        public InputFile newInputFile(String path) {
            return local.newInputFile(RewriteTablePathUtil.newPath(path, oldLocation, sourceLocation));
        }

        @Override
        public InputFile newInputFile(String path, long length) {
            return local.newInputFile(RewriteTablePathUtil.newPath(path, oldLocation, sourceLocation), length);
        }

        @Override
        public OutputFile newOutputFile(String path) {
            return local.newOutputFile(path);
        }

        @Override
        public void deleteFile(String path) {
            throw new UnsupportedOperationException("Relocating a table deletes nothing: " + path);
        }

        @Override
        public Map<String, String> properties() {
            return local.properties();
        }

        @Override
        public void close() {
            local.close();
        }
    }
}

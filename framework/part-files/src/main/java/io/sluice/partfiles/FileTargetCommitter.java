package io.sluice.partfiles;

import io.sluice.spi.Payload;
import io.sluice.spi.sink.CommitRequest;
import io.sluice.spi.sink.CompactionUnit;
import io.sluice.spi.sink.TargetCommitter;

import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import org.apache.flink.core.fs.RecoverableWriter;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Publishes pending part files, and runs the compaction units of a request. The final name of
 * every file is fixed when it is written, and the file system's {@code commitAfterRecovery}
 * succeeds without change when the file is already in place, so a retried commit is a no-op rather
 * than a duplicate; a unit is idempotent too ({@link UnitCompaction}). With overwrite, the other
 * files of the directories a commit publishes to are deleted first ({@link OverwrittenFiles}).
 * Every file a request would publish, compact or delete must be under the table's base path
 * ({@link TableRoot}), checked before the first change. After the commit it removes the recoverable
 * state of in-progress files that the request's checkpoint superseded ({@link ObsoleteResumable}).
 */
final class FileTargetCommitter implements TargetCommitter {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(FileTargetCommitter.class);

    private final RecoverableWriter fsWriter;
    private final Supplier<UnitCompaction> compaction; // created on the first unit
    private final boolean overwrite;
    private final TableRoot root;
    private final Path basePath;
    private final java.util.function.Function<String, Path> locations; // partition (bucket) id -> its directory

    FileTargetCommitter(
            RecoverableWriter fsWriter,
            Supplier<UnitCompaction> compaction,
            boolean overwrite,
            Path basePath,
            java.util.function.Function<String, Path> locations) {
        this.locations = locations;
        this.root = new TableRoot(basePath);
        this.basePath = basePath;
        this.fsWriter = fsWriter;
        this.compaction = compaction;
        this.overwrite = overwrite;
    }

    @Override
    public void commit(CommitRequest request) throws IOException {
        List<PendingFile> files = new ArrayList<>(request.pending().size());
        List<ObsoleteResumable> obsolete = new ArrayList<>();
        for (Payload p : request.pending()) {
            if (ObsoleteResumable.isOne(p)) {
                obsolete.add(ObsoleteResumable.of(p, fsWriter));
            } else {
                files.add(PendingFile.of(p, fsWriter));
            }
        }
        checkUnderRoot(files, request.compactions());
        if (overwrite) {
            overwritten(files, request.compactions()).deleteOthers();
        }
        for (PendingFile file : files) {
            file.commit(fsWriter);
        }
        if (!request.compactions().isEmpty()) {
            UnitCompaction units = compaction.get();
            for (CompactionUnit unit : request.compactions()) {
                units.run(unit);
            }
        }
        removeObsolete(obsolete);
    }

    /**
     * Removes what resumed in-progress files at an earlier checkpoint ({@link ObsoleteResumable}).
     * Best effort: what stays behind costs storage and loses nothing, so a failure is logged and
     * the commit stands; a retried commit removes it again, which the file system allows.
     */
    private void removeObsolete(List<ObsoleteResumable> obsolete) {
        for (ObsoleteResumable o : obsolete) {
            try {
                fsWriter.cleanupRecoverableState(o.resumable());
            } catch (IOException | RuntimeException e) {
                LOG.warn(
                        "Cannot remove the recoverable state of an in-progress file under {}: {}",
                        basePath,
                        e.toString());
            }
        }
    }

    /** A partition's directory: its id is the bucket id ({@code k1=v1/k2=v2} below the base path by default). */
    @Override
    public Optional<Path> partitionLocation(String partitionId) {
        return Optional.of(locations.apply(partitionId));
    }

    @Override
    public List<Path> visibleFiles(String partitionId) throws IOException {
        Path dir = partitionLocation(partitionId).get();
        FileSystem fs = dir.getFileSystem();
        FileStatus[] entries = fs.exists(dir) ? fs.listStatus(dir) : null;
        List<Path> files = new ArrayList<>();
        if (entries != null) {
            for (FileStatus f : entries) {
                if (!f.isDir() && VisibleFiles.isVisibleName(f.getPath().getName())) {
                    files.add(f.getPath());
                }
            }
        }
        files.sort(java.util.Comparator.comparing(Path::toString));
        return files;
    }

    /** Fails before any change if a file of the request lies outside the table. */
    private void checkUnderRoot(List<PendingFile> files, List<CompactionUnit> units) throws IOException {
        for (PendingFile file : files) {
            if (file.path() != null) { // older versions did not record it; nothing to check against
                root.check(file.path(), "publish");
            }
        }
        for (CompactionUnit unit : units) {
            for (Payload input : unit.inputs()) {
                PendingFile file = PendingFile.of(input, fsWriter);
                if (file.path() != null) {
                    root.check(file.path(), "compact");
                }
            }
        }
    }

    /** The files this commit publishes: the pending files and the outputs of its compaction units. */
    private OverwrittenFiles overwritten(List<PendingFile> files, List<CompactionUnit> units) throws IOException {
        OverwrittenFiles overwritten = new OverwrittenFiles(root);
        for (PendingFile file : files) {
            overwritten.add(requirePath(file));
        }
        for (CompactionUnit unit : units) {
            if (!unit.inputs().isEmpty()) {
                overwritten.add(UnitCompaction.outputPath(
                        requirePath(PendingFile.of(unit.inputs().get(0), fsWriter))));
            }
        }
        return overwritten;
    }

    private static org.apache.flink.core.fs.Path requirePath(PendingFile file) throws IOException {
        if (file.path() == null) {
            throw new IOException(
                    "INSERT OVERWRITE of a pending file written by an older version, whose path is unknown");
        }
        return file.path();
    }
}

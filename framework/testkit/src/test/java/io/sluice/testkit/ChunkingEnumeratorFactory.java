package io.sluice.testkit;

import io.sluice.spi.source.FileEnumeratorFactory;
import io.sluice.spi.source.SourceContext;

import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.connector.file.src.FileSourceSplit;
import org.apache.flink.connector.file.src.enumerate.FileEnumerator;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * A test enumerator that cuts every visible file into chunks of {@code chunk-size} bytes, so the
 * kit's coverage checks see files of many splits (the local file system has one block per file,
 * so Flink's block-splitting enumerator never cuts a file there). With a {@link Defect} it breaks
 * one rule on purpose, to show that the kit notices.
 */
final class ChunkingEnumeratorFactory implements FileEnumeratorFactory {

    static final String CHUNK_SIZE = "chunk-size";

    /** One rule broken on purpose. */
    enum Defect {
        NONE,
        /** Each chunk but the last reaches one byte into the next. */
        OVERLAPPING_SPLITS,
        /** Also lists files and directories starting with '.' or '_'. */
        LISTS_HIDDEN_FILES,
        /** Reports the time of the listing instead of the file's modification time. */
        WRONG_MODIFICATION_TIME,
        /** Keeps returning the files of its first listing (with fresh split ids). */
        FIRST_LISTING_ONLY,
        /** Takes any chunk size, even zero. */
        ACCEPTS_ANY_OPTIONS,
        /** Numbers the splits of each listing from 0 again. */
        REUSES_SPLIT_IDS,
        /** Lists once only: refuses a continuous read (not a defect where the test says so). */
        REFUSES_CONTINUOUS_READS
    }

    private final Defect defect;

    ChunkingEnumeratorFactory(Defect defect) {
        this.defect = defect;
    }

    @Override
    public String identifier() {
        return "chunking";
    }

    @Override
    public FileEnumerator create(SourceContext context) {
        String value = context.rawOptions().getOrDefault(CHUNK_SIZE, "4096");
        long chunk;
        try {
            chunk = Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("Invalid '" + CHUNK_SIZE + "' '" + value + "': not a number", e);
        }
        if (chunk <= 0 && defect != Defect.ACCEPTS_ANY_OPTIONS) {
            throw new IllegalArgumentException("Invalid '" + CHUNK_SIZE + "' '" + value + "': must be positive");
        }
        if (defect == Defect.REFUSES_CONTINUOUS_READS && context.boundedness() == Boundedness.CONTINUOUS_UNBOUNDED) {
            throw new IllegalArgumentException(
                    "The 'chunking' enumerator lists once: unset 'source.monitor-interval' for a bounded read");
        }
        return new Chunking(Math.max(1, chunk), defect);
    }

    private static final class Chunking implements FileEnumerator {
        private final long chunk;
        private final Defect defect;
        private long nextId;
        private List<FileStatus> firstListing;

        Chunking(long chunk, Defect defect) {
            this.chunk = chunk;
            this.defect = defect;
        }

        @Override
        public Collection<FileSourceSplit> enumerateSplits(Path[] paths, int minDesiredSplits) throws IOException {
            if (defect == Defect.REUSES_SPLIT_IDS) {
                nextId = 0;
            }
            List<FileStatus> files = new ArrayList<>();
            if (defect == Defect.FIRST_LISTING_ONLY && firstListing != null) {
                files = firstListing;
            } else {
                for (Path path : paths) {
                    collect(path.getFileSystem(), path, files);
                }
                firstListing = files;
            }
            List<FileSourceSplit> splits = new ArrayList<>();
            for (FileStatus file : files) {
                long time = defect == Defect.WRONG_MODIFICATION_TIME
                        ? System.currentTimeMillis()
                        : file.getModificationTime();
                long len = file.getLen();
                long offset = 0;
                do {
                    long length = Math.min(chunk, len - offset);
                    long reported = defect == Defect.OVERLAPPING_SPLITS && offset + length < len ? length + 1 : length;
                    splits.add(
                            new FileSourceSplit(String.valueOf(nextId++), file.getPath(), offset, reported, time, len));
                    offset += length;
                } while (offset < len);
            }
            return splits;
        }

        private void collect(FileSystem fs, Path dir, List<FileStatus> into) throws IOException {
            for (FileStatus status : fs.listStatus(dir)) {
                String name = status.getPath().getName();
                if (defect != Defect.LISTS_HIDDEN_FILES && (name.startsWith(".") || name.startsWith("_"))) {
                    continue;
                }
                if (status.isDir()) {
                    collect(fs, status.getPath(), into);
                } else {
                    into.add(status);
                }
            }
        }
    }
}

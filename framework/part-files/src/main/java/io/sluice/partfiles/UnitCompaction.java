package io.sluice.partfiles;

import io.sluice.spi.Payload;
import io.sluice.spi.compact.CompactionInputs;
import io.sluice.spi.compact.CompactionOutput;
import io.sluice.spi.compact.FileCompactor;
import io.sluice.spi.compact.RowReader;
import io.sluice.spi.compact.RowWriter;
import io.sluice.spi.sink.CompactionUnit;

import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import org.apache.flink.core.fs.RecoverableFsDataOutputStream;
import org.apache.flink.core.fs.RecoverableWriter;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Runs one compaction unit: the inputs, written under hidden names ({@link #HIDDEN_PREFIX}), become
 * one visible file named after the first input without the prefix, and the inputs are removed.
 *
 * <p>Idempotent at every step, because a unit is handed over again after a failure: the output is
 * published atomically (the recoverable writer's commit, or a rename for a unit of one file whose
 * compactor need not see it, {@link FileCompactor#mustSeeEveryUnit()}), and
 * inputs are removed only once it exists. So an existing output means the unit is done up to
 * removing what is left of the inputs; a missing one means every input is still there, either as
 * the writer's in-progress file or already committed under its hidden name.
 */
final class UnitCompaction {

    /** What a writer with compaction on puts in front of a part file's name. */
    static final String HIDDEN_PREFIX = ".uncompacted-";

    private final RecoverableWriter fsWriter;
    private final PartWriters format;
    private final FileCompactor compactor;

    UnitCompaction(RecoverableWriter fsWriter, PartWriters format, FileCompactor compactor) {
        this.fsWriter = fsWriter;
        this.format = format;
        this.compactor = compactor;
    }

    void run(CompactionUnit unit) throws IOException {
        List<PendingFile> inputs = new ArrayList<>(unit.inputs().size());
        for (Payload p : unit.inputs()) {
            PendingFile file = PendingFile.of(p, fsWriter);
            if (file.path() == null) {
                throw new IOException("A compaction input of bucket '" + unit.bucketId()
                        + "' has no path (written by an" + " older version)");
            }
            inputs.add(file);
        }
        if (inputs.isEmpty()) {
            return;
        }
        Path output = outputPath(inputs.get(0).path());
        FileSystem fs = FileSystems.of(output);
        if (!fs.exists(output)) {
            for (PendingFile input : inputs) {
                input.commit(fsWriter); // under its hidden name
            }
            if (inputs.size() == 1 && !compactor.mustSeeEveryUnit()) {
                Path only = inputs.get(0).path();
                if (!fs.rename(only, output)) {
                    throw new IOException("Cannot publish " + only + " as " + output);
                }
                return;
            }
            merge(unit.bucketId(), inputs, output);
        }
        for (PendingFile input : inputs) {
            fs.delete(input.path(), false);
        }
    }

    private void merge(String bucketId, List<PendingFile> inputs, Path output) throws IOException {
        List<Path> paths = new ArrayList<>(inputs.size());
        inputs.forEach(f -> paths.add(f.path()));
        RecoverableFsDataOutputStream stream = fsWriter.open(output);
        Output out = new Output(bucketId, stream);
        RecoverableWriter.CommitRecoverable done;
        try {
            compactor.compact(new Inputs(paths), out);
            done = out.closeForCommit();
        } catch (IOException | RuntimeException e) {
            stream.close(); // the in-progress output stays hidden; a retry writes a new one
            throw new IOException("Compaction of " + paths + " into " + output + " failed: " + e.getMessage(), e);
        }
        fsWriter.recoverForCommit(done).commit();
    }

    /** {@code dir/.uncompacted-part-x} -> {@code dir/part-x}. */
    static Path outputPath(Path input) {
        String name = input.getName();
        String published =
                name.startsWith(HIDDEN_PREFIX) ? name.substring(HIDDEN_PREFIX.length()) : "compacted-" + name;
        return new Path(input.getParent(), published);
    }

    private final class Inputs implements CompactionInputs {
        private final List<Path> files;

        Inputs(List<Path> files) {
            this.files = Collections.unmodifiableList(files);
        }

        @Override
        public List<Path> files() {
            return files;
        }

        @Override
        public InputStream open(Path file) throws IOException {
            return FileSystems.of(file).open(file);
        }

        @Override
        public RowReader readRows(Path file) throws IOException {
            return format.read(file);
        }
    }

    private final class Output implements CompactionOutput {
        private final String bucketId;
        private final RecoverableFsDataOutputStream stream;
        private OutputStream bytes;
        private PartFile rows;

        Output(String bucketId, RecoverableFsDataOutputStream stream) {
            this.bucketId = bucketId;
            this.stream = stream;
        }

        @Override
        public OutputStream stream() {
            if (rows != null) {
                throw new IllegalStateException("A compactor writes either bytes or rows, not both");
            }
            if (bytes == null) {
                bytes = new FilterOutputStream(stream) {
                    @Override
                    public void write(byte[] b, int off, int len) throws IOException {
                        out.write(b, off, len);
                    }

                    @Override
                    public void close() throws IOException {
                        flush(); // the framework finishes the file
                    }
                };
            }
            return bytes;
        }

        @Override
        public RowWriter rows() throws IOException {
            if (bytes != null) {
                throw new IllegalStateException("A compactor writes either bytes or rows, not both");
            }
            if (rows == null) {
                rows = format.openForFileRows(bucketId, stream, System.currentTimeMillis());
            }
            PartFile file = rows;
            return row -> file.write(row, 0);
        }

        RecoverableWriter.CommitRecoverable closeForCommit() throws IOException {
            return rows != null
                    ? rows.closeForCommit()
                    : stream.closeForCommit().getRecoverable();
        }
    }
}

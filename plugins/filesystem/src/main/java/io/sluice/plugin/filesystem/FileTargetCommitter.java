package io.sluice.plugin.filesystem;

import io.sluice.spi.sink.CommitRequest;
import io.sluice.spi.sink.CompactionUnit;
import io.sluice.spi.sink.Payload;
import io.sluice.spi.sink.TargetCommitter;

import org.apache.flink.core.fs.RecoverableWriter;

import java.io.IOException;
import java.util.function.Supplier;

/**
 * Publishes pending part files, and runs the compaction units of a request. The final name of
 * every file is fixed when it is written, and the file system's {@code commitAfterRecovery}
 * succeeds without change when the file is already in place, so a retried commit is a no-op rather
 * than a duplicate; a unit is idempotent too ({@link UnitCompaction}).
 */
final class FileTargetCommitter implements TargetCommitter {

    private final RecoverableWriter fsWriter;
    private final Supplier<UnitCompaction> compaction; // created on the first unit

    FileTargetCommitter(RecoverableWriter fsWriter, Supplier<UnitCompaction> compaction) {
        this.fsWriter = fsWriter;
        this.compaction = compaction;
    }

    @Override
    public void commit(CommitRequest request) throws IOException {
        for (Payload p : request.pending()) {
            PendingFile.of(p, fsWriter).commit(fsWriter);
        }
        if (request.compactions().isEmpty()) {
            return;
        }
        UnitCompaction units = compaction.get();
        for (CompactionUnit unit : request.compactions()) {
            units.run(unit);
        }
    }
}

package io.sluice.plugin.hive;

import io.sluice.partfiles.PartFiles;
import io.sluice.spi.Payload;
import io.sluice.spi.sink.CommitRequest;
import io.sluice.spi.sink.PendingCommit;
import io.sluice.spi.sink.TargetCommitter;

import org.apache.flink.core.fs.Path;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The hive target's committer in a BATCH job that gathers statistics ({@link HiveStatistics}):
 * after the part files of a request are published (directly, or as the output of its compaction
 * units), each directory they went to gets its
 * statistics in the metastore, the table's for an unpartitioned table, a partition's if the
 * metastore has it (a new partition gets them when the {@code metastore} policy adds it, right
 * after this commit). Recomputed from the directories on every call, so a retry sets the same values.
 */
final class StatisticsCommitter implements TargetCommitter {

    private final TargetCommitter files;
    private final HiveTableInfo table;
    private final int threads;

    StatisticsCommitter(TargetCommitter files, HiveTableInfo table, int threads) {
        this.files = files;
        this.table = table;
        this.threads = threads;
    }

    @Override
    public void commit(CommitRequest request) throws IOException {
        files.commit(request);
        Set<Path> dirs = new LinkedHashSet<>();
        for (Payload payload : request.pending()) {
            Optional<Path> path = PartFiles.publishedPath(payload);
            path.ifPresent(p -> dirs.add(p.getParent()));
        }
        // a compaction unit's output goes to the directory of its (hidden) inputs
        for (io.sluice.spi.sink.CompactionUnit unit : request.compactions()) {
            for (Payload input : unit.inputs()) {
                PartFiles.publishedPath(input).ifPresent(p -> dirs.add(p.getParent()));
            }
        }
        if (dirs.isEmpty()) {
            return;
        }
        Map<Path, Map<String, String>> stats =
                HiveStatistics.gather(new ArrayList<>(dirs), table.format(), threads, table.hiveConf);
        for (Map.Entry<Path, Map<String, String>> dir : stats.entrySet()) {
            HiveStatistics.write(table.hiveConf, table.path, table.partitionName(dir.getKey()), dir.getValue());
        }
    }

    @Override
    public Optional<Path> partitionLocation(String partitionId) throws IOException {
        return files.partitionLocation(partitionId);
    }

    @Override
    public List<Path> visibleFiles(String partitionId) throws IOException {
        return files.visibleFiles(partitionId);
    }

    @Override
    public void discard(List<PendingCommit> pending) throws IOException {
        files.discard(pending);
    }

    @Override
    public void close() throws Exception {
        files.close();
    }
}

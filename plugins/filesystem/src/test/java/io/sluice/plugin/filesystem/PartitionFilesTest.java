package io.sluice.plugin.filesystem;

import io.sluice.spi.sink.PendingCommit;
import io.sluice.spi.sink.TargetCommitter;
import io.sluice.spi.sink.TargetWriter;
import io.sluice.testkit.TestSinkContext;

import org.apache.flink.core.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.util.Collections;
import java.util.List;
import java.util.stream.Collectors;

import static io.sluice.partfiles.testing.PartFileTesting.T0;
import static io.sluice.partfiles.testing.PartFileTesting.at;
import static io.sluice.partfiles.testing.PartFileTesting.commit;
import static io.sluice.partfiles.testing.PartFileTesting.row;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the committer tells commit policies about a partition: its directory below the table's
 * path, and the files readers see there after the commits so far (not the in-progress ones).
 */
class PartitionFilesTest {

    @TempDir
    java.nio.file.Path tmp;

    private final FileSystemTargetFactory target = new FileSystemTargetFactory();

    @Test
    void aPartitionIsItsBucketDirectoryAndListsOnlyCommittedFiles() throws Exception {
        java.nio.file.Path base = tmp.resolve("out");
        TestSinkContext ctx = FileSystemSinks.of(base, "lines")
                .option("sink.rolling-policy.kind", "on-checkpoint")
                .option("sink.bucket-assigner", "date-time")
                .option("sink.bucket-assigner.date-time.time-zone", "UTC")
                .build();
        long hour = 3_600_000L;
        try (TargetWriter writer = target.createWriter(ctx, Collections.emptyList());
                TargetCommitter committer = target.createCommitter(ctx)) {
            Path h7 = new Path(base.toString(), "2024-03-05--07");
            assertThat(committer.partitionLocation("2024-03-05--07")).contains(h7);
            assertThat(committer.visibleFiles("2024-03-05--07"))
                    .as("before anything is written")
                    .isEmpty();

            writer.write(row("a"), at(T0));
            writer.write(row("b"), at(T0 + hour));
            commit(committer, 1, writer.prepareCommit(false));
            writer.write(row("c"), at(T0)); // in progress: not visible
            assertThat(names(committer.visibleFiles("2024-03-05--07")))
                    .singleElement()
                    .asString()
                    .startsWith("part-");

            List<PendingCommit> second = writer.prepareCommit(false);
            commit(committer, 2, second);
            List<Path> files = committer.visibleFiles("2024-03-05--07");
            assertThat(files)
                    .hasSize(2)
                    .allSatisfy(f -> assertThat(f.getParent().toUri().getPath())
                            .isEqualTo(h7.toUri().getPath()));
            assertThat(committer.visibleFiles("2024-03-05--08")).hasSize(1);
        }
    }

    private static List<String> names(List<Path> files) {
        return files.stream().map(Path::getName).collect(Collectors.toList());
    }
}

package io.sluice.plugin.filesystem;

import io.sluice.spi.partition.CommitPolicy;
import io.sluice.spi.partition.PartitionCommitContext;
import io.sluice.spi.partition.PartitionPaths;
import io.sluice.testkit.TestSinkContext;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static io.sluice.partfiles.testing.PartFileTesting.files;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Proves the success-file policy writes one empty marker (default or configured name) into the partition directory, idempotently, and rejects names that are not plain file names. */
class SuccessFileCommitPolicyTest {

    @TempDir
    Path tmp;

    private final SuccessFileCommitPolicyFactory factory = new SuccessFileCommitPolicyFactory();

    @Test
    void writesSuccessIntoThePartitionDirectoryIdempotently() throws Exception {
        Path base = tmp.resolve("out");
        Path partition = base.resolve("dt=2024-01-02").resolve("hr=03");
        Files.createDirectories(partition);
        Files.write(partition.resolve("part-x-0"), "data\n".getBytes(StandardCharsets.UTF_8));

        CommitPolicy policy = factory.create(FileSystemSinks.of(base, "lines").build());
        policy.commit(partitionContext(partition, "dt=2024-01-02/hr=03", 1));
        Map<String, String> once = files(base);
        assertThat(once)
                .containsExactly(
                        Map.entry("dt=2024-01-02/hr=03/_SUCCESS", ""),
                        Map.entry("dt=2024-01-02/hr=03/part-x-0", "data\n"));

        // committed again: late data, or a retry after a failure
        policy.commit(partitionContext(partition, "dt=2024-01-02/hr=03", 2));
        assertThat(files(base)).isEqualTo(once);
    }

    @Test
    void writesTheConfiguredNameAndCreatesAMissingDirectory() throws Exception {
        Path base = tmp.resolve("out");
        Path partition = base.resolve("p=1");
        CommitPolicy policy = factory.create(FileSystemSinks.of(base, "lines")
                .option("sink.partition-commit.success-file.name", "_DONE")
                .build());
        policy.commit(partitionContext(partition, "p=1", 1));
        policy.commit(partitionContext(partition, "p=1", 1));
        assertThat(files(base)).containsExactly(Map.entry("p=1/_DONE", ""));
    }

    @Test
    void rejectsNamesThatAreNotPlainFileNames() {
        for (String name : List.of("", "a/b", "/abs", ".", "..", "a\\b")) {
            TestSinkContext ctx = FileSystemSinks.of(tmp.resolve("out"), "lines")
                    .option("sink.partition-commit.success-file.name", name)
                    .build();
            assertThatThrownBy(() -> factory.create(ctx))
                    .as("name '%s'", name)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("sink.partition-commit.success-file.name")
                    .hasMessageContaining("'" + name + "'");
        }
    }

    private static PartitionCommitContext partitionContext(Path location, String id, long checkpointId) {
        return new PartitionCommitContext() {
            @Override
            public String partitionId() {
                return id;
            }

            @Override
            public LinkedHashMap<String, String> partitionSpec() {
                return PartitionPaths.spec(id);
            }

            @Override
            public org.apache.flink.core.fs.Path partitionLocation() {
                return new org.apache.flink.core.fs.Path(location.toUri());
            }

            @Override
            public long checkpointId() {
                return checkpointId;
            }
        };
    }
}

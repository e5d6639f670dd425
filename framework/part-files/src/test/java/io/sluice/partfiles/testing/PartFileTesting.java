package io.sluice.partfiles.testing;

import io.sluice.spi.Payload;
import io.sluice.spi.sink.CommitRequest;
import io.sluice.spi.sink.CompactionUnit;
import io.sluice.spi.sink.PendingCommit;
import io.sluice.spi.sink.RecordContext;
import io.sluice.spi.sink.TargetCommitter;

import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Helpers for driving a part-file target (the library's engine, or a plugin's target on top of it)
 * by hand, and looking at what it left on disk. Shared with the plugins' tests through the test-jar.
 */
public final class PartFileTesting {

    /** One nullable STRING column {@code line}: the rows of the test formats. */
    public static final org.apache.flink.table.types.logical.RowType LINE =
            org.apache.flink.table.types.logical.RowType.of(
                    new org.apache.flink.table.types.logical.LogicalType[] {
                        new org.apache.flink.table.types.logical.VarCharType(
                                org.apache.flink.table.types.logical.VarCharType.MAX_LENGTH)
                    },
                    new String[] {"line"});

    /** The test formats {@code lines} and {@code bulk-lines}, as a plugin's extensions hold them. */
    public static io.sluice.spi.ExtensionLookup lineFormats() {
        return io.sluice.testkit.TestExtensions.of(new LinesFormatFactory(), new BulkLinesFormatFactory());
    }

    /** 2024-03-05T07:08:09.010Z. */
    public static final long T0 = 1709622489010L;

    /** Files stay open until the end of the input (as small files with the default policy). */
    public static final io.sluice.spi.sink.RollingPolicy NEVER = new io.sluice.spi.sink.RollingPolicy() {
        @Override
        public boolean shouldRollOnCheckpoint(io.sluice.spi.sink.PartFileState partFile) {
            return false;
        }

        @Override
        public boolean shouldRollOnEvent(io.sluice.spi.sink.PartFileState partFile, RowData element) {
            return false;
        }

        @Override
        public boolean shouldRollOnProcessingTime(io.sluice.spi.sink.PartFileState partFile, long currentTime) {
            return false;
        }
    };

    private PartFileTesting() {}

    public static RowData row(String line) {
        return GenericRowData.of(StringData.fromString(line));
    }

    /** A record context at processing time {@code time}. */
    public static RecordContext at(long time) {
        return new RecordContext() {
            @Override
            public long currentProcessingTime() {
                return time;
            }

            @Override
            public long currentWatermark() {
                return Long.MIN_VALUE;
            }

            @Override
            public Long timestamp() {
                return null;
            }
        };
    }

    /** Commits what writers prepared for {@code checkpointId}, as the framework would after the checkpoint. */
    public static void commit(TargetCommitter committer, long checkpointId, List<PendingCommit> pending)
            throws IOException {
        committer.commit(request(checkpointId, pending));
    }

    public static CommitRequest request(long checkpointId, List<PendingCommit> pending) {
        return request(checkpointId, pending, Collections.emptyList());
    }

    /** A unit of the given pending files (of one bucket), as the framework hands it over. */
    public static CompactionUnit unit(String bucketId, List<PendingCommit> inputs) {
        List<Payload> payloads = inputs.stream()
                .map(p -> new Payload(p.payload().version(), p.payload().bytes().clone()))
                .collect(Collectors.toList());
        return CompactionUnit.of(bucketId, payloads);
    }

    public static CommitRequest request(long checkpointId, List<PendingCommit> pending, List<CompactionUnit> units) {
        // the framework keeps committables as bytes: hand the committer copies, not the writer's objects
        List<Payload> payloads = pending.stream()
                .map(p -> new Payload(p.payload().version(), p.payload().bytes().clone()))
                .collect(Collectors.toList());
        return CommitRequest.of(
                "00000000000000000000000000000001",
                "00000000000000000000000000000002",
                "",
                checkpointId,
                payloads,
                units);
    }

    /** Every regular file under {@code root}: path relative to root ('/'-separated) -> content. */
    public static Map<String, String> files(Path root) {
        Map<String, String> result = new TreeMap<>();
        if (!Files.exists(root)) {
            return result;
        }
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : walk.filter(Files::isRegularFile).collect(Collectors.toList())) {
                result.put(
                        root.relativize(p).toString().replace('\\', '/'),
                        new String(Files.readAllBytes(p), StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return result;
    }

    /** Finished files: those whose name does not start with a dot. */
    public static Map<String, String> visible(Path root) {
        Map<String, String> result = new TreeMap<>(files(root));
        result.keySet().removeIf(PartFileTesting::isHidden);
        return result;
    }

    /** In-progress and pending files: hidden names. */
    public static Map<String, String> hidden(Path root) {
        Map<String, String> result = new TreeMap<>(files(root));
        result.keySet().removeIf(k -> !isHidden(k));
        return result;
    }

    public static String fileName(String relativePath) {
        return relativePath.substring(relativePath.lastIndexOf('/') + 1);
    }

    public static String parent(String relativePath) {
        int slash = relativePath.lastIndexOf('/');
        return slash < 0 ? "" : relativePath.substring(0, slash);
    }

    private static boolean isHidden(String relativePath) {
        return fileName(relativePath).startsWith(".");
    }

    public static List<String> names(Map<String, String> files) {
        return new ArrayList<>(files.keySet());
    }
}

package io.sluice.plugin.filesystem;

import io.sluice.testkit.KitRowsFormat;

import java.nio.file.Path;
import java.util.Map;

/** The filesystem target against the target kit with part files that roll at every checkpoint. */
class FileSystemTargetRollingOnCheckpointConformanceTest extends FileSystemTargetConformanceTest {

    @Override
    protected Map<String, String> sinkOptions(Path dir) {
        return Map.of(
                "path",
                dir.toString(),
                "format",
                KitRowsFormat.IDENTIFIER,
                "sink.rolling-policy.kind",
                "on-checkpoint");
    }
}

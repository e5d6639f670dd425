package io.sluice.plugin.filesystem;

import io.sluice.spi.sink.TargetFactory;
import io.sluice.testkit.KitRowsFormat;
import io.sluice.testkit.TargetConformance;
import io.sluice.testkit.TestExtensions;
import io.sluice.testkit.TestSinkContext;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The filesystem target against Sluice's target kit, once with part files that stay open across
 * checkpoints (the default rolling policy: restored writers resume them) and once rolling at every
 * checkpoint; the kit's rows in the kit's row format, read back as plain text from the visible
 * files only.
 */
class FileSystemTargetConformanceTest extends TargetConformance {

    @Override
    protected TargetFactory targetFactory() {
        return new FileSystemTargetFactory();
    }

    @Override
    protected Map<String, String> sinkOptions(Path dir) {
        return Map.of("path", dir.toString(), "format", KitRowsFormat.IDENTIFIER);
    }

    @Override
    protected TestSinkContext.Builder context(Map<String, String> options) {
        return super.context(options)
                .extensions(TestExtensions.of(
                        new KitRowsFormat(),
                        new BasePathBucketAssignerFactory(),
                        new DefaultRollingPolicyFactory(),
                        new OnCheckpointRollingPolicyFactory(),
                        new ConcatFileCompactorFactory()));
    }

    @Override
    protected List<String> committedRows(Path dir, Map<String, String> options) throws IOException {
        List<String> rows = new ArrayList<>();
        if (!Files.exists(dir)) {
            return rows;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : (Iterable<Path>)
                    files.filter(Files::isRegularFile).filter(FileSystemTargetConformanceTest::visible)::iterator) {
                for (String line : Files.readAllLines(f, StandardCharsets.UTF_8)) {
                    rows.add(KitRowsFormat.line(line));
                }
            }
        }
        return rows;
    }

    /** What a reader of the table sees: no file whose name starts with '.' or '_'. */
    private static boolean visible(Path file) {
        String name = file.getFileName().toString();
        return !name.startsWith(".") && !name.startsWith("_");
    }
}

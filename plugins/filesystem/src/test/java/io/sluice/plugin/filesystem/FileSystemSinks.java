package io.sluice.plugin.filesystem;

import io.sluice.partfiles.testing.BulkLinesFormatFactory;
import io.sluice.partfiles.testing.LinesFormatFactory;
import io.sluice.partfiles.testing.PartFileTesting;
import io.sluice.spi.SluiceFactory;
import io.sluice.testkit.TestExtensions;
import io.sluice.testkit.TestSinkContext;

import java.nio.file.Path;

/**
 * The testkit's {@link TestSinkContext} as this plugin's tests use it: rows of one nullable STRING
 * {@code line}, and extensions holding this plugin's own factories plus the part-file test formats
 * {@code lines} and {@code bulk-lines}. The target takes part in compaction, so compaction is
 * offered (off unless a test hands over a compactor with {@code compactsWith}).
 */
final class FileSystemSinks {

    private FileSystemSinks() {}

    /**
     * A sink writing {@code format} under {@code path}; {@code more} factories are added to the
     * extensions, replacing a built-in one of the same type and identifier (a test's own {@code
     * lines} format, to see what it was given).
     */
    static TestSinkContext.Builder of(Path path, String format, SluiceFactory... more) {
        return TestSinkContext.builder(PartFileTesting.LINE)
                .option("path", path.toString())
                .option("format", format)
                .extensions(extensions(more))
                .offersCompaction(true);
    }

    /** This plugin's factories, the test formats, then {@code more}. */
    static TestExtensions extensions(SluiceFactory... more) {
        TestExtensions extensions = TestExtensions.of(
                new FileSystemTargetFactory(),
                new DateTimeBucketAssignerFactory(),
                new BasePathBucketAssignerFactory(),
                new PartitionBucketAssignerFactory(),
                new DefaultRollingPolicyFactory(),
                new OnCheckpointRollingPolicyFactory(),
                new SuccessFileCommitPolicyFactory(),
                new ConcatFileCompactorFactory(),
                new RecordWiseFileCompactorFactory(),
                new LinesFormatFactory(),
                new BulkLinesFormatFactory());
        for (SluiceFactory f : more) {
            extensions.add(f);
        }
        return extensions;
    }
}

package io.sluice.runtime.plugin;

import java.nio.file.Path;
import java.nio.file.spi.FileTypeDetector;

/**
 * A {@link FileTypeDetector} registered on the test classpath (META-INF/services) that no plugin
 * may see through {@link java.util.ServiceLoader}. Detects nothing, so it changes no behaviour.
 */
public final class TestClasspathFileTypeDetector extends FileTypeDetector {

    @Override
    public String probeContentType(Path path) {
        return null;
    }
}

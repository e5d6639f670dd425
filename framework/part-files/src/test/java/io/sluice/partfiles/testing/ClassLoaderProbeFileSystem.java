package io.sluice.partfiles.testing;

import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.FileSystemFactory;
import org.apache.flink.core.fs.local.LocalFileSystem;

import java.net.URI;

/**
 * The local file system under the scheme {@value #SCHEME}, whose factory records the thread's
 * context class loader it was asked to build a file system under, as Flink's Hadoop fallback
 * ({@code hdfs://}) hands it to Hadoop's {@code Configuration}.
 */
public final class ClassLoaderProbeFileSystem extends LocalFileSystem {

    public static final String SCHEME = "classloader-probe";

    private static volatile ClassLoader builtUnder;

    /** The context class loader of the last build, or null. */
    public static ClassLoader builtUnder() {
        return builtUnder;
    }

    @Override
    public URI getUri() {
        return URI.create(SCHEME + ":///");
    }

    /** Registered in {@code META-INF/services}. */
    public static final class Factory implements FileSystemFactory {
        @Override
        public String getScheme() {
            return SCHEME;
        }

        @Override
        public FileSystem create(URI fsUri) {
            builtUnder = Thread.currentThread().getContextClassLoader();
            return new ClassLoaderProbeFileSystem();
        }
    }
}

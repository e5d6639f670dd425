package io.sluice.hadoopbridge.testing;

import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.FileSystemFactory;
import org.apache.flink.core.fs.local.LocalFileSystem;
import org.apache.hadoop.conf.Configuration;

import java.net.URI;
import java.nio.file.Path;

/**
 * A Flink file system for the made-up scheme {@value #SCHEME}: Flink's local file system under
 * another name, so that tests reach it only through Flink, as the plugins reach an object store.
 * {@code bridgetest://bucket/tmp/x} is the local file {@code /tmp/x}; the authority (a bucket) is
 * ignored. Registered with Flink in {@code META-INF/services} of this test-jar.
 */
public final class LocalObjectStore extends LocalFileSystem {

    /** The scheme: in no Hadoop and no Flink file system but this one. */
    public static final String SCHEME = "bridgetest";

    private final URI uri;

    LocalObjectStore(URI uri) {
        this.uri = URI.create(SCHEME + "://" + (uri.getAuthority() == null ? "" : uri.getAuthority()) + "/");
    }

    @Override
    public URI getUri() {
        return uri;
    }

    /** {@code bridgetest://bucket} plus the absolute local path. */
    public static String location(Path local) {
        return SCHEME + "://bucket" + local.toAbsolutePath().toUri().getPath();
    }

    /** {@code conf} with {@value #SCHEME} mapped to the bridge, as the object-store schemes are. */
    public static Configuration mapped(Configuration conf) {
        conf.set("fs." + SCHEME + ".impl", "io.sluice.hadoopbridge.FlinkBackedFileSystem");
        conf.set("fs.AbstractFileSystem." + SCHEME + ".impl", "io.sluice.hadoopbridge.FlinkBackedFs");
        return conf;
    }

    /** The factory Flink finds through {@code META-INF/services}. */
    public static final class Factory implements FileSystemFactory {

        @Override
        public String getScheme() {
            return SCHEME;
        }

        @Override
        public FileSystem create(URI fsUri) {
            return new LocalObjectStore(fsUri);
        }
    }
}

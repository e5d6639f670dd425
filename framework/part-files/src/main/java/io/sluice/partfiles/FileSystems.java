package io.sluice.partfiles;

import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import org.apache.flink.util.TemporaryClassLoaderContext;

import java.io.IOException;

/**
 * Flink's file system of a path, opened under the class loader of Flink's {@code FileSystem}, not
 * the thread's (a plugin's, during every call into it).
 *
 * <p>Flink builds a file system once per scheme and authority, under the thread's context class
 * loader, and keeps it for the life of the JVM. For the schemes Flink serves with the cluster's
 * Hadoop ({@code hdfs://}, its fallback), Hadoop's {@code Configuration} then loads classes by name
 * through that loader: under a plugin that bundles its own Hadoop (hive, iceberg) it finds the
 * plugin's copies, which are not the cluster's ({@code ProtobufRpcEngine2 cannot be cast to class
 * RpcEngine}), and the table's part files cannot be written. The framework opens a file target's
 * {@code path} option before the plugin runs; a location the plugin finds itself (a metastore's
 * table or partition) is opened here. File systems from Flink's plugins (S3, GCS, Azure) set their
 * own class loader and are unaffected.
 */
public final class FileSystems {

    private FileSystems() {}

    /** Flink's file system of {@code path}, opened under Flink's class loader. */
    public static FileSystem of(Path path) throws IOException {
        try (TemporaryClassLoaderContext ignored = TemporaryClassLoaderContext.of(FileSystem.class.getClassLoader())) {
            return path.getFileSystem();
        }
    }
}

package io.sluice.hadoopbridge;

import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import org.apache.flink.util.WrappingProxy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * Aborts the open multipart uploads of files nobody will ever complete, on S3 through Flink's
 * {@code flink-s3-fs-hadoop}: the one place that knows S3's uploads, for every target that writes
 * to S3 through Flink's file systems. A writer that dies leaves the uploads it began open (a part
 * file's after its last checkpoint, FLINK-39786; an Iceberg data file's larger than one part that
 * S3A's output stream was sending): the store keeps and bills their parts. Flink's {@code
 * FileSystem} has no call for them, so this reaches S3A inside Flink's S3 plugin by reflection,
 * through Hadoop's public API only ({@code S3AFileSystem.listMultipartUploads} and {@code
 * MultipartUploader.abort}). On any other file system it does nothing: HDFS and local files stage
 * in-progress files that their writers delete as files.
 */
public final class OpenUploads {

    private static final Logger LOG = LoggerFactory.getLogger(OpenUploads.class);
    private static final long ABORT_TIMEOUT_SECONDS = 60;

    private OpenUploads() {}

    /**
     * Aborts every open upload under {@code base} whose file name {@code abort} accepts.
     *
     * @param fileSystem Flink's file system of {@code base}
     * @return the number aborted, or -1 when the file system of {@code base} is not S3A
     */
    public static int abortUnder(FileSystem fileSystem, Path base, Predicate<String> abort) throws Exception {
        FileSystem fs = unwrapped(fileSystem);
        Object hadoopFs = hadoopFileSystemOf(fs);
        if (hadoopFs == null) {
            LOG.debug("No Hadoop file system inside {} ({}): no multipart uploads to abort", fs, base);
            return -1;
        }
        Method list;
        try {
            list = hadoopFs.getClass().getMethod("listMultipartUploads", String.class);
        } catch (NoSuchMethodException notS3A) {
            LOG.debug("{} lists no multipart uploads ({})", hadoopFs.getClass().getName(), base);
            return -1;
        }
        ClassLoader loader = hadoopFs.getClass().getClassLoader();
        Class<?> hadoopPath = Class.forName("org.apache.hadoop.fs.Path", false, loader);
        String bucketUri = base.toUri().getScheme() + "://" + base.toUri().getAuthority() + "/";
        String prefix = base.toUri().getPath().replaceFirst("^/", "");
        prefix = prefix.isEmpty() || prefix.endsWith("/") ? prefix : prefix + "/";
        List<?> uploads = (List<?>) list.invoke(hadoopFs, prefix);
        Object uploader = null;
        int aborted = 0;
        for (Object upload : uploads) {
            String key = (String) upload.getClass().getMethod("getKey").invoke(upload);
            String uploadId =
                    (String) upload.getClass().getMethod("getUploadId").invoke(upload);
            String fileName = key.substring(key.lastIndexOf('/') + 1);
            if (!abort.test(fileName)) {
                continue;
            }
            if (uploader == null) {
                Object builder = hadoopFs.getClass()
                        .getMethod("createMultipartUploader", hadoopPath)
                        .invoke(
                                hadoopFs,
                                hadoopPath.getConstructor(String.class).newInstance(bucketUri + prefix));
                uploader = Class.forName("org.apache.hadoop.fs.FSBuilder", false, loader)
                        .getMethod("build")
                        .invoke(builder);
            }
            Class<?> handleType = Class.forName("org.apache.hadoop.fs.UploadHandle", false, loader);
            Object handle = Class.forName("org.apache.hadoop.fs.BBUploadHandle", false, loader)
                    .getMethod("from", ByteBuffer.class)
                    .invoke(null, ByteBuffer.wrap(uploadId.getBytes(StandardCharsets.UTF_8)));
            CompletableFuture<?> done =
                    (CompletableFuture<?>) Class.forName("org.apache.hadoop.fs.MultipartUploader", false, loader)
                            .getMethod("abort", handleType, hadoopPath)
                            .invoke(
                                    uploader,
                                    handle,
                                    hadoopPath.getConstructor(String.class).newInstance(bucketUri + key));
            done.get(ABORT_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            LOG.debug("Aborted the multipart upload {} of {}", uploadId, key);
            aborted++;
        }
        if (uploader instanceof AutoCloseable) {
            ((AutoCloseable) uploader).close();
        }
        return aborted;
    }

    /** Past Flink's wrappers (a task's safety net, a plugin's class-loader fix), which hide the S3 file system. */
    @SuppressWarnings("unchecked")
    private static FileSystem unwrapped(FileSystem fs) {
        FileSystem current = fs;
        while (current instanceof WrappingProxy) {
            Object inner = ((WrappingProxy<?>) current).getWrappedDelegate();
            if (!(inner instanceof FileSystem) || inner == current) {
                break;
            }
            current = (FileSystem) inner;
        }
        return current;
    }

    /** The Hadoop file system inside a Flink file system built on Hadoop's ({@code getHadoopFileSystem}), or null. */
    private static Object hadoopFileSystemOf(FileSystem fs) {
        try {
            Method getter = fs.getClass().getMethod("getHadoopFileSystem");
            return getter.invoke(fs);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }
}

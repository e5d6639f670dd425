package io.sluice.plugin.iceberg;

import org.apache.iceberg.aws.s3.S3FileIO;
import org.apache.iceberg.aws.s3.S3FileIOProperties;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.ResolvingFileIO;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ListMultipartUploadsRequest;
import software.amazon.awssdk.services.s3.model.MultipartUpload;
import software.amazon.awssdk.services.s3.model.NoSuchUploadException;

import java.net.URI;
import java.util.function.Predicate;

/**
 * Aborts open multipart uploads under a location through the S3 client of a table's own Iceberg
 * {@code S3FileIO}: its endpoint, credentials (the catalog's {@code s3.*} options, the AWS default
 * chain, or a REST catalog's vended ones) and access points, which Flink's S3 file system of the
 * same bucket, if the cluster has one at all, does not share. {@code S3FileIO} sends a data file
 * larger than its threshold ({@code s3.multipart.part-size-bytes} times {@code
 * s3.multipart.threshold}) in parts, so a writer that dies while sending one leaves an upload
 * open that no listing of files shows.
 *
 * <p>A table whose file IO is {@code ResolvingFileIO} is served the same way when that resolves
 * the location to {@code S3FileIO}: through an {@code S3FileIO} made from the same properties and
 * storage credentials, closed afterwards (the resolving file IO does not hand out its delegates).
 */
final class S3FileIOUploads {

    private static final Logger LOG = LoggerFactory.getLogger(S3FileIOUploads.class);

    private S3FileIOUploads() {}

    /** Whether {@code io} reaches {@code location} through Iceberg's {@code S3FileIO}. */
    static boolean reaches(FileIO io, String location) {
        if (io instanceof S3FileIO) {
            return true;
        }
        return io instanceof ResolvingFileIO
                && S3FileIO.class.isAssignableFrom(((ResolvingFileIO) io).ioClass(location));
    }

    /**
     * Aborts every open upload whose key is under {@code location} (a directory) and whose file
     * name {@code abort} accepts.
     *
     * @param io a file IO {@link #reaches} the location through
     * @return the number aborted
     * @throws RuntimeException when the store cannot be listed or an upload not aborted
     */
    static int abortUnder(FileIO io, String location, Predicate<String> abort) {
        if (io instanceof S3FileIO) {
            return abortUnder((S3FileIO) io, location, abort);
        }
        ResolvingFileIO resolving = (ResolvingFileIO) io;
        try (S3FileIO s3 = new S3FileIO()) {
            s3.initialize(resolving.properties());
            s3.setCredentials(resolving.credentials());
            return abortUnder(s3, location, abort);
        }
    }

    private static int abortUnder(S3FileIO io, String location, Predicate<String> abort) {
        URI uri = URI.create(location);
        String bucket = uri.getAuthority();
        if (bucket == null || bucket.isEmpty()) {
            throw new IllegalArgumentException("No bucket in S3 location '" + location + "'");
        }
        // S3FileIO sends the requests on a bucket with an access point to the access point
        String target = io.properties().getOrDefault(S3FileIOProperties.ACCESS_POINTS_PREFIX + bucket, bucket);
        String path = uri.getPath() == null ? "" : uri.getPath().replaceFirst("^/+", "");
        // the directory's own keys only: ".../data/" never lists ".../data-old/..."
        String prefix = path.isEmpty() || path.endsWith("/") ? path : path + "/";
        S3Client client = io.client(location);
        int aborted = 0;
        for (MultipartUpload upload : client.listMultipartUploadsPaginator(ListMultipartUploadsRequest.builder()
                        .bucket(target)
                        .prefix(prefix)
                        .build())
                .uploads()) {
            String key = upload.key();
            if (!key.startsWith(prefix) || !abort.test(key.substring(key.lastIndexOf('/') + 1))) {
                continue;
            }
            try {
                client.abortMultipartUpload(b -> b.bucket(target).key(key).uploadId(upload.uploadId()));
                aborted++;
                LOG.debug("Aborted the multipart upload {} of s3://{}/{}", upload.uploadId(), bucket, key);
            } catch (NoSuchUploadException gone) {
                // completed or aborted between the listing and now: nothing left to abort
                LOG.debug("The multipart upload {} of s3://{}/{} is gone already", upload.uploadId(), bucket, key);
            }
        }
        return aborted;
    }
}

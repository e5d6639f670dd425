package io.sluice.hadoopbridge;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.DelegateToFileSystem;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;

/**
 * The bridge for Hadoop's {@code FileContext} ({@code fs.AbstractFileSystem.<scheme>.impl}): a
 * {@link FlinkBackedFileSystem} behind Hadoop's adapter, so that code using {@code FileContext}
 * reaches the same object stores as code using {@code FileSystem}.
 */
public final class FlinkBackedFs extends DelegateToFileSystem {

    /** The constructor Hadoop's {@code AbstractFileSystem.createFileSystem} calls. */
    public FlinkBackedFs(URI uri, Configuration conf) throws IOException, URISyntaxException {
        super(uri, new FlinkBackedFileSystem(), conf, uri.getScheme(), false);
    }
}

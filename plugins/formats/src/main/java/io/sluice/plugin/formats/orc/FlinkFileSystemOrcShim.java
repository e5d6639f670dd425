package io.sluice.plugin.formats.orc;

import org.apache.flink.orc.shim.OrcShimV230;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.orc.OrcFile;
import org.apache.orc.Reader;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;

/**
 * Flink's ORC shim, opening files through Flink's file systems ({@link
 * FlinkBackedHadoopFileSystem}) instead of Hadoop's: ORC files then read from every file system
 * Flink knows, the same as every other format, and Hadoop's file system cache never starts in the
 * plugin.
 */
final class FlinkFileSystemOrcShim extends OrcShimV230 {

    private static final long serialVersionUID = 1L;

    @Override
    protected Reader createReader(Path path, Configuration conf) throws IOException {
        FlinkBackedHadoopFileSystem fs = new FlinkBackedHadoopFileSystem(rootOf(path.toUri()), conf);
        return OrcFile.createReader(path, OrcFile.readerOptions(conf).filesystem(fs));
    }

    static URI rootOf(URI file) throws IOException {
        try {
            return new URI(file.getScheme(), file.getAuthority(), "/", null, null);
        } catch (URISyntaxException e) {
            throw new IOException("Not a file system URI: " + file, e);
        }
    }
}

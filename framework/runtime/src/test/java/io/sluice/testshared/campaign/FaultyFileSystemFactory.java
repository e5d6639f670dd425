package io.sluice.testshared.campaign;

import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.FileSystemFactory;
import org.apache.flink.core.fs.local.LocalFileSystem;

import java.net.URI;

/** Registers {@link FaultyFileSystem} as Flink's file system of scheme {@code faulty} (ServiceLoader). */
public final class FaultyFileSystemFactory implements FileSystemFactory {

    @Override
    public String getScheme() {
        return FaultyFileSystem.SCHEME;
    }

    @Override
    public FileSystem create(URI fsUri) {
        return new FaultyFileSystem(LocalFileSystem.getSharedInstance());
    }
}

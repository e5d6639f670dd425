package com.example.sluice.manifest;

import io.sluice.spi.source.FileEnumeratorFactory;
import io.sluice.spi.source.SourceContext;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.connector.file.src.enumerate.FileEnumerator;
import org.pf4j.Extension;

import java.util.Collections;
import java.util.Set;

/**
 * {@code manifest}: reads only the files that a manifest in each source path lists, one relative
 * file name per line ({@code source.manifest.name}, default {@code _MANIFEST}). Files that are in
 * the directory but not in the manifest are never read; a listed file that is missing is an error
 * naming it.
 */
@Extension
public final class ManifestEnumeratorFactory implements FileEnumeratorFactory {

    /** The manifest's file name in each source path. */
    public static final ConfigOption<String> MANIFEST_NAME =
            ConfigOptions.key("source.manifest.name").stringType().defaultValue("_MANIFEST")
                    .withDescription("Name of the manifest file in each source path.");

    @Override
    public String identifier() {
        return "manifest";
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        return Collections.singleton(MANIFEST_NAME);
    }

    @Override
    public FileEnumerator create(SourceContext context) {
        String name = context.options().get(MANIFEST_NAME);
        if (name.isEmpty() || name.contains("/")) {
            throw new IllegalArgumentException("Invalid '" + MANIFEST_NAME.key() + "' '" + name + "': a plain file name");
        }
        return new ManifestEnumerator(name);
    }
}

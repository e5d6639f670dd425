package com.example.sluice.manifest;

import io.sluice.spi.source.FileEnumeratorFactory;
import io.sluice.testkit.FileEnumeratorConformance;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The {@code manifest} enumerator against Sluice's conformance kit. Its {@link #prepare} publishes
 * every other file the kit wrote in a manifest, so the kit also checks that files in the directory
 * but not in the manifest are never read; the manifest grows by appending, as a producer would
 * publish new files.
 */
class ManifestEnumeratorConformanceTest extends FileEnumeratorConformance {

    /** Not the default name: the option must reach the enumerator. */
    private static final String MANIFEST = "_FILES";

    @Override
    protected FileEnumeratorFactory enumeratorFactory() {
        return new ManifestEnumeratorFactory();
    }

    @Override
    protected Map<String, String> options() {
        return Collections.singletonMap(ManifestEnumeratorFactory.MANIFEST_NAME.key(), MANIFEST);
    }

    @Override
    protected Map<String, String> invalidOptions() {
        // the manifest must be a file name in the source path itself
        return Collections.singletonMap(ManifestEnumeratorFactory.MANIFEST_NAME.key(), "sub/_FILES");
    }

    @Override
    protected Set<String> prepare(Path dir, Set<String> written) throws IOException {
        Set<String> published = new LinkedHashSet<>();
        int i = 0;
        for (String file : written) {
            if (i++ % 2 == 0) {
                published.add(file);
            }
        }
        List<String> lines = new ArrayList<>();
        lines.add("# published files, one per line");
        lines.addAll(published);
        Files.write(dir.resolve(MANIFEST), lines, StandardCharsets.UTF_8,
                StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        return published;
    }
}

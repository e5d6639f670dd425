package io.sluice.plugin.formats;

import io.sluice.plugin.formats.avro.AvroFormatFactory;
import io.sluice.plugin.formats.csv.CsvFormatFactory;
import io.sluice.plugin.formats.json.JsonFormatFactory;
import io.sluice.plugin.formats.orc.OrcFormatFactory;
import io.sluice.plugin.formats.parquet.ParquetFormatFactory;
import io.sluice.plugin.formats.sequencefile.SequenceFileFormatFactory;
import io.sluice.plugin.formats.text.TextFormatFactory;
import io.sluice.spi.format.FormatFactory;

import org.junit.jupiter.api.Test;
import org.pf4j.Extension;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The framework finds the formats only through PF4J's extension index, never by scanning. */
class ExtensionIndexTest {

    @Test
    void indexesEveryFormatFactory() throws Exception {
        List<String> indexed = indexedClassNames();

        assertThat(indexed)
                .containsExactlyInAnyOrder(
                        TextFormatFactory.class.getName(),
                        CsvFormatFactory.class.getName(),
                        JsonFormatFactory.class.getName(),
                        ParquetFormatFactory.class.getName(),
                        AvroFormatFactory.class.getName(),
                        OrcFormatFactory.class.getName(),
                        SequenceFileFormatFactory.class.getName());

        List<String> identifiers = new ArrayList<>();
        for (String name : indexed) {
            Class<?> type = Class.forName(name);
            assertThat(type.isAnnotationPresent(Extension.class)).as(name).isTrue();
            assertThat(FormatFactory.class).isAssignableFrom(type);
            identifiers.add(((FormatFactory) type.getDeclaredConstructor().newInstance()).identifier());
        }
        assertThat(identifiers)
                .containsExactlyInAnyOrder("text", "csv", "json", "parquet", "avro", "orc", "sequence-file");
    }

    private static List<String> indexedClassNames() throws Exception {
        // test-classes holds an index of its own (empty: no test class is an extension) that
        // comes first on the class path: read every index, as PF4J does
        List<String> names = new ArrayList<>();
        Enumeration<URL> indexes = ExtensionIndexTest.class.getClassLoader().getResources("META-INF/extensions.idx");
        for (URL index : Collections.list(indexes)) {
            try (InputStream in = index.openStream();
                    BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                reader.lines()
                        .map(String::trim)
                        .filter(line -> !line.isEmpty() && !line.startsWith("#"))
                        .forEach(names::add);
            }
        }
        return names;
    }
}

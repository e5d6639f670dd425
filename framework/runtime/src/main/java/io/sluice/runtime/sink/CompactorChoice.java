package io.sluice.runtime.sink;

import io.sluice.runtime.config.SluiceOptions;
import io.sluice.spi.ExtensionLookup;
import io.sluice.spi.compact.CompactorContext;
import io.sluice.spi.compact.FileCompactorFactory;
import io.sluice.spi.format.FormatFactory;

import org.apache.flink.configuration.ReadableConfig;

import java.util.Map;

/**
 * Which {@link FileCompactorFactory} a sink uses: the one {@code compaction.compactor} names, else
 * {@code concat} for row formats (their files concatenate byte by byte) and {@code record-wise} for
 * bulk formats (theirs do not).
 */
final class CompactorChoice {

    static final String CONCAT = "concat";
    static final String RECORD_WISE = "record-wise";

    private CompactorChoice() {}

    static FileCompactorFactory factory(ReadableConfig options, Map<String, String> raw, ExtensionLookup extensions) {
        CompactorContext context = context(options, raw, extensions);
        String name = options.getOptional(SluiceOptions.COMPACTION_COMPACTOR)
                .orElse(context.bulkFormat() ? RECORD_WISE : CONCAT);
        return Extensions.byNameOrClass(extensions, FileCompactorFactory.class, name,
                SluiceOptions.COMPACTION_COMPACTOR.key());
    }

    static CompactorContext context(ReadableConfig options, Map<String, String> raw, ExtensionLookup extensions) {
        String format = raw.get("format");
        FormatFactory factory = format == null || !extensions.identifiers(FormatFactory.class).contains(format)
                ? null : extensions.find(FormatFactory.class, format);
        boolean bulk = factory != null && factory.isBulk();
        boolean readable = factory != null && factory.readerKind() != FormatFactory.ReaderKind.NONE;
        return new CompactorContext() {
            @Override
            public String format() {
                return format == null ? "" : format;
            }

            @Override
            public boolean bulkFormat() {
                return bulk;
            }

            @Override
            public boolean readableFormat() {
                return readable;
            }

            @Override
            public ReadableConfig options() {
                return options;
            }

            @Override
            public ExtensionLookup extensions() {
                return extensions;
            }
        };
    }
}

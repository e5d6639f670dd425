package io.sluice.runtime.sink.compaction;

import io.sluice.runtime.config.SluiceOptions;
import io.sluice.runtime.plugin.Extensions;
import io.sluice.spi.ExtensionLookup;
import io.sluice.spi.compact.CompactorContext;
import io.sluice.spi.compact.FileCompactorFactory;
import io.sluice.spi.format.BulkReadingFormat;
import io.sluice.spi.format.BulkWritingFormat;
import io.sluice.spi.format.Formats;
import io.sluice.spi.format.StreamReadingFormat;

import org.apache.flink.configuration.ReadableConfig;

/**
 * Which {@link FileCompactorFactory} a sink uses: the one {@code compaction.compactor} names, else
 * {@code concat} for row formats (their files concatenate byte by byte) and {@code record-wise} for
 * bulk formats (theirs do not). The format is the target's ({@code CompactionSupport.fileFormat}: the
 * {@code format} option, or e.g. a Hive table's storage format).
 */
public final class CompactorChoice {

    static final String CONCAT = "concat";
    static final String RECORD_WISE = "record-wise";

    private CompactorChoice() {}

    /**
     * @param format the format of the target's files ({@code CompactionSupport.fileFormat}), null if it
     *     names none
     */
    public static FileCompactorFactory factory(ReadableConfig options, String format, ExtensionLookup extensions) {
        CompactorContext context = context(options, format, extensions);
        String name = options.getOptional(SluiceOptions.COMPACTION_COMPACTOR)
                .orElse(context.bulkFormat() ? RECORD_WISE : CONCAT);
        return Extensions.byNameOrClass(
                extensions, FileCompactorFactory.class, name, SluiceOptions.COMPACTION_COMPACTOR.key());
    }

    public static CompactorContext context(ReadableConfig options, String format, ExtensionLookup extensions) {
        boolean bulk = format != null && Formats.offers(extensions, BulkWritingFormat.class, format);
        boolean readable = format != null
                && (Formats.offers(extensions, StreamReadingFormat.class, format)
                        || Formats.offers(extensions, BulkReadingFormat.class, format));
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

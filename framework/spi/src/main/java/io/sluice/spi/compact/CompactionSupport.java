package io.sluice.spi.compact;

import io.sluice.spi.Experimental;
import io.sluice.spi.sink.SinkContext;
import io.sluice.spi.sink.TargetFactory;

import java.util.Optional;

/**
 * A target whose files the framework's file compaction ({@code auto-compaction}, {@code
 * compaction.*}) applies to. Offered through {@link TargetFactory#compaction()}; for a target
 * without it (a table format that owns its file layout, such as Iceberg) those options are
 * rejected instead of being silently ignored. The sink's parts then find the sink's compaction in
 * {@link SinkContext#compaction()}.
 *
 * @since 3.0.0 ({@code TargetFactory.supportsCompaction} and {@code fileFormat} before)
 */
public interface CompactionSupport {

    /**
     * The format of the files the target writes, which picks the framework's default compactor
     * ({@code concat} for a row format, {@code record-wise} for a bulk one) and checks the one
     * {@code compaction.compactor} names. By default the sink's {@code format} option; a target
     * whose format is the table's (a Hive table's storage descriptor) says which. Asked on the
     * client and on the committer, only with compaction.
     */
    @Experimental
    default Optional<String> fileFormat(SinkContext context) {
        return Optional.ofNullable(context.rawOptions().get("format"));
    }
}

package io.sluice.spi.dynamic;

import io.sluice.spi.Experimental;
import io.sluice.spi.sink.SinkContext;
import io.sluice.spi.sink.TargetFactory;
import io.sluice.spi.sink.WriterLineage;

import java.io.IOException;

/**
 * A target that a dynamic sink can write: many tables, created and evolved as the records name
 * them. Offered through {@link TargetFactory#dynamicTables()}; a target without it writes only the
 * one table its options name.
 *
 * @since 3.0.0 ({@code TargetFactory.dynamicTables} and {@code supportsWriterOpenings} before)
 */
@Experimental
public interface DynamicTableSupport {

    /**
     * The tables of a dynamic sink. Opened on the client to check the sink, where the sink routes
     * records, and where it commits; the caller closes it.
     */
    DynamicTables open(SinkContext context) throws IOException;

    /**
     * Whether the target's writers keep writers of one {@link WriterLineage#writerId() writer id}
     * apart by their {@link WriterLineage#opening() opening} and honour {@link
     * WriterLineage#laterOpenings()} and {@link WriterLineage#reopened()}: a dynamic sink then
     * hands every table writer it opens a lineage (one id per table and attempt), so leftovers of
     * table writers opened after the last checkpoint are found after a failure. Without it a dynamic
     * sink's table writers have no lineage (a writer id must never repeat) and choose their own ids.
     * By default no.
     */
    default boolean supportsWriterOpenings() {
        return false;
    }
}

package io.sluice.spi.source;

import io.sluice.spi.Payload;

import javax.annotation.Nullable;

import java.io.Closeable;
import java.io.IOException;

/**
 * Plans the splits of a scan source on the JobManager. Called from one thread at a time.
 *
 * <p>A position is the planner's own record of what it has planned so far (for Iceberg: the last
 * snapshot enumerated). The framework keeps the position of the last plan it accepted in its
 * checkpoint together with the splits that plan produced, and passes it back on the next call, so
 * a planner keeps no state of its own that a restore would have to recover.
 */
@io.sluice.spi.Experimental
public interface ScanPlanner extends Closeable {

    /**
     * Plans what has appeared after {@code position}.
     *
     * @param position the position of the previous plan, or {@code null} for the first plan of a
     *     read, which starts where the options say (a starting strategy, a snapshot)
     * @return the new splits and the position after them; no splits and an equal position when
     *     nothing is new. The plan must depend on the position only: after a restore the framework
     *     plans again from a checkpointed position and must get the same splits
     * @throws IOException if the table cannot be read; the message names the table
     */
    ScanPlan plan(@Nullable Payload position) throws IOException;
}

package io.sluice.spi.sink;

import io.sluice.spi.Experimental;

import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Set;

/**
 * Who a writer is, and which writers before it may have left files that no state names.
 *
 * <p>A writer names what it writes after its id (part files, data files, upload keys). A writer
 * that dies after a checkpoint is known to its successor through the restored state; one that dies
 * before its first checkpoint is in no state, so without this its successor could not tell its
 * files and open uploads from another live writer's. The framework therefore makes a writer's id
 * from what its successors know too (the job, the sink, the subtask, the checkpoint the writer
 * began from, the attempt number), and hands each writer the ids of the earlier attempts of its
 * subtask that began from the same checkpoint (or, for a fresh start, from none): their
 * uncommitted files are leftovers the new writer may delete and their open uploads it may abort.
 * Files those writers committed are not leftovers: a commit needs a completed checkpoint, and a
 * successor of that checkpoint has another lineage.
 *
 * <p>Best effort, by design: a writer of an earlier JobManager session (attempt numbers begin at 0
 * again after a JobManager failover) may have used this writer's own id, so a writer treats
 * uncommitted files under its own id as leftovers as well, before it writes; writers of another
 * job, or of a rescaled subtask, are not in the lineage.
 *
 * @since 2.8.0
 */
@Experimental
public final class WriterLineage {

    private final String writerId;
    private final Set<String> predecessorIds;

    private WriterLineage(String writerId, Set<String> predecessorIds) {
        this.writerId = writerId;
        this.predecessorIds = predecessorIds;
    }

    /**
     * @param writerId this writer's id
     * @param predecessorIds the ids of earlier writers whose uncommitted files are leftovers; must
     *     not hold {@code writerId}
     */
    public static WriterLineage of(String writerId, Collection<String> predecessorIds) {
        Objects.requireNonNull(writerId, "writerId");
        Set<String> ids = new LinkedHashSet<>(predecessorIds);
        if (ids.contains(writerId)) {
            throw new IllegalArgumentException("writer " + writerId + " is listed as its own predecessor");
        }
        return new WriterLineage(writerId, Collections.unmodifiableSet(ids));
    }

    /** This writer's id: no other writer of any sink, job or attempt has it. */
    public String writerId() {
        return writerId;
    }

    /**
     * The ids of the earlier attempts of this writer's subtask that began from the same checkpoint
     * as this one, oldest first; empty for a first attempt.
     */
    public Set<String> predecessorIds() {
        return predecessorIds;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof WriterLineage)) {
            return false;
        }
        WriterLineage that = (WriterLineage) o;
        return writerId.equals(that.writerId) && predecessorIds.equals(that.predecessorIds);
    }

    @Override
    public int hashCode() {
        return Objects.hash(writerId, predecessorIds);
    }

    @Override
    public String toString() {
        return "WriterLineage{" + writerId + ", " + predecessorIds.size() + " predecessor(s)}";
    }
}

package io.sluice.spi.sink;

import io.sluice.spi.Experimental;

import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
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
    private final Map<String, Integer> laterOpenings;
    private final int opening;
    private final boolean reopened;

    private WriterLineage(
            String writerId,
            Set<String> predecessorIds,
            Map<String, Integer> laterOpenings,
            int opening,
            boolean reopened) {
        this.writerId = writerId;
        this.predecessorIds = predecessorIds;
        this.laterOpenings = laterOpenings;
        this.opening = opening;
        this.reopened = reopened;
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
        return new WriterLineage(writerId, Collections.unmodifiableSet(ids), Map.of(), 0, false);
    }

    /**
     * The lineage of one of several writers that an operator opens one after the other in the same
     * attempt (a dynamic sink's table writers, for targets whose factory {@link
     * io.sluice.spi.dynamic.DynamicTableSupport#supportsWriterOpenings() supports openings}): writers of one table share its
     * writer id, and {@code opening} (counted over all the operator's writers of the attempt) keeps
     * their files apart.
     *
     * @param writerId this writer's id
     * @param predecessorIds earlier writers all of whose uncommitted files are leftovers
     * @param laterOpenings earlier writers of which only the writers opened from the given opening
     *     on left leftovers: those opened before are named by the restored state, or handed their
     *     files to a commit
     * @param opening this writer's opening number, from 0
     * @param reopened whether a writer of the same id was opened before in this attempt: its files
     *     are not leftovers then, so this writer does not clean up under its own id
     *
     * @since 2.9.0
     */
    public static WriterLineage ofOpening(
            String writerId,
            Collection<String> predecessorIds,
            Map<String, Integer> laterOpenings,
            int opening,
            boolean reopened) {
        WriterLineage base = of(writerId, predecessorIds);
        if (opening < 0) {
            throw new IllegalArgumentException("opening " + opening + " is negative");
        }
        if (laterOpenings.containsKey(writerId)) {
            throw new IllegalArgumentException("writer " + writerId + " is listed as its own predecessor");
        }
        return new WriterLineage(
                writerId,
                base.predecessorIds,
                Collections.unmodifiableMap(new LinkedHashMap<>(laterOpenings)),
                opening,
                reopened);
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

    /**
     * Earlier writers of which only those opened from the given opening number on left leftovers
     * (all their files then); for a target that {@link io.sluice.spi.dynamic.DynamicTableSupport#supportsWriterOpenings()
     * supports openings} only, empty otherwise.
     *
     * @since 2.9.0
     */
    public Map<String, Integer> laterOpenings() {
        return laterOpenings;
    }

    /**
     * This writer's opening number among the writers its operator opened in this attempt: 0 for a
     * single-table sink's writer. A target that supports openings names files after the writer id
     * and the opening, so that the writers of one id never name two files alike.
     *
     * @since 2.9.0
     */
    public int opening() {
        return opening;
    }

    /**
     * Whether a writer of this id was opened before in this attempt (and its files may be pending
     * a commit): such a writer does not treat files under its own id as leftovers.
     *
     * @since 2.9.0
     */
    public boolean reopened() {
        return reopened;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof WriterLineage)) {
            return false;
        }
        WriterLineage that = (WriterLineage) o;
        return writerId.equals(that.writerId)
                && predecessorIds.equals(that.predecessorIds)
                && laterOpenings.equals(that.laterOpenings)
                && opening == that.opening
                && reopened == that.reopened;
    }

    @Override
    public int hashCode() {
        return Objects.hash(writerId, predecessorIds, laterOpenings, opening, reopened);
    }

    @Override
    public String toString() {
        return "WriterLineage{" + writerId + ", " + predecessorIds.size() + " predecessor(s), "
                + laterOpenings.size() + " with later openings, opening " + opening + (reopened ? ", reopened" : "")
                + "}";
    }
}

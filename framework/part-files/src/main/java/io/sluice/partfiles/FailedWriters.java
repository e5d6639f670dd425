package io.sluice.partfiles;

import io.sluice.spi.sink.WriterLineage;

import javax.annotation.Nullable;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/**
 * The writers whose in-progress part files a restored writer treats as leftovers, and from which
 * part on: writers named exactly (by a restored state: its uid and the part counter at its
 * checkpoint), and lineages (a {@link WriterLineage} id, every part of its writers opened from a
 * given opening on).
 *
 * <p>A dynamic sink opens a table's writers one after the other within an attempt, all of one
 * lineage id, and a writer opened after the last checkpoint is in no state. So a writer's uid (36
 * characters in every part file's name, {@link PartFileNames#UID_LENGTH}) carries its opening: the
 * lineage id itself for opening 0 (a single-table sink's writer, named as before), else the id with
 * its last group (48 bits) xor-ed with the opening. The first 24 characters then tell the lineage
 * (80 bits of a name-based UUID, so two lineages never share them) and the last 12 the opening.
 * An id that is not a UUID gets no openings: its writers of opening 1 and up get a name-based UUID
 * of id and opening, and only its opening 0 is matched.
 */
final class FailedWriters {

    /** Where a UUID's last group begins: {@code xxxxxxxx-xxxx-xxxx-xxxx-}. */
    private static final int LAST_GROUP = 24;

    private static final long LAST_GROUP_MASK = (1L << 48) - 1;

    /** Exact writer uids to the first part counter of theirs that is a leftover. */
    private final Map<String, Long> fromCounter = new LinkedHashMap<>();

    /**
     * Lineage ids (UUIDs) to the first opening of theirs whose parts are all leftovers, by the first
     * {@link #LAST_GROUP} characters they share with their writers' uids: a restored writer may
     * look back at a thousand attempts ({@code WriterLineages}), and every name in the table is
     * matched.
     */
    private final Map<String, Map<String, Long>> fromOpening = new LinkedHashMap<>();

    /** The uid that names the part files of the writer of {@code lineage}. */
    static String uid(WriterLineage lineage) {
        return uid(lineage.writerId(), lineage.opening());
    }

    static String uid(String lineageId, int opening) {
        if (opening == 0) {
            return lineageId;
        }
        if (!isUuid(lineageId)) {
            return UUID.nameUUIDFromBytes((lineageId + "\n" + opening).getBytes(StandardCharsets.UTF_8))
                    .toString();
        }
        long tail = Long.parseLong(lineageId.substring(LAST_GROUP), 16) ^ opening;
        return lineageId.substring(0, LAST_GROUP) + String.format(java.util.Locale.ROOT, "%012x", tail);
    }

    /** The parts of writer {@code uid} from part counter {@code counter} on; a later call replaces it. */
    FailedWriters writer(String uid, long counter) {
        fromCounter.put(uid, counter);
        return this;
    }

    /** The parts of writer {@code uid} from part counter {@code counter} on, unless it is named already. */
    FailedWriters writerIfAbsent(String uid, long counter) {
        fromCounter.putIfAbsent(uid, counter);
        return this;
    }

    /** Every part of the writers of {@code lineageId} opened from {@code opening} on (the lowest wins). */
    FailedWriters openings(String lineageId, int opening) {
        if (!isUuid(lineageId)) {
            // only its opening 0 is named after it (uid)
            if (opening == 0) {
                fromCounter.put(lineageId, 0L);
            }
            return this;
        }
        fromOpening
                .computeIfAbsent(lineageId.substring(0, LAST_GROUP), k -> new LinkedHashMap<>())
                .merge(lineageId, (long) opening, Math::min);
        return this;
    }

    boolean isEmpty() {
        return fromCounter.isEmpty() && fromOpening.isEmpty();
    }

    /** The same writers, every part of theirs: for objects that belong to a part, not the part. */
    FailedWriters anyPart() {
        FailedWriters any = new FailedWriters();
        fromCounter.keySet().forEach(uid -> any.fromCounter.put(uid, 0L));
        fromOpening.forEach((prefix, lineages) -> any.fromOpening.put(prefix, new LinkedHashMap<>(lineages)));
        return any;
    }

    /**
     * The first part counter of writer {@code uid} that is a leftover, or null if no part of its
     * is: its restored state's counter if it has one, else 0 if its lineage's opening counts.
     */
    @Nullable
    Long firstCounter(String uid) {
        Long exact = fromCounter.get(uid);
        if (exact != null) {
            return exact;
        }
        Map<String, Long> lineages = uid.length() < LAST_GROUP ? null : fromOpening.get(uid.substring(0, LAST_GROUP));
        if (lineages != null) {
            for (Map.Entry<String, Long> lineage : lineages.entrySet()) {
                if (opening(uid, lineage.getKey()) >= lineage.getValue()) {
                    return 0L;
                }
            }
        }
        return null;
    }

    /** The opening of writer {@code uid} in lineage {@code lineageId}, or -1 if it is not of that lineage. */
    static long opening(String uid, String lineageId) {
        if (uid.equals(lineageId)) {
            return 0;
        }
        if (!isUuid(lineageId) || !isUuid(uid) || !uid.regionMatches(0, lineageId, 0, LAST_GROUP)) {
            return -1;
        }
        return (Long.parseLong(uid.substring(LAST_GROUP), 16) ^ Long.parseLong(lineageId.substring(LAST_GROUP), 16))
                & LAST_GROUP_MASK;
    }

    /** Whether {@code id} ends in a UUID's last group, 12 hex digits after a dash at 23, in 36 characters. */
    private static boolean isUuid(String id) {
        if (id.length() != PartFileNames.UID_LENGTH || id.charAt(LAST_GROUP - 1) != '-') {
            return false;
        }
        for (int i = LAST_GROUP; i < id.length(); i++) {
            if (Character.digit(id.charAt(i), 16) < 0) {
                return false;
            }
        }
        return true;
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder();
        s.append(fromCounter.keySet());
        if (!fromOpening.isEmpty()) {
            s.append(" and the writers of lineages ");
            s.append(fromOpening.values().stream()
                    .flatMap(l -> l.keySet().stream())
                    .collect(java.util.stream.Collectors.toList()));
        }
        return s.toString();
    }
}

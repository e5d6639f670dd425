package io.sluice.runtime.sink;

import io.sluice.spi.sink.WriterLineage;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.UUID;

/**
 * Makes a writer's {@link WriterLineage}: its id is a name-based UUID of the sink, the job, the
 * checkpoint the writer began from (or none), its subtask and its attempt number, so the next
 * attempt of the subtask can compute the ids of all attempts before it that began from the same
 * checkpoint. A UUID keeps the length of the random ids writers had before (part file names
 * budget 36 characters for it).
 */
public final class WriterLineages {

    /**
     * How many earlier attempts a writer looks back at: each attempt cleans up after those before
     * it, so only a run of attempts that all died before their cleanup ended leaves more behind; a
     * job that restarts that often has other troubles, and the lookup stays cheap.
     */
    static final int MAX_PREDECESSORS = 1_000;

    private WriterLineages() {}

    /**
     * @param sinkId an id of the sink instance in the job graph, the same on every task and
     *     attempt
     * @param jobId the job's id
     * @param restoredCheckpoint the checkpoint the writer's state comes from; empty for a fresh start
     * @param subtask the writer's subtask index
     * @param attempt the subtask's attempt number (0 for the first)
     */
    public static WriterLineage of(
            String sinkId, String jobId, OptionalLong restoredCheckpoint, int subtask, int attempt) {
        String origin = restoredCheckpoint.isPresent() ? "checkpoint " + restoredCheckpoint.getAsLong() : "fresh";
        List<String> predecessors = new ArrayList<>();
        for (int earlier = Math.max(0, attempt - MAX_PREDECESSORS); earlier < attempt; earlier++) {
            predecessors.add(id(sinkId, jobId, origin, subtask, earlier));
        }
        return WriterLineage.of(id(sinkId, jobId, origin, subtask, attempt), predecessors);
    }

    private static String id(String sinkId, String jobId, String origin, int subtask, int attempt) {
        String name = "sluice writer\n" + sinkId + "\n" + jobId + "\n" + origin + "\n" + subtask + "\n" + attempt;
        return UUID.nameUUIDFromBytes(name.getBytes(StandardCharsets.UTF_8)).toString();
    }
}

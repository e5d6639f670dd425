package io.sluice.runtime.sink.compaction;

import io.sluice.runtime.config.SluiceOptions;
import io.sluice.runtime.state.Committable;
import io.sluice.runtime.state.CommittableSerializer;
import io.sluice.runtime.state.Envelope;
import io.sluice.spi.FileOptions;

import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.core.io.SimpleVersionedSerialization;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The compaction strategy: keeps the files written for compaction per bucket until they are due,
 * then groups them into units of about the target size. Once a bucket's files add up to the target
 * size, its full units are due (the rest waits to be filled up); every waiting file is due when
 * the configured number of checkpoints has passed since the last compaction, and at the end of
 * input. With compaction switched off (after a restore from a job
 * that had it on), every waiting file is due at once: files written under hidden names must still
 * be published.
 *
 * <p>In a job without checkpoints (BATCH) every file arrives at the end of input, and {@link
 * #onEndOfBatch()} plans them by upstream's small-files rule ({@code
 * compaction.small-files.avg-size}, as Flink's batch compaction of the filesystem and Hive sinks):
 * a bucket whose files are on average smaller than the threshold is compacted into units of about
 * the target size; a bucket whose average is at or above it is published as it is, one unit per
 * file, which the committer publishes by a rename without reading it (unless the compactor must see
 * every unit). Checked per bucket, so one bucket of small files is compacted while its large
 * neighbours are not rewritten.
 *
 * <p>Part of the aggregator's state; not thread-safe.
 */
public final class CompactionPlanner {

    static final MemorySize DEFAULT_FILE_SIZE = MemorySize.parse("128mb");
    static final MemorySize DEFAULT_SMALL_FILES_AVG_SIZE = SluiceOptions.COMPACTION_SMALL_FILES_AVG_SIZE.defaultValue();
    private static final String ROLLING_FILE_SIZE = FileOptions.ROLLING_FILE_SIZE.key();

    private final boolean enabled;
    private final long targetSize;
    private final int everyCheckpoints;
    private final long smallFilesAvgSize;
    /** bucket -> files waiting, in the order they arrived. */
    private final LinkedHashMap<String, List<Committable.Entry>> waiting = new LinkedHashMap<>();

    private int checkpointsSinceCompaction;

    public CompactionPlanner(boolean enabled, long targetSize, int everyCheckpoints) {
        this(enabled, targetSize, everyCheckpoints, DEFAULT_SMALL_FILES_AVG_SIZE.getBytes());
    }

    /**
     * @param smallFilesAvgSize in {@link #onEndOfBatch()}: a bucket's files are compacted only if
     *     their average size is below it
     */
    public CompactionPlanner(boolean enabled, long targetSize, int everyCheckpoints, long smallFilesAvgSize) {
        if (smallFilesAvgSize < 0) {
            throw new IllegalArgumentException("Invalid '" + SluiceOptions.COMPACTION_SMALL_FILES_AVG_SIZE.key() + "' "
                    + smallFilesAvgSize + ": must not be negative");
        }
        this.smallFilesAvgSize = smallFilesAvgSize;
        if (targetSize <= 0) {
            throw new IllegalArgumentException(
                    "Invalid '" + SluiceOptions.COMPACTION_FILE_SIZE.key() + "' " + targetSize + ": must be positive");
        }
        if (everyCheckpoints < 0) {
            throw new IllegalArgumentException("Invalid '" + SluiceOptions.COMPACTION_CHECKPOINTS.key() + "' "
                    + everyCheckpoints + ": must be 0 (by size only) or more");
        }
        this.enabled = enabled;
        this.targetSize = targetSize;
        this.everyCheckpoints = everyCheckpoints;
    }

    /** The planner a sink's options describe. */
    public static CompactionPlanner of(ReadableConfig options, Map<String, String> raw) {
        MemorySize size = options.getOptional(SluiceOptions.COMPACTION_FILE_SIZE)
                .orElseGet(() -> raw.containsKey(ROLLING_FILE_SIZE)
                        ? MemorySize.parse(raw.get(ROLLING_FILE_SIZE))
                        : DEFAULT_FILE_SIZE);
        if (size.getBytes() <= 0) {
            // the size may be the rolling policy's, which compaction.file-size defaults to: the
            // error names the option the user set, as they wrote it
            String key = options.getOptional(SluiceOptions.COMPACTION_FILE_SIZE).isPresent()
                    ? SluiceOptions.COMPACTION_FILE_SIZE.key()
                    : ROLLING_FILE_SIZE;
            String value = raw.getOrDefault(key, size.toString());
            throw new IllegalArgumentException("Invalid '" + key + "' '" + value + "': must be positive");
        }
        return new CompactionPlanner(
                options.get(SluiceOptions.AUTO_COMPACTION),
                size.getBytes(),
                options.get(SluiceOptions.COMPACTION_CHECKPOINTS),
                options.get(SluiceOptions.COMPACTION_SMALL_FILES_AVG_SIZE).getBytes());
    }

    /** Takes a file written for compaction. */
    public void add(Committable.Entry file) {
        waiting.computeIfAbsent(bucketOf(file), k -> new ArrayList<>()).add(file);
    }

    /**
     * The units due at this checkpoint, removed from the waiting files.
     *
     * @param endOfInput every waiting file is due
     */
    public List<Committable.Unit> onCheckpoint(boolean endOfInput) {
        checkpointsSinceCompaction++;
        boolean all =
                endOfInput || !enabled || (everyCheckpoints > 0 && checkpointsSinceCompaction >= everyCheckpoints);
        List<Committable.Unit> units = new ArrayList<>();
        Iterator<Map.Entry<String, List<Committable.Entry>>> it =
                waiting.entrySet().iterator();
        while (it.hasNext()) {
            Map.Entry<String, List<Committable.Entry>> bucket = it.next();
            List<Committable.Entry> files = bucket.getValue();
            if (all) {
                units.addAll(pack(bucket.getKey(), files));
                it.remove();
            } else if (total(files) >= targetSize) {
                // full units only: the rest waits to be filled up by the next files
                List<Committable.Unit> packed = pack(bucket.getKey(), files);
                Committable.Unit last = packed.get(packed.size() - 1);
                int rest = last.inputs().size();
                if (total(files.subList(files.size() - rest, files.size())) < targetSize) {
                    packed.remove(packed.size() - 1);
                    files.subList(0, files.size() - rest).clear();
                } else {
                    it.remove();
                }
                units.addAll(packed);
            }
        }
        if (all) {
            checkpointsSinceCompaction = 0;
        }
        return units;
    }

    /**
     * The units at the end of the input of a job without checkpoints, every waiting file due: per
     * bucket, packed as {@link #onCheckpoint} does if the average size of its files is below {@code
     * compaction.small-files.avg-size}, else one unit per file (published as it is). With
     * compaction switched off, packed as {@link #onCheckpoint} does.
     */
    public List<Committable.Unit> onEndOfBatch() {
        List<Committable.Unit> units = new ArrayList<>();
        for (Map.Entry<String, List<Committable.Entry>> bucket : waiting.entrySet()) {
            List<Committable.Entry> files = bucket.getValue();
            if (!enabled || isSmall(files)) {
                units.addAll(pack(bucket.getKey(), files));
            } else {
                for (Committable.Entry f : files) {
                    units.add(new Committable.Unit(bucket.getKey(), List.of(f.envelope())));
                }
            }
        }
        waiting.clear();
        checkpointsSinceCompaction = 0;
        return units;
    }

    /** Whether the files' average size is below {@code compaction.small-files.avg-size}. */
    private boolean isSmall(List<Committable.Entry> files) {
        return !files.isEmpty() && total(files) < smallFilesAvgSize * (double) files.size();
    }

    /** Consecutive files, as many per unit as fit the target size (a larger file is a unit alone). */
    private List<Committable.Unit> pack(String bucket, List<Committable.Entry> files) {
        List<Committable.Unit> units = new ArrayList<>();
        List<Envelope> current = new ArrayList<>();
        long currentSize = 0;
        for (Committable.Entry f : files) {
            long size = Math.max(0, f.size());
            if (!current.isEmpty() && currentSize + size > targetSize) {
                units.add(new Committable.Unit(bucket, current));
                current = new ArrayList<>();
                currentSize = 0;
            }
            current.add(f.envelope());
            currentSize += size;
        }
        if (!current.isEmpty()) {
            units.add(new Committable.Unit(bucket, current));
        }
        return units;
    }

    private static long total(List<Committable.Entry> files) {
        long sum = 0;
        for (Committable.Entry f : files) {
            sum += Math.max(0, f.size());
        }
        return sum;
    }

    private static String bucketOf(Committable.Entry file) {
        return file.partition() == null ? "" : file.partition();
    }

    /** Whether files of the bucket wait for compaction (so it is not finished yet). */
    public boolean isWaiting(String bucket) {
        return waiting.containsKey(bucket);
    }

    /** Number of files waiting. */
    public int waitingFiles() {
        int n = 0;
        for (List<Committable.Entry> files : waiting.values()) {
            n += files.size();
        }
        return n;
    }

    /**
     * The planner's state, framed by Flink's {@link SimpleVersionedSerialization} with {@link
     * StateSerializer} (its version inside).
     */
    public byte[] snapshot() throws IOException {
        List<Committable.Entry> all = new ArrayList<>();
        waiting.values().forEach(all::addAll);
        return SimpleVersionedSerialization.writeVersionAndSerialize(
                StateSerializer.INSTANCE, new State(checkpointsSinceCompaction, all));
    }

    /** Adds what a {@link #snapshot()} held (several, when aggregator states are merged). */
    public void restore(byte[] snapshot) throws IOException {
        add(SimpleVersionedSerialization.readVersionAndDeSerialize(StateSerializer.INSTANCE, snapshot));
    }

    /**
     * Adds a snapshot written without a frame: the aggregator's state before it had {@link
     * #snapshot()}'s frame held version 1 so.
     */
    public void restoreUnframed(byte[] version1) throws IOException {
        add(StateSerializer.INSTANCE.deserialize(1, version1));
    }

    private void add(State state) {
        checkpointsSinceCompaction = Math.max(checkpointsSinceCompaction, state.checkpointsSinceCompaction);
        for (Committable.Entry e : state.waiting) {
            add(e);
        }
    }

    /** What the planner keeps across a restore: the checkpoints since the last compaction, the waiting files. */
    public static final class State {
        final int checkpointsSinceCompaction;
        final List<Committable.Entry> waiting;

        public State(int checkpointsSinceCompaction, List<Committable.Entry> waiting) {
            this.checkpointsSinceCompaction = checkpointsSinceCompaction;
            this.waiting = waiting;
        }
    }

    /**
     * Serializes the planner's {@link State}. Version 1 (the only one so far): the checkpoints
     * since the last compaction, then the waiting files in {@link CommittableSerializer#writeEntries}'s
     * layout.
     */
    public static final class StateSerializer implements SimpleVersionedSerializer<State> {

        public static final StateSerializer INSTANCE = new StateSerializer();
        public static final int VERSION = 1;

        @Override
        public int getVersion() {
            return VERSION;
        }

        @Override
        public byte[] serialize(State state) throws IOException {
            DataOutputSerializer out = new DataOutputSerializer(256);
            out.writeInt(state.checkpointsSinceCompaction);
            CommittableSerializer.writeEntries(state.waiting, out);
            return out.getCopyOfBuffer();
        }

        @Override
        public State deserialize(int version, byte[] serialized) throws IOException {
            switch (version) {
                case 1:
                    DataInputDeserializer in = new DataInputDeserializer(serialized);
                    int checkpoints = in.readInt();
                    return new State(checkpoints, CommittableSerializer.readEntries(in));
                default:
                    throw new IOException("Cannot read the Sluice commit aggregator's compaction state of version "
                            + version + ": this build reads version 1. Was the state written by a newer Sluice? Restore"
                            + " it with that version, or start without state.");
            }
        }
    }
}

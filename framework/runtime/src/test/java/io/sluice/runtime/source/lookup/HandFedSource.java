package io.sluice.runtime.source.lookup;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SourceSplit;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.java.typeutils.ResultTypeQueryable;
import org.apache.flink.core.io.InputStatus;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.types.Row;

import javax.annotation.Nullable;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * An unbounded stream whose rows a test hands over one by one while the job runs (the orders of
 * a temporal join, each arriving when the test has set the table up for it). For MiniCluster jobs
 * in the test's JVM: the source and the test meet in a static queue under the feed's name. Public
 * for the end-to-end tests of the plugin modules.
 *
 * <p>A FLIP-27 source, the one kind both Flink lines run ({@code SourceFunction} left the public API
 * in Flink 2.0): one split, the feed, read by the first reader that registers; the others idle.
 * Rows taken from the queue are not part of any checkpoint: a restarted job does not see them again.
 */
public final class HandFedSource implements Source<Row, HandFedSource.FeedSplit, Boolean>, ResultTypeQueryable<Row> {

    private static final long serialVersionUID = 1L;

    private static final Map<String, BlockingQueue<Row>> FEEDS = new ConcurrentHashMap<>();

    /** How long a reader with an empty queue waits before it looks again. */
    private static final long POLL_MILLIS = 20;

    private final String feed;
    private final TypeInformation<Row> type;

    private HandFedSource(String feed, TypeInformation<Row> type) {
        this.feed = feed;
        this.type = type;
    }

    /** A new feed and the source that emits what is handed to it, as rows of {@code type}. */
    public static HandFedSource feed(String name, TypeInformation<Row> type) {
        FEEDS.put(name, new LinkedBlockingQueue<>());
        return new HandFedSource(name, type);
    }

    /** Hands a row to the running source of feed {@code name}. */
    public static void emit(String name, Row row) {
        BlockingQueue<Row> queue = FEEDS.get(name);
        if (queue == null) {
            throw new IllegalStateException("No feed " + name);
        }
        queue.add(row);
    }

    @Override
    public TypeInformation<Row> getProducedType() {
        return type;
    }

    @Override
    public Boundedness getBoundedness() {
        return Boundedness.CONTINUOUS_UNBOUNDED;
    }

    @Override
    public SplitEnumerator<FeedSplit, Boolean> createEnumerator(SplitEnumeratorContext<FeedSplit> context) {
        return new FeedEnumerator(context, feed, false);
    }

    @Override
    public SplitEnumerator<FeedSplit, Boolean> restoreEnumerator(
            SplitEnumeratorContext<FeedSplit> context, Boolean assigned) {
        return new FeedEnumerator(context, feed, assigned);
    }

    @Override
    public SimpleVersionedSerializer<FeedSplit> getSplitSerializer() {
        return new FeedSplitSerializer();
    }

    @Override
    public SimpleVersionedSerializer<Boolean> getEnumeratorCheckpointSerializer() {
        return new AssignedSerializer();
    }

    @Override
    public SourceReader<Row, FeedSplit> createReader(SourceReaderContext context) {
        return new FeedReader();
    }

    /** The one split: the feed's name. */
    public static final class FeedSplit implements SourceSplit {
        private final String feed;

        FeedSplit(String feed) {
            this.feed = feed;
        }

        @Override
        public String splitId() {
            return feed;
        }
    }

    private static final class FeedEnumerator implements SplitEnumerator<FeedSplit, Boolean> {
        private final SplitEnumeratorContext<FeedSplit> context;
        private final String feed;
        private boolean assigned;

        FeedEnumerator(SplitEnumeratorContext<FeedSplit> context, String feed, boolean assigned) {
            this.context = context;
            this.feed = feed;
            this.assigned = assigned;
        }

        @Override
        public void start() {}

        @Override
        public void handleSplitRequest(int subtaskId, @Nullable String requesterHostname) {}

        @Override
        public void addSplitsBack(List<FeedSplit> splits, int subtaskId) {
            assigned = false;
        }

        @Override
        public void addReader(int subtaskId) {
            if (!assigned) {
                context.assignSplit(new FeedSplit(feed), subtaskId);
                assigned = true;
            }
        }

        @Override
        public Boolean snapshotState(long checkpointId) {
            return assigned;
        }

        @Override
        public void close() {}
    }

    private static final class FeedReader implements SourceReader<Row, FeedSplit> {
        private final List<FeedSplit> splits = new ArrayList<>();
        private BlockingQueue<Row> queue;

        @Override
        public void start() {}

        @Override
        public InputStatus pollNext(ReaderOutput<Row> output) {
            Row row = queue == null ? null : queue.poll();
            if (row == null) {
                return InputStatus.NOTHING_AVAILABLE;
            }
            output.collect(row);
            return InputStatus.MORE_AVAILABLE;
        }

        @Override
        public List<FeedSplit> snapshotState(long checkpointId) {
            return Collections.unmodifiableList(new ArrayList<>(splits));
        }

        @Override
        public CompletableFuture<Void> isAvailable() {
            if (queue != null && !queue.isEmpty()) {
                return CompletableFuture.completedFuture(null);
            }
            return CompletableFuture.runAsync(
                    () -> {}, CompletableFuture.delayedExecutor(POLL_MILLIS, TimeUnit.MILLISECONDS));
        }

        @Override
        public void addSplits(List<FeedSplit> added) {
            splits.addAll(added);
            for (FeedSplit split : added) {
                queue = FEEDS.get(split.feed);
                if (queue == null) {
                    throw new IllegalStateException("No feed " + split.feed + " in this JVM");
                }
            }
        }

        @Override
        public void notifyNoMoreSplits() {}

        @Override
        public void close() {}
    }

    private static final class FeedSplitSerializer implements SimpleVersionedSerializer<FeedSplit> {
        @Override
        public int getVersion() {
            return 1;
        }

        @Override
        public byte[] serialize(FeedSplit split) {
            return split.feed.getBytes(StandardCharsets.UTF_8);
        }

        @Override
        public FeedSplit deserialize(int version, byte[] serialized) {
            return new FeedSplit(new String(serialized, StandardCharsets.UTF_8));
        }
    }

    private static final class AssignedSerializer implements SimpleVersionedSerializer<Boolean> {
        @Override
        public int getVersion() {
            return 1;
        }

        @Override
        public byte[] serialize(Boolean assigned) {
            return new byte[] {(byte) (assigned ? 1 : 0)};
        }

        @Override
        public Boolean deserialize(int version, byte[] serialized) {
            return serialized.length == 1 && serialized[0] == 1;
        }
    }
}

package io.sluice.runtime.source.lookup;

import org.apache.flink.streaming.api.functions.source.SourceFunction;
import org.apache.flink.types.Row;

import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * An unbounded stream whose rows a test hands over one by one while the job runs (the orders of
 * a temporal join, each arriving when the test has set the table up for it). For MiniCluster jobs
 * in the test's JVM: the source and the test meet in a static queue under the feed's name. Public
 * for the end-to-end tests of the plugin modules.
 */
public final class HandFedSource implements SourceFunction<Row> {

    private static final long serialVersionUID = 1L;

    private static final Map<String, BlockingQueue<Row>> FEEDS = new ConcurrentHashMap<>();

    private final String feed;
    private volatile boolean running = true;

    private HandFedSource(String feed) {
        this.feed = feed;
    }

    /** A new feed and the source that emits what is handed to it. */
    public static HandFedSource feed(String name) {
        FEEDS.put(name, new LinkedBlockingQueue<>());
        return new HandFedSource(name);
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
    public void run(SourceContext<Row> context) throws Exception {
        BlockingQueue<Row> queue = FEEDS.get(feed);
        while (running) {
            Row row = queue.poll(50, TimeUnit.MILLISECONDS);
            if (row != null) {
                synchronized (context.getCheckpointLock()) {
                    context.collect(row);
                }
            }
        }
    }

    @Override
    public void cancel() {
        running = false;
    }
}

package io.sluice.runtime.sink;

import io.sluice.runtime.plugin.PluginSettings;
import io.sluice.runtime.sink.commit.CommitAggregator;
import io.sluice.runtime.sink.commit.SluiceCommitter;
import io.sluice.runtime.state.Committable;
import io.sluice.runtime.state.CommittableSerializer;
import io.sluice.runtime.state.Envelope;
import io.sluice.spi.Payload;
import io.sluice.spi.sink.CommitRequest;
import io.sluice.spi.sink.CompactionUnit;
import io.sluice.spi.sink.PendingCommit;
import io.sluice.spi.sink.TargetCommitter;

import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.api.connector.sink2.CommitterInitContext;
import org.apache.flink.api.connector.sink2.SupportsCommitter;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessageTypeInfo;
import org.apache.flink.streaming.api.connector.sink2.CommittableSummary;
import org.apache.flink.streaming.api.connector.sink2.CommittableWithLineage;
import org.apache.flink.streaming.runtime.operators.sink.CommitterOperatorFactory;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The sink's commit path on Flink's operator test harnesses, without a cluster: the {@link
 * CommitAggregator}, which commits (over {@link SluiceCommitter}), and Flink's own committer
 * operator behind it, driven checkpoint by checkpoint, the aggregator's output (none since it
 * commits itself) handed to the committer as Flink would, with snapshots of both at every
 * checkpoint and restores of both from any of them. Notifications of a completed checkpoint can
 * be delivered late, after later handovers and the end of input, as Flink may.
 *
 * <p>The target behind the committer is a {@link Ledger}: it publishes a file once, treats a file
 * already published as done (as a renaming target does), and records every request, so a test
 * can count what became visible and compare it with what the writers handed over.
 */
final class CommitPathHarness implements AutoCloseable {

    static final String PLUGIN = "p";
    static final String TARGET = "t";

    private final SinkDescriptor descriptor;
    private final Ledger ledger;
    private OneInputStreamOperatorTestHarness<CommittableMessage<Committable>, CommittableMessage<Committable>>
            aggregator;
    private OneInputStreamOperatorTestHarness<CommittableMessage<Committable>, CommittableMessage<Committable>>
            committer;
    private final Map<Long, OperatorSubtaskState[]> snapshots = new TreeMap<>();

    CommitPathHarness(Map<String, String> options, Path pluginsDir, Ledger ledger) throws Exception {
        Map<String, String> all = new LinkedHashMap<>(options);
        all.put("target", TARGET);
        this.descriptor = new SinkDescriptor(
                TARGET,
                PLUGIN,
                all,
                RowType.of(new LogicalType[] {new BigIntType()}, new String[] {"id"}),
                List.of("dt"),
                PluginSettings.of(pluginsDir),
                List.of(),
                false,
                Map.of());
        this.ledger = ledger;
        start(null);
    }

    private void start(OperatorSubtaskState[] restored) throws Exception {
        // the committables' own serializer, as in a job (the harness would otherwise copy them with Kryo)
        TypeSerializer<CommittableMessage<Committable>> serializer =
                CommittableMessageTypeInfo.of(CommittableSerializer::new).createSerializer(new SerializerConfigImpl());
        Ledger target = ledger;
        aggregator = new OneInputStreamOperatorTestHarness<>(
                new CommitAggregator(descriptor, (d, job, metrics) -> ledgerCommitter(target)), serializer);
        aggregator.setup(serializer);
        committer = new OneInputStreamOperatorTestHarness<>(
                new CommitterOperatorFactory<>(new LedgerSink(ledger), false, true), serializer);
        committer.setup(serializer);
        if (restored == null) {
            aggregator.initializeEmptyState();
            committer.initializeEmptyState();
        } else {
            aggregator.initializeState(restored[0]);
            committer.initializeState(restored[1]);
        }
        aggregator.open();
        committer.open();
    }

    /** A writer subtask hands over its files for a checkpoint, or {@link CommittableMessage#EOI}. */
    void hand(int subtask, int subtasks, long checkpointIdOrEOI, List<Committable.Entry> files) throws Exception {
        aggregator.processElement(
                new StreamRecord<>(new CommittableSummary<>(subtask, subtasks, checkpointIdOrEOI, 1, 0, 0)));
        aggregator.processElement(
                new StreamRecord<>(new CommittableWithLineage<>(new Committable(files), checkpointIdOrEOI, subtask)));
    }

    /**
     * What the aggregator of earlier versions emitted to Flink's committer for checkpoint {@code
     * id}: one merged committable, which a checkpoint then holds in the committer's state.
     */
    void handToFlinkCommitterAsEarlierVersionsDid(long id, List<Committable.Entry> files) throws Exception {
        Committable c = new Committable(id, "job", "op", "epoch-of-an-earlier-version", files, List.of(), List.of());
        committer.processElement(new StreamRecord<>(new CommittableSummary<>(0, 1, id, 1, 1, 0)));
        committer.processElement(new StreamRecord<>(new CommittableWithLineage<>(c, id, 0)));
    }

    /** The end of input of every writer, as Flink signals it to the aggregator and then the committer. */
    void endOfInput() throws Exception {
        aggregator.endInput();
        forward();
        committer.endInput();
    }

    /** Checkpoint {@code id}: the barrier passes the aggregator, then the committer; both snapshot. */
    void checkpoint(long id) throws Exception {
        aggregator.prepareSnapshotPreBarrier(id);
        forward();
        OperatorSubtaskState a = aggregator.snapshot(id, id);
        committer.prepareSnapshotPreBarrier(id);
        OperatorSubtaskState c = committer.snapshot(id, id);
        snapshots.put(id, new OperatorSubtaskState[] {a, c});
    }

    /** Checkpoint {@code id} completed: the committer commits. */
    void complete(long id) throws Exception {
        aggregator.notifyOfCompletedCheckpoint(id);
        committer.notifyOfCompletedCheckpoint(id);
    }

    /** A failover: both operators restart from checkpoint {@code id}'s state (0: from scratch). */
    void restore(long id) throws Exception {
        closeQuietly();
        start(id == 0 ? null : snapshots.get(id));
    }

    private void forward() throws Exception {
        List<Object> out = new ArrayList<>(aggregator.getOutput());
        aggregator.getOutput().clear();
        for (Object o : out) {
            if (o instanceof StreamRecord) {
                @SuppressWarnings("unchecked")
                StreamRecord<CommittableMessage<Committable>> r = (StreamRecord<CommittableMessage<Committable>>) o;
                committer.processElement(r);
            }
        }
    }

    private void closeQuietly() {
        try {
            aggregator.close();
        } catch (Exception ignored) {
            // a failed operator's close may fail too; the restore starts new ones
        }
        try {
            committer.close();
        } catch (Exception ignored) {
            // as above
        }
    }

    @Override
    public void close() {
        closeQuietly();
    }

    /** A file handed over by a writer: its name is the payload. */
    static Committable.Entry file(String name, String partition, boolean forCompaction) {
        return new Committable.Entry(
                new Envelope(PLUGIN, TARGET, new Payload(1, name.getBytes(StandardCharsets.UTF_8))),
                partition,
                0,
                10,
                forCompaction);
    }

    /** The target of the harness: publishes each file once and records every request. */
    static final class Ledger {
        /** file name -> how many times a request asked to publish it. */
        final Map<String, Integer> published = new LinkedHashMap<>();

        final List<CommitRequestRecord> requests = new ArrayList<>();
        /** file names the committer asked the target to discard ({@code TargetCommitter#discard}). */
        final List<String> discarded = new ArrayList<>();
        /** partitions in the order the committer ran their policies, after their files. */
        final List<String> duePartitions = new ArrayList<>();
        /** partition -> files published in it when its policy ran last. */
        final Map<String, Integer> filesWhenDue = new HashMap<>();

        private String failNext; // "before" / "after" the publish, once

        void failNextCommit(String when) {
            this.failNext = when;
        }

        int publishedInPartition(String partition) {
            int n = 0;
            for (String name : published.keySet()) {
                if (name.startsWith(partition + "/")) {
                    n++;
                }
            }
            return n;
        }

        void commit(CommitRequest request) throws IOException {
            String fail = failNext;
            failNext = null;
            if ("before".equals(fail)) {
                throw new IOException("injected failure before the commit of checkpoint " + request.checkpointId());
            }
            List<String> names = new ArrayList<>();
            for (Payload p : request.pending()) {
                names.add(new String(p.bytes(), StandardCharsets.UTF_8));
            }
            for (CompactionUnit unit : request.compactions()) {
                for (Payload p : unit.inputs()) {
                    names.add(new String(p.bytes(), StandardCharsets.UTF_8));
                }
            }
            requests.add(new CommitRequestRecord(request.epoch(), request.checkpointId(), names));
            for (String name : names) {
                published.merge(name, 1, Integer::sum);
            }
            if ("after".equals(fail)) {
                throw new IOException("injected failure after the commit of checkpoint " + request.checkpointId());
            }
        }
    }

    /** One request the committer made. */
    static final class CommitRequestRecord {
        final String epoch;
        final long checkpointId;
        final List<String> files;

        CommitRequestRecord(String epoch, long checkpointId, List<String> files) {
            this.epoch = epoch;
            this.checkpointId = checkpointId;
            this.files = files;
        }

        @Override
        public String toString() {
            return checkpointId + "@" + epoch.substring(0, 8) + files;
        }
    }

    /** The sink Flink's committer operator factory asks for the committer. */
    private static final class LedgerSink implements SupportsCommitter<Committable> {
        private final transient Ledger ledger;

        LedgerSink(Ledger ledger) {
            this.ledger = ledger;
        }

        @Override
        public Committer<Committable> createCommitter(CommitterInitContext context) {
            return ledgerCommitter(ledger);
        }

        @Override
        public SimpleVersionedSerializer<Committable> getCommittableSerializer() {
            return new CommittableSerializer();
        }
    }

    /** A committer over the ledger: it records when each due partition's policies ran. */
    /** Flink's committer interface and the aggregator's discarding, as {@link SluiceCommitter} has both. */
    private interface DiscardingCommitter extends Committer<Committable>, CommitAggregator.Discarding {}

    static Committer<Committable> ledgerCommitter(Ledger ledger) {
        TargetCommitter target = new TargetCommitter() {
            @Override
            public void commit(CommitRequest request) throws IOException {
                ledger.commit(request);
            }

            @Override
            public void discard(List<PendingCommit> pending) {
                for (PendingCommit p : pending) {
                    ledger.discarded.add(new String(p.payload().bytes(), StandardCharsets.UTF_8));
                }
            }

            @Override
            public void close() {}
        };
        SluiceCommitter sluice = new SluiceCommitter(target, PLUGIN, TARGET, "job", null);
        return new DiscardingCommitter() {
            @Override
            public void discard(List<Committable.Entry> entries) {
                sluice.discard(entries);
            }

            @Override
            public void commit(Collection<Committer.CommitRequest<Committable>> requests)
                    throws IOException, InterruptedException {
                sluice.commit(requests);
                for (Committer.CommitRequest<Committable> r : requests) {
                    for (String partition : r.getCommittable().duePartitions()) {
                        ledger.duePartitions.add(partition);
                        ledger.filesWhenDue.put(partition, ledger.publishedInPartition(partition));
                    }
                }
            }

            @Override
            public void close() throws Exception {
                sluice.close();
            }
        };
    }
}

package io.sluice.testkit;

import io.sluice.spi.Payload;
import io.sluice.spi.sink.CommitRequest;
import io.sluice.spi.sink.CompactionUnit;
import io.sluice.spi.sink.PendingCommit;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** A {@link CommitRequest} as the framework makes one: a job, a sink, an epoch and a checkpoint. */
public final class TestCommitRequest implements CommitRequest {

    private final String jobId;
    private final String operatorId;
    private final String epoch;
    private final long checkpointId;
    private final List<Payload> pending;

    public TestCommitRequest(String jobId, String operatorId, String epoch, long checkpointId, List<Payload> pending) {
        this.jobId = jobId;
        this.operatorId = operatorId;
        this.epoch = epoch;
        this.checkpointId = checkpointId;
        this.pending = Collections.unmodifiableList(new ArrayList<>(pending));
    }

    /** The payloads of what writers prepared, in order. */
    public static List<Payload> payloads(List<PendingCommit> prepared) {
        List<Payload> payloads = new ArrayList<>(prepared.size());
        prepared.forEach(p -> payloads.add(p.payload()));
        return payloads;
    }

    @Override
    public String jobId() {
        return jobId;
    }

    @Override
    public String operatorId() {
        return operatorId;
    }

    @Override
    public String epoch() {
        return epoch;
    }

    @Override
    public long checkpointId() {
        return checkpointId;
    }

    @Override
    public List<Payload> pending() {
        return pending;
    }

    @Override
    public List<CompactionUnit> compactions() {
        return Collections.emptyList();
    }
}

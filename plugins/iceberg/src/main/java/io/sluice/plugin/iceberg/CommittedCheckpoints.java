package io.sluice.plugin.iceberg;

import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotUpdate;
import org.apache.iceberg.Table;
import org.apache.iceberg.util.SnapshotUtil;

import java.util.Map;

/**
 * What a table's snapshots say a sink has committed. Each commit records in its snapshot summary
 * the job that wrote the data, the sink's operator id and the checkpoint, under the keys Iceberg's
 * own Flink sink uses, so tools that read those keys (snapshot expiry that keeps a job's last
 * snapshot, monitoring) treat Sluice's snapshots like upstream's; and the run of the job that made
 * the commit ({@link #EPOCH}).
 */
final class CommittedCheckpoints {

    static final String JOB_ID = "flink.job-id";
    static final String OPERATOR_ID = "flink.operator-id";
    static final String MAX_COMMITTED_CHECKPOINT_ID = "flink.max-committed-checkpoint-id";
    /**
     * Sluice's own key: the run of the job ({@code CommitRequest#epoch()}). A job restored from an
     * older checkpoint with the same job id numbers its checkpoints from there again; without the
     * epoch its new checkpoint n would pass for the earlier run's committed n, and be skipped.
     */
    static final String EPOCH = "sluice.commit-epoch";

    /** What {@link #lastCommitted} returns when the sink has committed nothing to the branch. */
    static final long NONE = -1;

    private CommittedCheckpoints() {}

    /**
     * The highest checkpoint that job {@code jobId}'s sink {@code operatorId} committed to {@code
     * branch} in run {@code epoch} (any run if empty), or {@link #NONE}. A sink commits in checkpoint order, so the newest of its snapshots
     * on the branch has the highest: the walk from the branch's head stops there.
     */
    static long lastCommitted(Table table, String branch, String jobId, String operatorId, String epoch) {
        Snapshot head = table.snapshot(branch);
        if (head == null) {
            return NONE;
        }
        for (Snapshot s : SnapshotUtil.ancestorsOf(head.snapshotId(), table::snapshot)) {
            Map<String, String> summary = s.summary();
            if (jobId.equals(summary.get(JOB_ID))
                    && operatorId.equals(summary.get(OPERATOR_ID))
                    && (epoch.isEmpty() || epoch.equals(summary.get(EPOCH)))) {
                String checkpoint = summary.get(MAX_COMMITTED_CHECKPOINT_ID);
                if (checkpoint != null) {
                    return Long.parseLong(checkpoint);
                }
            }
        }
        return NONE;
    }

    /** Records in the commit's summary that it commits {@code checkpointId} of job {@code jobId}'s sink {@code operatorId}. */
    static void record(SnapshotUpdate<?> commit, String jobId, String operatorId, String epoch, long checkpointId) {
        commit.set(JOB_ID, jobId);
        commit.set(OPERATOR_ID, operatorId);
        if (!epoch.isEmpty()) {
            commit.set(EPOCH, epoch);
        }
        commit.set(MAX_COMMITTED_CHECKPOINT_ID, Long.toString(checkpointId));
    }
}

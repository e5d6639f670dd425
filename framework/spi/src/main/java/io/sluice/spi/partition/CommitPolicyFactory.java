package io.sluice.spi.partition;

import io.sluice.spi.SluiceFactory;
import io.sluice.spi.sink.SinkContext;

/**
 * Creates {@link CommitPolicy}s, selected by {@code sink.partition-commit.policy.kind} (built-in
 * kinds such as {@code success-file}, or {@code custom} with {@code
 * sink.partition-commit.policy.class} naming this factory's identifier or class name).
 */
public interface CommitPolicyFactory extends SluiceFactory {

    /** Creates the policy of a sink. */
    CommitPolicy create(SinkContext context);
}

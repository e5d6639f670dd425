package io.sluice.runtime.sink.partition;

import io.sluice.spi.ExtensionLookup;
import io.sluice.spi.SluiceFactory;
import io.sluice.spi.partition.CommitPolicy;
import io.sluice.spi.partition.CommitPolicyFactory;
import io.sluice.spi.sink.SinkContext;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The policies of {@code sink.partition-commit.policy.kind} are closed with the committer, every
 * one of them even when one fails to close (a policy may hold a metastore connection).
 */
class PartitionCommitPoliciesTest {

    private final List<String> events = new ArrayList<>();

    @Test
    void closesEveryPolicyAndReportsTheFirstFailure() {
        PartitionCommitPolicies policies = new PartitionCommitPolicies(new PartitionCommitTriggerTest.Context(
                Map.of("sink.partition-commit.policy.kind", "a,b,c"), extensions()));

        assertThatThrownBy(policies::close)
                .hasMessage("a cannot close")
                .satisfies(e -> assertThat(e.getSuppressed())
                        .extracting(Throwable::getMessage)
                        .containsExactly("c cannot close"));
        assertThat(events).containsExactly("close a", "close b", "close c");
    }

    private ExtensionLookup extensions() {
        return new ExtensionLookup() {
            @Override
            @SuppressWarnings("unchecked")
            public <T extends SluiceFactory> T find(Class<T> type, String identifier) {
                return (T) new Factory(identifier);
            }

            @Override
            public List<String> identifiers(Class<? extends SluiceFactory> type) {
                return List.of("a", "b", "c");
            }
        };
    }

    private final class Factory implements CommitPolicyFactory {
        private final String id;

        Factory(String id) {
            this.id = id;
        }

        @Override
        public String identifier() {
            return id;
        }

        @Override
        public CommitPolicy create(SinkContext context) {
            return new CommitPolicy() {
                @Override
                public void commit(io.sluice.spi.partition.PartitionCommitContext partition) {
                    events.add("commit " + id);
                }

                @Override
                public void close() {
                    events.add("close " + id);
                    if (!id.equals("b")) {
                        throw new IllegalStateException(id + " cannot close");
                    }
                }
            };
        }
    }
}

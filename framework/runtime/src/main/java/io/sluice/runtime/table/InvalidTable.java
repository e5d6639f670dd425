package io.sluice.runtime.table;

import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.sink.abilities.SupportsOverwrite;
import org.apache.flink.table.connector.sink.abilities.SupportsPartitioning;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.connector.source.LookupTableSource;
import org.apache.flink.table.connector.source.ScanTableSource;

import java.util.Map;

/**
 * What the table factory returns for a table whose options are invalid: a sink or source that
 * fails with the (masked) error as soon as the planner first asks it anything.
 *
 * <p>Why not throw from the factory: Flink 1.20's {@code FactoryUtil.createDynamicTableSink} and
 * {@code createDynamicTableSource} wrap every exception of a factory in "Unable to create a sink
 * for writing table ... Table options are: ...", which lists every option of the table and masks
 * only the keys Flink's {@code GlobalConfiguration.isSensitive} knows (password, secret, token
 * ...), not an Iceberg {@code credential}, {@code header.Authorization}, {@code s3.access-key-id}
 * or the password in a {@code uri}. The planner's later calls ({@code getChangelogMode}, {@code
 * getSinkRuntimeProvider}, {@code getScanRuntimeProvider}) are not wrapped, so the error reaches
 * the user as it is, and first. The sink keeps the abilities of a real one, so an {@code INSERT
 * OVERWRITE} or a static partition does not fail earlier with the planner's own (wrong) complaint;
 * the source can be looked up, so a temporal join of it fails with the table's error, not with the
 * planner's "processing-time temporal join is not supported".
 */
final class InvalidTable {

    private InvalidTable() {}

    static DynamicTableSink sink(ValidationException error) {
        return new Sink(error);
    }

    static DynamicTableSource source(ValidationException error) {
        return new Source(error);
    }

    private static final class Sink
            implements DynamicTableSink,
                    SupportsPartitioning,
                    SupportsOverwrite,
                    org.apache.flink.table.connector.sink.abilities.SupportsBucketing {
        private final ValidationException error;

        Sink(ValidationException error) {
            this.error = error;
        }

        @Override
        public ChangelogMode getChangelogMode(ChangelogMode requestedMode) {
            throw error;
        }

        @Override
        public SinkRuntimeProvider getSinkRuntimeProvider(Context context) {
            throw error;
        }

        @Override
        public void applyStaticPartition(Map<String, String> partition) {
            // fails later, in getChangelogMode
        }

        @Override
        public void applyOverwrite(boolean overwrite) {
            // fails later, in getChangelogMode
        }

        /** Every algorithm: the planner's bucketing check comes first, and must not hide the error. */
        @Override
        public java.util.Set<org.apache.flink.table.catalog.TableDistribution.Kind> listAlgorithms() {
            return java.util.EnumSet.allOf(org.apache.flink.table.catalog.TableDistribution.Kind.class);
        }

        @Override
        public boolean requiresBucketCount() {
            return false;
        }

        @Override
        public DynamicTableSink copy() {
            return this;
        }

        @Override
        public String asSummaryString() {
            return "Sluice(invalid)";
        }
    }

    private static final class Source implements ScanTableSource, LookupTableSource {
        private final ValidationException error;

        Source(ValidationException error) {
            this.error = error;
        }

        @Override
        public ChangelogMode getChangelogMode() {
            throw error;
        }

        @Override
        public ScanRuntimeProvider getScanRuntimeProvider(ScanContext context) {
            throw error;
        }

        @Override
        public LookupRuntimeProvider getLookupRuntimeProvider(LookupContext context) {
            throw error;
        }

        @Override
        public DynamicTableSource copy() {
            return this;
        }

        @Override
        public String asSummaryString() {
            return "Sluice(invalid)";
        }
    }
}

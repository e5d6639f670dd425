package io.sluice.runtime.source.file;

import io.sluice.runtime.plugin.PluginSettings;
import io.sluice.runtime.source.TaskSourceContext;
import io.sluice.spi.ExtensionLookup;
import io.sluice.spi.SluiceFactory;

import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;

import java.nio.file.Paths;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What a plugin's parts learn when they are called for a temporal join's read of a file table. */
class LookupContextTest {

    private static final ExtensionLookup NONE = new ExtensionLookup() {
        @Override
        public <T extends SluiceFactory> T find(Class<T> type, String identifier) {
            throw new IllegalArgumentException("none");
        }

        @Override
        public List<String> identifiers(Class<? extends SluiceFactory> type) {
            return Collections.emptyList();
        }
    };

    @Test
    void aLookupReadIsBoundedAndSaysSoEvenOfAContinuousTable() {
        FileSourceDescriptor continuous = new FileSourceDescriptor(
                Map.of("path", "/t", "format", "csv", "source.monitor-interval", "10 s"),
                (RowType)
                        DataTypes.ROW(DataTypes.FIELD("k", DataTypes.BIGINT())).getLogicalType(),
                Collections.emptyList(),
                List.of("/t"),
                "recursive",
                PluginSettings.of(Paths.get("/no-plugins")));

        TaskSourceContext scan = continuous.context(NONE);
        assertThat(scan.lookup()).isFalse();
        assertThat(scan.boundedness()).isEqualTo(Boundedness.CONTINUOUS_UNBOUNDED);

        TaskSourceContext lookup = continuous.lookupContext(NONE);
        assertThat(lookup.lookup()).isTrue();
        assertThat(lookup.boundedness()).isEqualTo(Boundedness.BOUNDED);
        assertThat(lookup.rawOptions()).isEqualTo(scan.rawOptions());
        assertThat(lookup.rowType()).isEqualTo(scan.rowType());
    }

    @Test
    void theReadersAreTheEnumeratorsParallelismOneForALookupAndUnknownOnTheClient() {
        FileSourceDescriptor bounded = new FileSourceDescriptor(
                Map.of("path", "/t", "format", "csv"),
                (RowType)
                        DataTypes.ROW(DataTypes.FIELD("k", DataTypes.BIGINT())).getLogicalType(),
                Collections.emptyList(),
                List.of("/t"),
                "recursive",
                PluginSettings.of(Paths.get("/no-plugins")));

        TaskSourceContext client = bounded.context(NONE);
        assertThat(client.readers()).isEmpty();
        assertThat(bounded.lookupContext(NONE).readers()).hasValue(1);

        TaskSourceContext enumerator = client.withReaders(3);
        assertThat(enumerator.readers()).hasValue(3);
        assertThat(enumerator.rawOptions()).isEqualTo(client.rawOptions());
        assertThat(enumerator.rowType()).isEqualTo(client.rowType());
        assertThat(enumerator.boundedness()).isEqualTo(client.boundedness());
        assertThat(enumerator.lookup()).isFalse();
        assertThatThrownBy(() -> client.withReaders(0)).isInstanceOf(IllegalArgumentException.class);
    }
}

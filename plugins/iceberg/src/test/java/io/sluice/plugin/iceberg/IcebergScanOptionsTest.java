package io.sluice.plugin.iceberg;

import io.sluice.spi.Payload;
import io.sluice.spi.source.ScanSplitReader;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.iceberg.flink.source.StreamingStartingStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.Map;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The scan source's options: upstream's names and defaults, upstream's precedence (source option,
 * then job configuration, then table property), and every misuse as a clear error on the client.
 */
class IcebergScanOptionsTest {

    @TempDir
    Path warehouse;

    private final IcebergScanSourceFactory source = new IcebergScanSourceFactory();

    private ScanFixture table() {
        return new ScanFixture(IcebergSinks.hadoop(warehouse, Writes.ROW).build());
    }

    private TestSourceContext context() {
        return TestSourceContext.hadoop(warehouse, Writes.ROW);
    }

    private ReadSettings settings(TestSourceContext context) throws IOException {
        try (CatalogTable t = CatalogTable.load(context.options())) {
            return ReadSettings.of(t.table(), context);
        }
    }

    @Test
    void theOptionsHaveUpstreamsNamesAndDefaults() {
        Map<String, Object> defaults = source.optionalOptions().stream()
                .filter(ConfigOption::hasDefaultValue)
                .collect(Collectors.toMap(ConfigOption::key, ConfigOption::defaultValue));
        assertThat(defaults)
                .containsEntry("streaming", false)
                .containsEntry("monitor-interval", Duration.ofSeconds(60))
                .containsEntry("starting-strategy", StreamingStartingStrategy.INCREMENTAL_FROM_LATEST_SNAPSHOT)
                .containsEntry("split-size", 128L << 20)
                .containsEntry("split-file-open-cost", 4L << 20)
                .containsEntry("split-lookback", 10)
                .containsEntry("case-sensitive", false)
                .containsEntry("limit", -1L)
                .containsEntry("max-allowed-planning-failures", 3)
                .containsEntry("include-column-stats", false);
        assertThat(source.optionalOptions().stream().map(ConfigOption::key))
                .contains(
                        "snapshot-id",
                        "as-of-timestamp",
                        "start-snapshot-id",
                        "start-snapshot-timestamp",
                        "end-snapshot-id",
                        "branch",
                        "tag",
                        "start-tag",
                        "end-tag",
                        "max-planning-snapshot-count",
                        "catalog-type",
                        "warehouse",
                        "catalog-database");
        assertThat(source.requiredOptions().stream().map(ConfigOption::key)).containsExactly("catalog-table");
        assertThat(source.optionPrefixes()).contains("header.", "s3.");
    }

    @Test
    void aReadOptionBeatsTheJobConfigurationWhichBeatsTheTableProperty() throws Exception {
        ScanFixture table = table();
        for (long id = 1; id <= 4; id++) {
            table.append(id, id);
        }
        TestSourceContext context = context();
        assertThat(settings(context).scanContext().splitOpenFileCost()).isEqualTo(4L << 20);
        assertThat(table.planOnce(context).splits()).hasSize(1);

        table.onTable(t -> {
            t.updateProperties()
                    .set("read.split.open-file-cost", String.valueOf(128L << 20))
                    .commit();
            return null;
        });
        assertThat(settings(context).scanContext().splitOpenFileCost()).isEqualTo(128L << 20);
        assertThat(table.planOnce(context).splits())
                .as("the table property counts")
                .hasSize(4);

        context.setJob("connector.iceberg.split-file-open-cost", "1");
        assertThat(settings(context).scanContext().splitOpenFileCost()).isEqualTo(1L);
        assertThat(table.planOnce(context).splits())
                .as("the job configuration beats the table")
                .hasSize(1);

        context.set("split-file-open-cost", String.valueOf(128L << 20));
        assertThat(settings(context).scanContext().splitOpenFileCost()).isEqualTo(128L << 20);
        assertThat(table.planOnce(context).splits())
                .as("the option beats the job configuration")
                .hasSize(4);
    }

    @Test
    void streamingAndMonitorIntervalMayComeFromTheJobConfiguration() {
        table();
        TestSourceContext context = context()
                .setJob("connector.iceberg.streaming", "true")
                .setJob("connector.iceberg.monitor-interval", "7s");
        assertThat(source.monitorInterval(context)).contains(Duration.ofSeconds(7));
        context.set("streaming", "false");
        assertThat(source.monitorInterval(context)).isEmpty();
        assertThat(source.monitorInterval(context().set("streaming", "true"))).contains(Duration.ofSeconds(60));
    }

    @Test
    void incrementalFromSnapshotIdWithoutAStartSnapshotIdIsAClearError() {
        table();
        assertThatThrownBy(() -> source.validate(
                        context().set("streaming", "true").set("starting-strategy", "INCREMENTAL_FROM_SNAPSHOT_ID")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'starting-strategy' = 'INCREMENTAL_FROM_SNAPSHOT_ID' needs 'start-snapshot-id'");
        assertThatThrownBy(() -> source.validate(context()
                        .set("streaming", "true")
                        .set("starting-strategy", "INCREMENTAL_FROM_SNAPSHOT_TIMESTAMP")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("needs 'start-snapshot-timestamp'");
    }

    @Test
    void optionsThatExcludeEachOtherAreAClearError() throws Exception {
        long snapshot = table().append(1, 1);
        assertThatThrownBy(() -> source.validate(
                        context().set("streaming", "true").set("snapshot-id", String.valueOf(snapshot))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'snapshot-id' is for bounded reads only");
        assertThatThrownBy(() -> source.validate(
                        context().set("start-tag", "a").set("start-snapshot-id", String.valueOf(snapshot))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'start-snapshot-id' and 'start-tag' exclude each other");
        assertThatThrownBy(() -> source.validate(
                        context().set("as-of-timestamp", "1").set("snapshot-id", String.valueOf(snapshot))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'snapshot-id', 'tag' and 'as-of-timestamp' exclude each other");
        assertThatThrownBy(() -> source.validate(context().set("max-allowed-planning-failures", "-2")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'max-allowed-planning-failures'");
    }

    @Test
    void anUnknownSnapshotOrTagIsAClearError() throws Exception {
        table().append(1, 1);
        assertThatThrownBy(() -> source.validate(context()
                        .set("streaming", "true")
                        .set("starting-strategy", "INCREMENTAL_FROM_SNAPSHOT_ID")
                        .set("start-snapshot-id", "12345")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'start-snapshot-id' = 12345")
                .hasMessageContaining("'default_catalog.db.t'")
                .hasMessageContaining("no such snapshot");
        assertThatThrownBy(() -> source.validate(context().set("snapshot-id", "777")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'snapshot-id' = 777");
        assertThatThrownBy(() -> source.validate(context().set("as-of-timestamp", "1")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'as-of-timestamp' = 1")
                .hasMessageContaining("no snapshot at or before");
        assertThatThrownBy(() -> source.validate(context().set("tag", "nope")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'tag' = 'nope'")
                .hasMessageContaining("no such tag");
    }

    @Test
    void aColumnThatIsNotInTheTableIsAClearError() {
        table();
        RowType withExtra = RowType.of(
                new LogicalType[] {new BigIntType(), new VarCharType(VarCharType.MAX_LENGTH), new IntType()},
                new String[] {"id", "name", "nope"});
        assertThatThrownBy(() -> source.validate(TestSourceContext.hadoop(warehouse, withExtra)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("[nope]")
                .hasMessageContaining("'default_catalog.db.t'")
                .hasMessageContaining("[id, name]");
    }

    @Test
    void aColumnOfAnotherTypeIsAClearError() {
        table();
        RowType intId = RowType.of(
                new LogicalType[] {new IntType(), new VarCharType(VarCharType.MAX_LENGTH)},
                new String[] {"id", "name"});
        assertThatThrownBy(() -> source.validate(TestSourceContext.hadoop(warehouse, intId)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'id' is INT in the source but BIGINT in the table");
    }

    @Test
    void nullabilityAndCaseDoNotMatterByDefault() {
        table();
        RowType upperNotNull = RowType.of(
                new LogicalType[] {new BigIntType(false), new VarCharType(false, VarCharType.MAX_LENGTH)},
                new String[] {"ID", "Name"});
        source.validate(TestSourceContext.hadoop(warehouse, upperNotNull));
        assertThatThrownBy(() -> source.validate(
                        TestSourceContext.hadoop(warehouse, upperNotNull).set("case-sensitive", "true")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("[ID, Name]")
                .hasMessageContaining("'case-sensitive' = true");
    }

    @Test
    void aBadValueNamesItsOption() {
        table();
        assertThatThrownBy(() -> source.validate(context().set("split-size", "big")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("split-size");
        assertThatThrownBy(() -> source.validate(context().setJob("connector.iceberg.split-size", "big")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("job configuration");
        assertThatThrownBy(() -> source.validate(context().set("split-size", "0")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'split-size'");
    }

    @Test
    void aMissingTableIsAClearError() throws IOException {
        assertThatThrownBy(() -> source.validate(context()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("No Iceberg table 'db.t'");
        assertThatThrownBy(() -> source.createPlanner(context()))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("No Iceberg table 'db.t'");
        try (ScanSplitReader reader = source.createReader(context())) {
            assertThatThrownBy(() -> reader.open(new Payload(3, new byte[0]), 0, 0))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("No Iceberg table 'db.t'");
        }
    }

    @Test
    void theFactoryIsInThePluginsExtensionIndex() throws IOException {
        boolean listed = false;
        for (URL index : Collections.list(getClass().getClassLoader().getResources("META-INF/extensions.idx"))) {
            try (java.io.InputStream in = index.openStream()) {
                listed |= new String(in.readAllBytes(), StandardCharsets.UTF_8)
                        .lines()
                        .anyMatch(IcebergScanSourceFactory.class.getName()::equals);
            }
        }
        assertThat(listed).isTrue();
    }
}

package io.sluice.runtime.sink;

import io.sluice.runtime.plugin.PluginSettings;
import io.sluice.runtime.plugin.TestPlugins;
import io.sluice.spi.compact.SinkCompaction;

import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code compaction.parallelism} as a committer's {@link SinkCompaction#parallelism()} sees it: the
 * option if set, else the sink's parallelism ({@code sink.parallelism}, else the writers' as the
 * planner built them), put into the commit aggregator's descriptor on the client; targets without
 * compaction get nothing added.
 */
class CompactionParallelismTest {

    @TempDir
    Path pluginsDir;

    @BeforeEach
    void twoTargets() throws Exception {
        String target = "package p;\n"
                + "import io.sluice.spi.Payload; import io.sluice.spi.sink.*; import java.util.List;\n"
                + "@org.pf4j.Extension public class %s implements TargetFactory {\n"
                + "  public String identifier() { return \"%s\"; }\n"
                + "  public java.util.Optional<io.sluice.spi.compact.CompactionSupport> compaction() {\n"
                + "    return %s ? java.util.Optional.of(new io.sluice.spi.compact.CompactionSupport() {})\n"
                + "        : java.util.Optional.empty(); }\n"
                + "  public TargetWriter createWriter(SinkContext c, List<Payload> s) { throw new UnsupportedOperationException(); }\n"
                + "  public TargetCommitter createCommitter(SinkContext c) { throw new UnsupportedOperationException(); }\n"
                + "}\n";
        TestPlugins.plugin(pluginsDir, "p")
                .source("p.Compacting", String.format(target, "Compacting", "compacting", "true"))
                .source("p.Whole", String.format(target, "Whole", "whole", "false"))
                .build();
    }

    private SinkDescriptor descriptor(String target, Map<String, String> options) {
        Map<String, String> all = new LinkedHashMap<>(options);
        all.put("target", target);
        return new SinkDescriptor(
                target,
                "p",
                all,
                RowType.of(new LogicalType[] {new BigIntType()}, new String[] {"id"}),
                List.of(),
                PluginSettings.of(pluginsDir),
                List.of(),
                false,
                Map.of());
    }

    private static int parallelism(SinkDescriptor descriptor) {
        TaskSinkContext context = new TaskSinkContext(
                descriptor, "job", 0, 1, UnregisteredMetricsGroup.createSinkWriterMetricGroup(), descriptor.registry());
        return context.compaction().orElseThrow().parallelism();
    }

    @Test
    void byDefaultTheWritersParallelism() {
        SinkDescriptor planned = SluiceSink.withCompactionParallelism(descriptor("compacting", Map.of()), 3);
        assertThat(planned.options()).containsEntry("compaction.parallelism", "3");
        assertThat(parallelism(planned)).isEqualTo(3);
        // a parallelism Flink has not decided yet
        assertThat(parallelism(SluiceSink.withCompactionParallelism(descriptor("compacting", Map.of()), -1)))
                .isEqualTo(1);
    }

    @Test
    void theSinksParallelismOptionThenTheCompactionOptionWin() {
        assertThat(parallelism(SluiceSink.withCompactionParallelism(
                        descriptor("compacting", Map.of("sink.parallelism", "2")), 3)))
                .isEqualTo(2);
        assertThat(parallelism(SluiceSink.withCompactionParallelism(
                        descriptor("compacting", Map.of("sink.parallelism", "2", "compaction.parallelism", "5")), 3)))
                .isEqualTo(5);
        // a committer of a descriptor the planner did not touch (Flink's committer, for old state)
        assertThat(parallelism(descriptor("compacting", Map.of()))).isEqualTo(1);
    }

    @Test
    void aTargetWithoutCompactionGetsNoOption() {
        SinkDescriptor whole = descriptor("whole", Map.of());
        assertThat(SluiceSink.withCompactionParallelism(whole, 3).options())
                .doesNotContainKey("compaction.parallelism");
    }
}

package io.sluice.runtime.sink;

import io.sluice.runtime.plugin.PluginSettings;
import io.sluice.runtime.plugin.TestPlugins;

import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
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
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code TargetFactory.modeDefaults()} as a sink's topology applies them: the target's options for
 * the job's mode, added only where the sink names none, checked like the sink's own; a target may
 * refuse a mode whose options are incomplete.
 */
class ModeDefaultsTest {

    private static final RowType ROW = RowType.of(new LogicalType[] {new BigIntType()}, new String[] {"id"});

    @TempDir
    Path pluginsDir;

    @BeforeEach
    void targets() throws Exception {
        String target = "package p;\n"
                + "import io.sluice.spi.Payload; import io.sluice.spi.sink.*; import java.util.*;\n"
                + "@org.pf4j.Extension public class %s implements TargetFactory {\n"
                + "  public String identifier() { return \"%s\"; }\n"
                + "  public Set<org.apache.flink.configuration.ConfigOption<?>> optionalOptions() {\n"
                + "    return Set.of(io.sluice.spi.FileOptions.ROLLING_FILE_SIZE); }\n"
                + "  public Optional<ModeDefaults> modeDefaults() {\n"
                + "    return Optional.of((c, bounded) -> {\n"
                + "      if (!bounded) throw new IllegalArgumentException(\"%s wants BATCH\");\n"
                + "      return Map.of(\"sink.rolling-policy.file-size\", \"%s\"); }); }\n"
                + "  public TargetWriter createWriter(SinkContext c, List<Payload> s) { throw new UnsupportedOperationException(); }\n"
                + "  public TargetCommitter createCommitter(SinkContext c) { throw new UnsupportedOperationException(); }\n"
                + "}\n";
        TestPlugins.plugin(pluginsDir, "p")
                .source("p.Modal", String.format(target, "Modal", "modal", "modal", "1kb"))
                .source("p.Broken", String.format(target, "Broken", "broken", "broken", "lots"))
                .build();
    }

    private SluiceSink sink(String target, Map<String, String> options) {
        Map<String, String> all = new LinkedHashMap<>(options);
        all.put("target", target);
        return SluiceSink.of(new SinkDescriptor(
                target, "p", all, ROW, List.of(), PluginSettings.of(pluginsDir), List.of(), false, Map.of()));
    }

    private static DataStream<RowData> input(RuntimeExecutionMode mode) {
        Configuration conf = new Configuration();
        conf.set(ExecutionOptions.RUNTIME_MODE, mode);
        return StreamExecutionEnvironment.getExecutionEnvironment(conf)
                .fromData(InternalTypeInfo.of(ROW), (RowData) GenericRowData.of(1L));
    }

    @Test
    void aBatchJobGetsTheTargetsDefaultWhereTheSinkNamesNone() {
        SluiceSink defaulted = sink("modal", Map.of());
        defaulted.addPreWriteTopology(input(RuntimeExecutionMode.BATCH));
        assertThat(defaulted.descriptor().options()).containsEntry("sink.rolling-policy.file-size", "1kb");

        SluiceSink named = sink("modal", Map.of("sink.rolling-policy.file-size", "2mb"));
        named.addPreWriteTopology(input(RuntimeExecutionMode.BATCH));
        assertThat(named.descriptor().options()).containsEntry("sink.rolling-policy.file-size", "2mb");
    }

    @Test
    void aTargetRefusesAModeBeforeTheJobRuns() {
        assertThatThrownBy(() -> sink("modal", Map.of()).addPreWriteTopology(input(RuntimeExecutionMode.STREAMING)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("modal wants BATCH");
    }

    @Test
    void aDefaultIsCheckedLikeTheSinksOwnOptions() {
        assertThatThrownBy(() -> sink("broken", Map.of()).addPreWriteTopology(input(RuntimeExecutionMode.BATCH)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("sink.rolling-policy.file-size")
                .hasMessageContaining("lots");
    }
}

package io.sluice.runtime.plugin;

import io.sluice.runtime.plugin.wrap.SpiWrappers;
import io.sluice.spi.SluiceFactory;
import io.sluice.spi.catalog.TargetCatalogFactory;
import io.sluice.spi.compact.FileCompactor;
import io.sluice.spi.compact.FileCompactorFactory;
import io.sluice.spi.format.BulkReadingFormat;
import io.sluice.spi.format.BulkWritingFormat;
import io.sluice.spi.format.FormatFactory;
import io.sluice.spi.format.RowEncodingFormat;
import io.sluice.spi.format.StreamReadingFormat;
import io.sluice.spi.partition.CommitPolicy;
import io.sluice.spi.partition.CommitPolicyFactory;
import io.sluice.spi.partition.PartitionTimeExtractor;
import io.sluice.spi.partition.PartitionTimeExtractorFactory;
import io.sluice.spi.sink.BucketAssigner;
import io.sluice.spi.sink.BucketAssignerFactory;
import io.sluice.spi.sink.RollingPolicy;
import io.sluice.spi.sink.RollingPolicyFactory;
import io.sluice.spi.sink.TargetCommitter;
import io.sluice.spi.sink.TargetFactory;
import io.sluice.spi.sink.TargetWriter;
import io.sluice.spi.source.FileEnumeratorFactory;
import io.sluice.spi.source.ScanPlanner;
import io.sluice.spi.source.ScanSourceFactory;
import io.sluice.spi.source.ScanSplitReader;
import io.sluice.spi.source.SplitRows;
import io.sluice.testshared.TcclProbe;

import org.apache.flink.api.common.serialization.BulkWriter;
import org.apache.flink.api.common.serialization.Encoder;
import org.apache.flink.connector.file.src.enumerate.FileEnumerator;
import org.apache.flink.connector.file.src.reader.BulkFormat;
import org.apache.flink.connector.file.src.reader.StreamFormat;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static io.sluice.runtime.plugin.TestPlugins.src;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * Proves rule 5 of the plugin boundary with a real plugin that implements every SPI: every method
 * of every SPI object the registry hands out (factories and what they create) runs with the
 * plugin's class loader as the thread context class loader, and the caller's context class loader
 * is back afterwards, also when the plugin method throws.
 */
class PluginContextClassLoaderTest {

    private static final String PROBE = "io.sluice.testshared.TcclProbe";

    @TempDir
    Path tmp;

    private PluginRegistry registry;
    private ClassLoader original;
    private URLClassLoader callerLoader;

    @BeforeEach
    void setUp() throws Exception {
        original = Thread.currentThread().getContextClassLoader();
        Path dir = tmp.resolve("plugins");
        probePlugin(dir).build();
        Map<String, String> options = new LinkedHashMap<>();
        options.put(PluginSettings.PLUGINS_DIR, dir.toString());
        // the plugin reports through the framework's TcclProbe
        options.put(PluginSettings.PARENT_FIRST_ADDITIONAL, "io.sluice.testshared.");
        registry = PluginRegistry.get(PluginSettings.fromOptions(options));
        callerLoader = new URLClassLoader("caller", new URL[0], null);
        TcclProbe.drain();
    }

    @AfterEach
    void tearDown() throws Exception {
        TcclProbe.failing(false);
        Thread.currentThread().setContextClassLoader(original);
        if (callerLoader != null) {
            callerLoader.close();
        }
        if (registry != null) {
            registry.close();
        }
    }

    @Test
    void everySpiCallRunsUnderThePluginLoaderAndRestoresTheCallersAlsoWhenThePluginThrows() throws Exception {
        assertThat(registry.plugins())
                .singleElement()
                .satisfies(p -> assertThat(p.status()).as(p.toString()).isEqualTo(PluginInfo.Status.LOADED));
        ClassLoader pluginLoader = registry.classLoader("probe");
        Thread.currentThread().setContextClassLoader(callerLoader);

        // 1. call every method of every SPI object reachable from the registry, normally
        List<Invocation> invocations = new ArrayList<>();
        Set<Class<?>> visited = new LinkedHashSet<>();
        for (Class<? extends SluiceFactory> type : SpiWrappers.SPI_TYPES) {
            // a format writes row by row or in bulk: the bulk capabilities are a second probe format's
            boolean bulkFormat = type == BulkWritingFormat.class || type == BulkReadingFormat.class;
            walk(type, registry.find(type, bulkFormat ? "probe-bulk" : "probe"), pluginLoader, invocations, visited);
        }
        assertThat(visited)
                .containsExactlyInAnyOrder(
                        TargetFactory.class,
                        TargetWriter.class,
                        TargetCommitter.class,
                        io.sluice.spi.distribution.DistributionKey.class,
                        FormatFactory.class,
                        RowEncodingFormat.class,
                        BulkWritingFormat.class,
                        StreamReadingFormat.class,
                        BulkReadingFormat.class,
                        Encoder.class,
                        BulkWriter.Factory.class,
                        BulkWriter.class,
                        BucketAssignerFactory.class,
                        BucketAssigner.class,
                        RollingPolicyFactory.class,
                        RollingPolicy.class,
                        CommitPolicyFactory.class,
                        CommitPolicy.class,
                        PartitionTimeExtractorFactory.class,
                        PartitionTimeExtractor.class,
                        StreamFormat.class,
                        StreamFormat.Reader.class,
                        BulkFormat.class,
                        BulkFormat.Reader.class,
                        BulkFormat.RecordIterator.class,
                        FileEnumeratorFactory.class,
                        FileEnumerator.class,
                        FileCompactorFactory.class,
                        FileCompactor.class,
                        TargetCatalogFactory.class,
                        org.apache.flink.table.catalog.Catalog.class,
                        ScanSourceFactory.class,
                        ScanPlanner.class,
                        ScanSplitReader.class,
                        SplitRows.class,
                        io.sluice.spi.dynamic.DynamicTables.class,
                        io.sluice.spi.changes.ChangeSupport.class,
                        io.sluice.spi.distribution.DistributionSupport.class,
                        io.sluice.spi.partition.PartitionSupport.class,
                        io.sluice.spi.compact.CompactionSupport.class,
                        io.sluice.spi.dynamic.DynamicTableSupport.class,
                        io.sluice.spi.sink.ModeDefaults.class,
                        io.sluice.spi.sink.OverwriteSupport.class);
        assertThat(invocations).hasSizeGreaterThanOrEqualTo(110);

        // 2. again, with every plugin method throwing
        TcclProbe.failing(true);
        for (Invocation call : invocations) {
            try {
                call.method.invoke(call.target, arguments(call.method));
                fail("expected " + call + " to throw");
            } catch (InvocationTargetException e) {
                assertThat(e.getCause())
                        .as(call.toString())
                        .isInstanceOf(TcclProbe.Failure.class)
                        .hasMessage("probe failure in " + call.label);
            }
            assertThat(Thread.currentThread().getContextClassLoader())
                    .as("context loader after failed " + call)
                    .isSameAs(callerLoader);
            assertCalledUnderPluginLoader(call.label, pluginLoader);
        }
    }

    /** Calls every method of {@code type} on {@code target}, then walks the SPI objects they return. */
    private void walk(
            Class<?> type, Object target, ClassLoader pluginLoader, List<Invocation> invocations, Set<Class<?>> visited)
            throws Exception {
        if (!visited.add(type)) {
            return;
        }
        assertThat(target)
                .as("what the framework hands out for " + type.getName())
                .isInstanceOf(PluginBound.class);
        assertThat(((PluginBound) target).pluginClassLoader()).isSameAs(pluginLoader);
        Method[] methods = type.getMethods();
        Arrays.sort(methods, Comparator.comparing(Method::toGenericString));
        for (Method method : methods) {
            if (Modifier.isStatic(method.getModifiers())) {
                continue;
            }
            // the format capabilities share one probe's identifier and options, labelled FormatFactory
            boolean formatBase =
                    method.getDeclaringClass() == SluiceFactory.class && FormatFactory.class.isAssignableFrom(type);
            String label = (formatBase ? "FormatFactory" : label(type)) + "." + method.getName();
            Object result;
            try {
                result = method.invoke(target, arguments(method));
            } catch (InvocationTargetException e) {
                throw new AssertionError(label + " failed", e.getCause());
            }
            assertThat(Thread.currentThread().getContextClassLoader())
                    .as("context loader after " + label)
                    .isSameAs(callerLoader);
            assertCalledUnderPluginLoader(label, pluginLoader);
            invocations.add(new Invocation(label, target, method));
            if (result != null && isSpiType(method.getReturnType())) {
                walk(method.getReturnType(), result, pluginLoader, invocations, visited);
            } else if (result instanceof java.util.Optional
                    && ((java.util.Optional<?>) result).isPresent()
                    && method.getGenericReturnType() instanceof java.lang.reflect.ParameterizedType) {
                // an SPI object handed out in an Optional (TargetFactory.dynamicTables) is wrapped too
                java.lang.reflect.Type held = ((java.lang.reflect.ParameterizedType) method.getGenericReturnType())
                        .getActualTypeArguments()[0];
                if (held instanceof Class && isSpiType((Class<?>) held)) {
                    walk((Class<?>) held, ((java.util.Optional<?>) result).get(), pluginLoader, invocations, visited);
                }
            }
        }
    }

    private static void assertCalledUnderPluginLoader(String label, ClassLoader pluginLoader) {
        List<TcclProbe.Call> calls = TcclProbe.drain();
        assertThat(calls).as("plugin calls made by " + label).hasSize(1);
        TcclProbe.Call call = calls.get(0);
        assertThat(call.method).isEqualTo(label);
        assertThat(call.pluginClassLoader)
                .as("class loader of the plugin code of " + label)
                .isSameAs(pluginLoader);
        assertThat(call.contextClassLoader)
                .as("context class loader inside " + label)
                .isSameAs(pluginLoader);
    }

    private static boolean isSpiType(Class<?> type) {
        return type.isInterface()
                && (type.getName().startsWith("io.sluice.spi.")
                        || type == Encoder.class
                        || type == BulkWriter.class
                        || type == BulkWriter.Factory.class
                        || type == StreamFormat.class
                        || type == StreamFormat.Reader.class
                        || type == BulkFormat.class
                        || type == BulkFormat.Reader.class
                        || type == BulkFormat.RecordIterator.class
                        || type == FileEnumerator.class
                        || type == org.apache.flink.table.catalog.Catalog.class);
    }

    private static String label(Class<?> type) {
        return type.getName().substring(type.getName().lastIndexOf('.') + 1);
    }

    private static Object[] arguments(Method method) {
        Class<?>[] types = method.getParameterTypes();
        Object[] args = new Object[types.length];
        for (int i = 0; i < types.length; i++) {
            if (types[i] == boolean.class) {
                args[i] = false;
            } else if (types[i] == long.class) {
                args[i] = 0L;
            } else if (types[i] == int.class) {
                args[i] = 0;
            } else if (types[i].isPrimitive()) {
                throw new IllegalStateException("add a default for " + types[i] + " in " + method);
            }
        }
        return args;
    }

    private static final class Invocation {
        final String label;
        final Object target;
        final Method method;

        Invocation(String label, Object target, Method method) {
            this.label = label;
            this.target = target;
            this.method = method;
        }

        @Override
        public String toString() {
            return label;
        }
    }

    // --- the probe plugin: every method of every SPI reports to TcclProbe first --------------------

    private static String factoryMethods(String spi) {
        return src(
                "  public String identifier() { " + PROBE + ".enter(\"" + spi
                        + ".identifier\", this); return \"probe\"; }",
                "  public java.util.Set<org.apache.flink.configuration.ConfigOption<?>> requiredOptions() {",
                "    " + PROBE + ".enter(\"" + spi
                        + ".requiredOptions\", this); return java.util.Collections.emptySet(); }",
                "  public java.util.Set<org.apache.flink.configuration.ConfigOption<?>> optionalOptions() {",
                "    " + PROBE + ".enter(\"" + spi
                        + ".optionalOptions\", this); return java.util.Collections.emptySet(); }",
                "  public java.util.Set<String> optionPrefixes() {",
                "    " + PROBE + ".enter(\"" + spi
                        + ".optionPrefixes\", this); return java.util.Collections.emptySet(); }");
    }

    /** A Catalog whose every method (Flink has some fifty) reports to the probe and returns a default. */
    private static String probeCatalog() {
        StringBuilder src =
                new StringBuilder("public class ProbeCatalog implements org.apache.flink.table.catalog.Catalog {\n");
        for (Method m : org.apache.flink.table.catalog.Catalog.class.getMethods()) {
            if (Modifier.isStatic(m.getModifiers())) {
                continue;
            }
            Class<?> r = m.getReturnType();
            StringBuilder params = new StringBuilder();
            for (int i = 0; i < m.getParameterCount(); i++) {
                params.append(i == 0 ? "" : ", ")
                        .append(m.getParameterTypes()[i].getCanonicalName())
                        .append(" a")
                        .append(i);
            }
            String value = r == void.class
                    ? ""
                    : r == boolean.class
                            ? " return false;"
                            : r == long.class
                                    ? " return 0L;"
                                    : r == java.util.Optional.class
                                            ? " return java.util.Optional.empty();"
                                            : " return null;";
            src.append("  @SuppressWarnings({\"rawtypes\", \"unchecked\"}) public ")
                    .append(r.getCanonicalName())
                    .append(' ')
                    .append(m.getName())
                    .append('(')
                    .append(params)
                    .append(") { ")
                    .append(probe("Catalog." + m.getName()))
                    .append(value)
                    .append(" }\n");
        }
        return src.append("}\n").toString();
    }

    private static String probe(String label) {
        return PROBE + ".enter(\"" + label + "\", this);";
    }

    static TestPlugins.Builder probePlugin(Path pluginsDir) {
        String p = "package testplugin.probe;\n"
                + "import io.sluice.spi.format.*; import io.sluice.spi.partition.*; import io.sluice.spi.sink.*; import io.sluice.spi.Payload;\n"
                + "import io.sluice.spi.source.*; import io.sluice.spi.compact.*;\n"
                + "import org.apache.flink.api.common.serialization.*; import org.apache.flink.table.data.RowData;\n"
                + "import org.apache.flink.core.fs.FSDataOutputStream; import org.apache.flink.core.fs.FSDataInputStream;\n"
                + "import org.apache.flink.configuration.Configuration; import org.apache.flink.api.common.typeinfo.TypeInformation;\n"
                + "import org.apache.flink.connector.file.src.FileSourceSplit; import org.apache.flink.connector.file.src.reader.*;\n"
                + "import org.apache.flink.connector.file.src.enumerate.FileEnumerator;\n"
                + "import org.apache.flink.connector.file.src.util.*;\n"
                + "import java.io.*; import java.time.LocalDateTime; import java.util.*;\n";
        return TestPlugins.plugin(pluginsDir, "probe")
                .source(
                        "testplugin.probe.ProbeTargetFactory",
                        p
                                + src(
                                        "@org.pf4j.Extension",
                                        "public class ProbeTargetFactory implements TargetFactory {",
                                        factoryMethods("TargetFactory"),
                                        "  public void validate(SinkContext c) { " + probe("TargetFactory.validate")
                                                + " }",
                                        "  public TargetWriter createWriter(SinkContext c, List<Payload> s) throws IOException {",
                                        "    " + probe("TargetFactory.createWriter") + " return new ProbeWriter(); }",
                                        "  public TargetCommitter createCommitter(SinkContext c) throws IOException {",
                                        "    " + probe("TargetFactory.createCommitter")
                                                + " return new ProbeCommitter(); }",
                                        "  public Optional<io.sluice.spi.changes.ChangeSupport> changes() { "
                                                + probe("TargetFactory.changes")
                                                + " return Optional.of(new ProbeFacets()); }",
                                        "  public Optional<io.sluice.spi.distribution.DistributionSupport> distribution() { "
                                                + probe("TargetFactory.distribution")
                                                + " return Optional.of(new ProbeFacets()); }",
                                        "  public Optional<io.sluice.spi.partition.PartitionSupport> partitions() { "
                                                + probe("TargetFactory.partitions")
                                                + " return Optional.of(new ProbeFacets()); }",
                                        "  public Optional<io.sluice.spi.compact.CompactionSupport> compaction() { "
                                                + probe("TargetFactory.compaction")
                                                + " return Optional.of(new ProbeFacets()); }",
                                        "  public Optional<io.sluice.spi.dynamic.DynamicTableSupport> dynamicTables() { "
                                                + probe("TargetFactory.dynamicTables")
                                                + " return Optional.of(new ProbeFacets()); }",
                                        "  public Optional<ModeDefaults> modeDefaults() { "
                                                + probe("TargetFactory.modeDefaults")
                                                + " return Optional.of(new ProbeFacets()); }",
                                        "  public Optional<OverwriteSupport> overwrite() { "
                                                + probe("TargetFactory.overwrite")
                                                + " return Optional.of(new ProbeFacets()); }",
                                        "}"))
                .source(
                        "testplugin.probe.ProbeFacets",
                        p
                                + src(
                                        "public class ProbeFacets implements io.sluice.spi.changes.ChangeSupport,",
                                        "    io.sluice.spi.distribution.DistributionSupport, io.sluice.spi.partition.PartitionSupport,",
                                        "    io.sluice.spi.compact.CompactionSupport, io.sluice.spi.dynamic.DynamicTableSupport,",
                                        "    ModeDefaults, OverwriteSupport {",
                                        "  public boolean acceptsChanges(SinkContext c) { "
                                                + probe("ChangeSupport.acceptsChanges") + " return false; }",
                                        "  public List<String> changeKey(SinkContext c) { "
                                                + probe("ChangeSupport.changeKey") + " return new ArrayList<>(); }",
                                        "  public java.util.Set<io.sluice.spi.distribution.DistributionMode> modes(SinkContext c) {",
                                        "    " + probe("DistributionSupport.modes")
                                                + " return java.util.EnumSet.allOf(io.sluice.spi.distribution.DistributionMode.class); }",
                                        "  public java.util.Optional<io.sluice.spi.distribution.DistributionMode> tableMode(SinkContext c) {",
                                        "    " + probe("DistributionSupport.tableMode")
                                                + " return java.util.Optional.empty(); }",
                                        "  public io.sluice.spi.distribution.DistributionKey key(SinkContext c) {",
                                        "    " + probe("DistributionSupport.key")
                                                + " return new ProbeDistributionKey(); }",
                                        "  public io.sluice.spi.distribution.DistributionKey rangeKey(SinkContext c) {",
                                        "    " + probe("DistributionSupport.rangeKey")
                                                + " return new ProbeDistributionKey(); }",
                                        "  public boolean requiresGrouping(SinkContext c) { "
                                                + probe("PartitionSupport.requiresGrouping") + " return true; }",
                                        "  public java.util.Optional<String> fileFormat(SinkContext c) { "
                                                + probe("CompactionSupport.fileFormat")
                                                + " return java.util.Optional.empty(); }",
                                        "  public io.sluice.spi.dynamic.DynamicTables open(SinkContext c) { "
                                                + probe("DynamicTableSupport.open")
                                                + " return new ProbeDynamicTables(); }",
                                        "  public boolean supportsWriterOpenings() { "
                                                + probe("DynamicTableSupport.supportsWriterOpenings")
                                                + " return true; }",
                                        "  public Map<String, String> defaults(SinkContext c, boolean b) { "
                                                + probe("ModeDefaults.defaults") + " return new HashMap<>(); }",
                                        "  public void checkOverwrite(SinkContext c) { "
                                                + probe("OverwriteSupport.checkOverwrite") + " }",
                                        "}"))
                .source(
                        "testplugin.probe.ProbeDynamicTables",
                        p
                                + src(
                                        "import io.sluice.spi.dynamic.*;",
                                        "public class ProbeDynamicTables implements DynamicTables {",
                                        "  public Optional<TableState> load(String t) { " + probe("DynamicTables.load")
                                                + " return Optional.empty(); }",
                                        "  public TableState create(TableRequest r) { " + probe("DynamicTables.create")
                                                + " return TableState.schemaless(\"t\", List.of()); }",
                                        "  public TableState update(TableRequest r) { " + probe("DynamicTables.update")
                                                + " return TableState.schemaless(\"t\", List.of()); }",
                                        "  public Map<String, String> sinkOptions(String t, String b, List<String> s,"
                                                + " Boolean u, List<String> e) { "
                                                + probe("DynamicTables.sinkOptions") + " return Map.of(); }",
                                        "  public void close() { " + probe("DynamicTables.close") + " }",
                                        "}"))
                .source(
                        "testplugin.probe.ProbeWriter",
                        p
                                + src(
                                        "public class ProbeWriter implements TargetWriter {",
                                        "  public void write(RowData row, RecordContext c) throws IOException { "
                                                + probe("TargetWriter.write") + " }",
                                        "  public List<PendingCommit> prepareCommit(boolean end) throws IOException {",
                                        "    " + probe("TargetWriter.prepareCommit") + " return new ArrayList<>(); }",
                                        "  public List<Payload> snapshotState(long id) throws IOException {",
                                        "    " + probe("TargetWriter.snapshotState") + " return new ArrayList<>(); }",
                                        "  public long processingTimeInterval() { "
                                                + probe("TargetWriter.processingTimeInterval") + " return 5; }",
                                        "  public void onProcessingTime(long t) throws IOException { "
                                                + probe("TargetWriter.onProcessingTime") + " }",
                                        "  public boolean isIdle() { " + probe("TargetWriter.isIdle")
                                                + " return true; }",
                                        "  public void close() throws Exception { " + probe("TargetWriter.close")
                                                + " }",
                                        "}"))
                .source(
                        "testplugin.probe.ProbeDistributionKey",
                        p
                                + src(
                                        "public class ProbeDistributionKey implements io.sluice.spi.distribution.DistributionKey {",
                                        "  public byte[] of(RowData r) { " + probe("DistributionKey.of")
                                                + " return new byte[0]; }",
                                        "}"))
                .source(
                        "testplugin.probe.ProbeCommitter",
                        p
                                + src(
                                        "public class ProbeCommitter implements TargetCommitter {",
                                        "  public void commit(CommitRequest r) throws IOException { "
                                                + probe("TargetCommitter.commit") + " }",
                                        "  public java.util.Optional<org.apache.flink.core.fs.Path> partitionLocation(String id) {",
                                        "    " + probe("TargetCommitter.partitionLocation")
                                                + " return java.util.Optional.empty(); }",
                                        "  public List<org.apache.flink.core.fs.Path> visibleFiles(String id) {",
                                        "    " + probe("TargetCommitter.visibleFiles") + " return new ArrayList<>(); }",
                                        "  public void discard(List<io.sluice.spi.sink.PendingCommit> pending) { "
                                                + probe("TargetCommitter.discard") + " }",
                                        "  public void close() throws Exception { " + probe("TargetCommitter.close")
                                                + " }",
                                        "}"))
                .source(
                        "testplugin.probe.ProbeRowFile",
                        p + src("public interface ProbeRowFile extends RowEncodingFormat, StreamReadingFormat {}"))
                .source(
                        "testplugin.probe.ProbeBulkFile",
                        p + src("public interface ProbeBulkFile extends BulkWritingFormat, BulkReadingFormat {}"))
                .source(
                        "testplugin.probe.ProbeFormatFactory",
                        p
                                + src(
                                        "@org.pf4j.Extension",
                                        "public class ProbeFormatFactory implements ProbeRowFile {",
                                        factoryMethods("FormatFactory"),
                                        "  public Encoder<RowData> createEncoder(FormatContext c) {",
                                        "    " + probe("RowEncodingFormat.createEncoder")
                                                + " return new ProbeEncoder(); }",
                                        "  public StreamFormat<RowData> createStreamFormat(FormatContext c) {",
                                        "    " + probe("StreamReadingFormat.createStreamFormat")
                                                + " return new ProbeStreamFormat(); }",
                                        "}"))
                .source(
                        "testplugin.probe.ProbeBulkFormatFactory",
                        p
                                + src(
                                        "@org.pf4j.Extension",
                                        "public class ProbeBulkFormatFactory implements ProbeBulkFile {",
                                        factoryMethods("FormatFactory")
                                                .replace("return \"probe\"", "return \"probe-bulk\""),
                                        "  public BulkWriter.Factory<RowData> createBulkWriterFactory(FormatContext c) {",
                                        "    " + probe("BulkWritingFormat.createBulkWriterFactory")
                                                + " return new ProbeBulkWriterFactory(); }",
                                        "  public BulkFormat<RowData, FileSourceSplit> createBulkFormat(FormatContext c) {",
                                        "    " + probe("BulkReadingFormat.createBulkFormat")
                                                + " return new ProbeBulkFormat(); }",
                                        "}"))
                .source(
                        "testplugin.probe.ProbeStreamFormat",
                        p
                                + src(
                                        "public class ProbeStreamFormat implements StreamFormat<RowData> {",
                                        "  public StreamFormat.Reader<RowData> createReader(Configuration c, FSDataInputStream s, long l, long e) {",
                                        "    " + probe("StreamFormat.createReader")
                                                + " return new ProbeStreamReader(); }",
                                        "  public StreamFormat.Reader<RowData> restoreReader(Configuration c, FSDataInputStream s, long o, long l, long e) {",
                                        "    " + probe("StreamFormat.restoreReader")
                                                + " return new ProbeStreamReader(); }",
                                        "  public boolean isSplittable() { " + probe("StreamFormat.isSplittable")
                                                + " return false; }",
                                        "  public TypeInformation<RowData> getProducedType() { "
                                                + probe("StreamFormat.getProducedType") + " return null; }",
                                        "}"))
                .source(
                        "testplugin.probe.ProbeStreamReader",
                        p
                                + src(
                                        "public class ProbeStreamReader implements StreamFormat.Reader<RowData> {",
                                        "  public RowData read() { " + probe("StreamFormat$Reader.read")
                                                + " return null; }",
                                        "  public void close() { " + probe("StreamFormat$Reader.close") + " }",
                                        "  public CheckpointedPosition getCheckpointedPosition() {",
                                        "    " + probe("StreamFormat$Reader.getCheckpointedPosition")
                                                + " return null; }",
                                        "}"))
                .source(
                        "testplugin.probe.ProbeBulkFormat",
                        p
                                + src(
                                        "public class ProbeBulkFormat implements BulkFormat<RowData, FileSourceSplit> {",
                                        "  public BulkFormat.Reader<RowData> createReader(Configuration c, FileSourceSplit s) {",
                                        "    " + probe("BulkFormat.createReader") + " return new ProbeBulkReader(); }",
                                        "  public BulkFormat.Reader<RowData> restoreReader(Configuration c, FileSourceSplit s) {",
                                        "    " + probe("BulkFormat.restoreReader") + " return new ProbeBulkReader(); }",
                                        "  public boolean isSplittable() { " + probe("BulkFormat.isSplittable")
                                                + " return false; }",
                                        "  public TypeInformation<RowData> getProducedType() { "
                                                + probe("BulkFormat.getProducedType") + " return null; }",
                                        "}"))
                .source(
                        "testplugin.probe.ProbeBulkReader",
                        p
                                + src(
                                        "public class ProbeBulkReader implements BulkFormat.Reader<RowData> {",
                                        "  public BulkFormat.RecordIterator<RowData> readBatch() { "
                                                + probe("BulkFormat$Reader.readBatch") + " return new ProbeBatch(); }",
                                        "  public void close() { " + probe("BulkFormat$Reader.close") + " }",
                                        "}"))
                .source(
                        "testplugin.probe.ProbeBatch",
                        p
                                + src(
                                        "public class ProbeBatch implements BulkFormat.RecordIterator<RowData> {",
                                        "  public RecordAndPosition<RowData> next() { "
                                                + probe("BulkFormat$RecordIterator.next") + " return null; }",
                                        "  public void releaseBatch() { "
                                                + probe("BulkFormat$RecordIterator.releaseBatch") + " }",
                                        "}"))
                .source(
                        "testplugin.probe.ProbeCompactorFactory",
                        p
                                + src(
                                        "@org.pf4j.Extension",
                                        "public class ProbeCompactorFactory implements FileCompactorFactory {",
                                        factoryMethods("FileCompactorFactory"),
                                        "  public void validate(CompactorContext c) { "
                                                + probe("FileCompactorFactory.validate") + " }",
                                        "  public FileCompactor createCompactor(CompactorContext c) {",
                                        "    " + probe("FileCompactorFactory.createCompactor")
                                                + " return new ProbeCompactor(); }",
                                        "}"))
                .source(
                        "testplugin.probe.ProbeCompactor",
                        p
                                + src(
                                        "public class ProbeCompactor implements FileCompactor {",
                                        "  public void compact(CompactionInputs in, CompactionOutput out) throws IOException {",
                                        "    " + probe("FileCompactor.compact") + " }",
                                        "  public boolean mustSeeEveryUnit() { "
                                                + probe("FileCompactor.mustSeeEveryUnit") + " return false; }",
                                        "}"))
                .source(
                        "testplugin.probe.ProbeCatalogFactory",
                        p
                                + src(
                                        "@org.pf4j.Extension",
                                        "public class ProbeCatalogFactory implements io.sluice.spi.catalog.TargetCatalogFactory {",
                                        factoryMethods("TargetCatalogFactory"),
                                        "  public org.apache.flink.table.catalog.Catalog createCatalog(io.sluice.spi.catalog.CatalogContext c) {",
                                        "    " + probe("TargetCatalogFactory.createCatalog")
                                                + " return new ProbeCatalog(); }",
                                        "  public Map<String, String> tableOptions(io.sluice.spi.catalog.CatalogContext c,",
                                        "      org.apache.flink.table.catalog.ObjectPath t, Map<String, String> p) {",
                                        "    " + probe("TargetCatalogFactory.tableOptions")
                                                + " return new HashMap<>(); }",
                                        "}"))
                .source("testplugin.probe.ProbeCatalog", p + probeCatalog())
                .source(
                        "testplugin.probe.ProbeEnumeratorFactory",
                        p
                                + src(
                                        "@org.pf4j.Extension",
                                        "public class ProbeEnumeratorFactory implements FileEnumeratorFactory {",
                                        factoryMethods("FileEnumeratorFactory"),
                                        "  public FileEnumerator create(SourceContext c) {",
                                        "    " + probe("FileEnumeratorFactory.create")
                                                + " return new ProbeEnumerator(); }",
                                        "}"))
                .source(
                        "testplugin.probe.ProbeEnumerator",
                        p
                                + src(
                                        "public class ProbeEnumerator implements FileEnumerator {",
                                        "  public Collection<FileSourceSplit> enumerateSplits(org.apache.flink.core.fs.Path[] p, int n) {",
                                        "    " + probe("FileEnumerator.enumerateSplits")
                                                + " return new ArrayList<>(); }",
                                        "}"))
                .source(
                        "testplugin.probe.ProbeScanSourceFactory",
                        p
                                + src(
                                        "@org.pf4j.Extension",
                                        "public class ProbeScanSourceFactory implements ScanSourceFactory {",
                                        factoryMethods("ScanSourceFactory"),
                                        "  public void validate(SourceContext c) { "
                                                + probe("ScanSourceFactory.validate") + " }",
                                        "  public Optional<org.apache.flink.table.types.logical.RowType> tableRowType(",
                                        "      org.apache.flink.configuration.ReadableConfig o) {",
                                        "    " + probe("ScanSourceFactory.tableRowType")
                                                + " return Optional.empty(); }",
                                        "  public Optional<Payload> pushFilters(SourceContext c,",
                                        "      List<org.apache.flink.table.expressions.ResolvedExpression> f) {",
                                        "    " + probe("ScanSourceFactory.pushFilters") + " return Optional.empty(); }",
                                        "  public java.util.OptionalInt inferParallelism(SourceContext c, int u, boolean r) {",
                                        "    " + probe("ScanSourceFactory.inferParallelism")
                                                + " return java.util.OptionalInt.empty(); }",
                                        "  public Optional<java.time.Duration> monitorInterval(SourceContext c) {",
                                        "    " + probe("ScanSourceFactory.monitorInterval")
                                                + " return Optional.empty(); }",
                                        "  public Optional<java.time.Duration> lookupReloadInterval(SourceContext c) {",
                                        "    " + probe("ScanSourceFactory.lookupReloadInterval")
                                                + " return Optional.empty(); }",
                                        "  public boolean prunesPartitions(SourceContext c) { "
                                                + probe("ScanSourceFactory.prunesPartitions") + " return true; }",
                                        "  public boolean catalogListsPartitions(SourceContext c) { "
                                                + probe("ScanSourceFactory.catalogListsPartitions")
                                                + " return false; }",
                                        "  public List<Map<String, String>> listPartitions(SourceContext c) throws IOException {",
                                        "    " + probe("ScanSourceFactory.listPartitions")
                                                + " return new ArrayList<>(); }",
                                        "  public ScanPlanner createPlanner(SourceContext c) throws IOException {",
                                        "    " + probe("ScanSourceFactory.createPlanner")
                                                + " return new ProbeScanPlanner(); }",
                                        "  public ScanSplitReader createReader(SourceContext c) throws IOException {",
                                        "    " + probe("ScanSourceFactory.createReader")
                                                + " return new ProbeScanSplitReader(); }",
                                        "}"))
                .source(
                        "testplugin.probe.ProbeScanPlanner",
                        p
                                + src(
                                        "public class ProbeScanPlanner implements ScanPlanner {",
                                        "  public ScanPlan plan(Payload position) throws IOException {",
                                        "    " + probe("ScanPlanner.plan")
                                                + " return new ScanPlan(new ArrayList<>(), null); }",
                                        "  public void close() throws IOException { " + probe("ScanPlanner.close")
                                                + " }",
                                        "}"))
                .source(
                        "testplugin.probe.ProbeScanSplitReader",
                        p
                                + src(
                                        "public class ProbeScanSplitReader implements ScanSplitReader {",
                                        "  public SplitRows open(Payload split, long offset, long skip) throws IOException {",
                                        "    " + probe("ScanSplitReader.open") + " return new ProbeSplitRows(); }",
                                        "  public void close() throws IOException { " + probe("ScanSplitReader.close")
                                                + " }",
                                        "}"))
                .source(
                        "testplugin.probe.ProbeSplitRows",
                        p
                                + src(
                                        "public class ProbeSplitRows implements SplitRows {",
                                        "  public RowData next() throws IOException { " + probe("SplitRows.next")
                                                + " return null; }",
                                        "  public long offset() { " + probe("SplitRows.offset") + " return 0; }",
                                        "  public long recordsToSkip() { " + probe("SplitRows.recordsToSkip")
                                                + " return 0; }",
                                        "  public boolean batched() { " + probe("SplitRows.batched")
                                                + " return false; }",
                                        "  public BulkFormat.RecordIterator<RowData> nextBatch() throws IOException { "
                                                + probe("SplitRows.nextBatch") + " return null; }",
                                        "  public void close() throws IOException { " + probe("SplitRows.close") + " }",
                                        "}"))
                .source(
                        "testplugin.probe.ProbeEncoder",
                        p
                                + src(
                                        "public class ProbeEncoder implements Encoder<RowData> {",
                                        "  public void encode(RowData row, OutputStream out) throws IOException { "
                                                + probe("Encoder.encode") + " }",
                                        "}"))
                .source(
                        "testplugin.probe.ProbeBulkWriterFactory",
                        p
                                + src(
                                        "public class ProbeBulkWriterFactory implements BulkWriter.Factory<RowData> {",
                                        "  public BulkWriter<RowData> create(FSDataOutputStream out) throws IOException {",
                                        "    " + probe("BulkWriter$Factory.create")
                                                + " return new ProbeBulkWriter(); }",
                                        "}"))
                .source(
                        "testplugin.probe.ProbeBulkWriter",
                        p
                                + src(
                                        "public class ProbeBulkWriter implements BulkWriter<RowData> {",
                                        "  public void addElement(RowData row) throws IOException { "
                                                + probe("BulkWriter.addElement") + " }",
                                        "  public void flush() throws IOException { " + probe("BulkWriter.flush")
                                                + " }",
                                        "  public void finish() throws IOException { " + probe("BulkWriter.finish")
                                                + " }",
                                        "}"))
                .source(
                        "testplugin.probe.ProbeBucketAssignerFactory",
                        p
                                + src(
                                        "@org.pf4j.Extension",
                                        "public class ProbeBucketAssignerFactory implements BucketAssignerFactory {",
                                        factoryMethods("BucketAssignerFactory"),
                                        "  public BucketAssigner create(SinkContext c) {",
                                        "    " + probe("BucketAssignerFactory.create")
                                                + " return new ProbeBucketAssigner(); }",
                                        "}"))
                .source(
                        "testplugin.probe.ProbeBucketAssigner",
                        p
                                + src(
                                        "public class ProbeBucketAssigner implements BucketAssigner {",
                                        "  public String bucketId(RowData row, RecordContext c) { "
                                                + probe("BucketAssigner.bucketId") + " return \"b\"; }",
                                        "}"))
                .source(
                        "testplugin.probe.ProbeRollingPolicyFactory",
                        p
                                + src(
                                        "@org.pf4j.Extension",
                                        "public class ProbeRollingPolicyFactory implements RollingPolicyFactory {",
                                        factoryMethods("RollingPolicyFactory"),
                                        "  public RollingPolicy create(SinkContext c) {",
                                        "    " + probe("RollingPolicyFactory.create")
                                                + " return new ProbeRollingPolicy(); }",
                                        "}"))
                .source(
                        "testplugin.probe.ProbeRollingPolicy",
                        p
                                + src(
                                        "public class ProbeRollingPolicy implements RollingPolicy {",
                                        "  public boolean shouldRollOnCheckpoint(PartFileState f) { "
                                                + probe("RollingPolicy.shouldRollOnCheckpoint") + " return false; }",
                                        "  public boolean shouldRollOnEvent(PartFileState f, RowData r) { "
                                                + probe("RollingPolicy.shouldRollOnEvent") + " return false; }",
                                        "  public boolean shouldRollOnProcessingTime(PartFileState f, long t) {",
                                        "    " + probe("RollingPolicy.shouldRollOnProcessingTime") + " return false; }",
                                        "}"))
                .source(
                        "testplugin.probe.ProbeCommitPolicyFactory",
                        p
                                + src(
                                        "@org.pf4j.Extension",
                                        "public class ProbeCommitPolicyFactory implements CommitPolicyFactory {",
                                        factoryMethods("CommitPolicyFactory"),
                                        "  public CommitPolicy create(SinkContext c) {",
                                        "    " + probe("CommitPolicyFactory.create")
                                                + " return new ProbeCommitPolicy(); }",
                                        "}"))
                .source(
                        "testplugin.probe.ProbeCommitPolicy",
                        p
                                + src(
                                        "public class ProbeCommitPolicy implements CommitPolicy {",
                                        "  public void commit(PartitionCommitContext c) throws Exception { "
                                                + probe("CommitPolicy.commit") + " }",
                                        "  public void close() throws Exception { " + probe("CommitPolicy.close")
                                                + " }",
                                        "}"))
                .source(
                        "testplugin.probe.ProbeExtractorFactory",
                        p
                                + src(
                                        "@org.pf4j.Extension",
                                        "public class ProbeExtractorFactory implements PartitionTimeExtractorFactory {",
                                        factoryMethods("PartitionTimeExtractorFactory"),
                                        "  public PartitionTimeExtractor create(SinkContext c) {",
                                        "    " + probe("PartitionTimeExtractorFactory.create")
                                                + " return new ProbeExtractor(); }",
                                        "}"))
                .source(
                        "testplugin.probe.ProbeExtractor",
                        p
                                + src(
                                        "public class ProbeExtractor implements PartitionTimeExtractor {",
                                        "  public LocalDateTime extract(List<String> keys, List<String> values) {",
                                        "    " + probe("PartitionTimeExtractor.extract")
                                                + " return LocalDateTime.MIN; }",
                                        "}"));
    }
}

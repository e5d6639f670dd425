package io.sluice.plugin.hive;

import org.apache.flink.api.common.serialization.BulkWriter;
import org.apache.flink.connectors.hive.write.HiveWriterFactory;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.catalog.hive.client.HiveShimLoader;
import org.apache.flink.table.catalog.hive.util.HiveTypeUtil;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.utils.TypeConversions;
import org.apache.hadoop.hive.metastore.api.SerDeInfo;
import org.apache.hadoop.hive.ql.exec.FileSinkOperator;
import org.apache.hadoop.hive.serde.serdeConstants;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapred.JobConf;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Properties;
import java.util.StringJoiner;
import java.util.function.Function;

/**
 * Parquet and ORC part files written by Hive's own mapred record writers, the table's output
 * format ({@code MapredParquetOutputFormat}, {@code OrcOutputFormat}) and SerDe, through upstream's
 * {@link HiveWriterFactory}: what {@code table.exec.hive.fallback-mapred-writer} = {@code true}
 * asks for. Hive's writers write to a Hadoop path, the part-file engine to a recoverable stream:
 * each part file is written into a local temporary file and copied into the part file's stream when
 * it finishes (at a roll or a checkpoint), so the engine's exactly-once commit holds as for the
 * native writers.
 */
final class HiveMapredWriterFactory implements BulkWriter.Factory<RowData> {

    private static final long serialVersionUID = 1L;

    private final transient HiveTableInfo table;
    private final transient RowType fileType;
    /** The table's SerDe properties with this writer's columns, see {@link #fileSchemaProperties}. */
    private final transient Properties fileProperties;

    HiveMapredWriterFactory(HiveTableInfo table, RowType fileType) {
        this.table = table;
        this.fileType = fileType;
        this.fileProperties = fileSchemaProperties(table.serdeProperties, fileType);
    }

    /**
     * Under the plugin's class loader as the thread's context loader: upstream's factory
     * deserializes the table's {@code SerDeInfo} with it, and a compaction unit calls this with the
     * context loader of the compactor's plugin, whose parent may hold another Hive.
     */
    @Override
    public BulkWriter<RowData> create(FSDataOutputStream out) throws IOException {
        Thread thread = Thread.currentThread();
        ClassLoader caller = thread.getContextClassLoader();
        thread.setContextClassLoader(HiveMapredWriterFactory.class.getClassLoader());
        try {
            return createUnderPluginLoader(out);
        } finally {
            thread.setContextClassLoader(caller);
        }
    }

    /**
     * The table's SerDe properties with the columns of this writer's rows. Hive's ORC and Parquet
     * writers take the file's schema from {@code columns} and {@code columns.types}, while the rows
     * come with the writer's own type: a dynamic sink evolves the table under writers that still
     * write the older schema (or that write the newer one before the metastore has it), and the
     * metastore's columns would give the file a column no row sets (an NPE in ORC's writer at the
     * first flush) or rows with a column the file lacks.
     */
    private static Properties fileSchemaProperties(Properties tableProperties, RowType fileType) {
        Properties properties = new Properties();
        properties.putAll(tableProperties);
        StringJoiner names = new StringJoiner(",");
        StringJoiner types = new StringJoiner(":");
        for (RowType.RowField field : fileType.getFields()) {
            names.add(field.getName());
            types.add(HiveTypeUtil.toHiveTypeInfo(TypeConversions.fromLogicalToDataType(field.getType()), false)
                    .getTypeName());
        }
        properties.setProperty(serdeConstants.LIST_COLUMNS, names.toString());
        properties.setProperty(serdeConstants.LIST_COLUMN_TYPES, types.toString());
        return properties;
    }

    private BulkWriter<RowData> createUnderPluginLoader(FSDataOutputStream out) throws IOException {
        java.nio.file.Path local = Files.createTempFile("sluice-hive-mapred-", ".part");
        Files.delete(local); // Hive's writers create the file themselves
        List<Column> columns = new ArrayList<>();
        for (RowType.RowField field : fileType.getFields()) {
            columns.add(Column.physical(field.getName(), TypeConversions.fromLogicalToDataType(field.getType())));
        }
        Class<?> outputFormat;
        try {
            outputFormat = Class.forName(table.outputFormat, true, HiveMapredWriterFactory.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new IOException(
                    "Hive table " + table.path.getFullName() + ": no output format " + table.outputFormat, e);
        }
        HiveWriterFactory factory = new HiveWriterFactory(
                new JobConf(table.hiveConf),
                outputFormat,
                new SerDeInfo(null, table.serde, new HashMap<>()),
                ResolvedSchema.of(columns),
                new String[0],
                fileProperties,
                HiveShimLoader.loadHiveShim(HiveShimLoader.getHiveVersion()),
                false);
        FileSinkOperator.RecordWriter writer = factory.createRecordWriter(new org.apache.hadoop.fs.Path(local.toUri()));
        Function<RowData, Writable> converter = factory.createRowDataConverter();
        return new BulkWriter<RowData>() {
            @Override
            public void addElement(RowData row) throws IOException {
                writer.write(converter.apply(row));
            }

            @Override
            public void flush() {
                // Hive's writer keeps its file open until finish: nothing reaches the part file before
            }

            @Override
            public void finish() throws IOException {
                Thread thread = Thread.currentThread();
                ClassLoader caller = thread.getContextClassLoader();
                thread.setContextClassLoader(HiveMapredWriterFactory.class.getClassLoader());
                try {
                    writer.close(false);
                    Files.copy(local, out);
                    out.flush();
                } finally {
                    thread.setContextClassLoader(caller);
                    Files.deleteIfExists(local);
                    // Hadoop's local file system leaves a checksum file next to it
                    Files.deleteIfExists(local.resolveSibling("." + local.getFileName() + ".crc"));
                }
            }
        };
    }
}

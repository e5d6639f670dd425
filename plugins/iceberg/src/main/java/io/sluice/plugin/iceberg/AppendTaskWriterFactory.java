package io.sluice.plugin.iceberg;

import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.MetricsConfig;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.deletes.EqualityDeleteWriter;
import org.apache.iceberg.deletes.PositionDeleteWriter;
import org.apache.iceberg.encryption.EncryptedOutputFile;
import org.apache.iceberg.flink.RowDataWrapper;
import org.apache.iceberg.flink.sink.FlinkFileWriterFactory;
import org.apache.iceberg.flink.sink.TaskWriterFactory;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.io.FileWriterFactory;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.io.PartitionedFanoutWriter;
import org.apache.iceberg.io.TaskWriter;
import org.apache.iceberg.io.UnpartitionedWriter;
import org.apache.iceberg.parquet.Parquet;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * The task writers of an append (no equality fields): Iceberg's own rolling writers, one file per
 * partition open at a time as with Iceberg's {@code RowDataTaskWriterFactory}, whose data files of
 * flat rows in Parquet {@link FlatParquetRowWriter} writes. Any other data file, and every delete
 * file, is Iceberg's Flink writers' ({@code FlinkFileWriterFactory}) to write. Upserts and deletes
 * by key go through {@code RowDataTaskWriterFactory} (see {@link IcebergTargetFactory}).
 */
final class AppendTaskWriterFactory implements TaskWriterFactory<RowData> {

    private static final long serialVersionUID = 1L;

    private final transient Table table;
    private final RowType rowType;
    private final long targetFileSize;
    private final FileFormat format;
    private final transient DataFiles dataFiles;
    private transient OutputFileFactory outputFiles;
    private transient String operationId; // null: Iceberg's random one

    AppendTaskWriterFactory(
            Table table,
            RowType rowType,
            long targetFileSize,
            FileFormat format,
            Map<String, String> writerProperties) {
        this.table = table;
        this.rowType = rowType;
        this.targetFileSize = targetFileSize;
        this.format = format;
        this.dataFiles = new DataFiles(table, rowType, format, writerProperties);
    }

    /** Whether its data files are written by {@link FlatParquetRowWriter}. */
    boolean writesFlatParquet() {
        return dataFiles.flatParquet;
    }

    /** Names the files after {@code id} instead of a random operation id; before {@link #initialize}. */
    void operationId(String id) {
        this.operationId = id;
    }

    @Override
    public void initialize(int taskId, int attemptId) {
        this.outputFiles = outputFiles(table, taskId, format, operationId);
    }

    /**
     * Iceberg's file names: the subtask, 0, the operation id ({@code null}: a random one) and a
     * number counting up from 1 in the order the files are created.
     */
    static OutputFileFactory outputFiles(Table table, int subtask, FileFormat format, String operationId) {
        OutputFileFactory.Builder builder = OutputFileFactory.builderFor(table, subtask, 0)
                .format(format)
                .ioSupplier(table::io)
                .defaultSpec(table.spec());
        if (operationId != null) {
            builder.operationId(operationId);
        }
        return builder.build();
    }

    @Override
    public TaskWriter<RowData> create() {
        if (outputFiles == null) {
            throw new IllegalStateException("create() before initialize()");
        }
        PartitionSpec spec = table.spec();
        if (spec.isUnpartitioned()) {
            return new UnpartitionedWriter<>(spec, format, dataFiles, outputFiles, table.io(), targetFileSize);
        }
        return new FanoutWriter(this, spec);
    }

    /** A file open per partition it has seen rows of since the last checkpoint. */
    private static final class FanoutWriter extends PartitionedFanoutWriter<RowData> {
        private final PartitionKey key;
        private final RowDataWrapper wrapper;

        FanoutWriter(AppendTaskWriterFactory factory, PartitionSpec spec) {
            super(
                    spec,
                    factory.format,
                    factory.dataFiles,
                    factory.outputFiles,
                    factory.table.io(),
                    factory.targetFileSize);
            Schema schema = factory.table.schema();
            this.key = new PartitionKey(spec, schema);
            this.wrapper = new RowDataWrapper(factory.rowType, schema.asStruct());
        }

        @Override
        protected PartitionKey partition(RowData row) {
            key.partition(wrapper.wrap(row));
            return key;
        }
    }

    /**
     * Data files: flat rows in Parquet through {@link FlatParquetRowWriter}, with the table's
     * properties, the writer's properties and the table's metrics configuration applied as
     * Iceberg's own factory applies them (and, like {@code RowDataTaskWriterFactory}, no sort order
     * recorded); everything else by Iceberg's factory.
     */
    private static final class DataFiles implements FileWriterFactory<RowData> {
        private final Table table;
        private final RowType rowType;
        private final Map<String, String> writerProperties;
        private final FlinkFileWriterFactory iceberg;
        private final boolean flatParquet;

        DataFiles(Table table, RowType rowType, FileFormat format, Map<String, String> writerProperties) {
            this.table = table;
            this.rowType = rowType;
            this.writerProperties = writerProperties;
            this.iceberg = new FlinkFileWriterFactory.Builder(table)
                    .dataFileFormat(format)
                    .dataSchema(table.schema())
                    .dataFlinkType(rowType)
                    .writerProperties(writerProperties)
                    .build();
            this.flatParquet = format == FileFormat.PARQUET && FlatParquetRowWriter.supports(table.schema(), rowType);
        }

        @Override
        public DataWriter<RowData> newDataWriter(EncryptedOutputFile file, PartitionSpec spec, StructLike partition) {
            if (!flatParquet) {
                return iceberg.newDataWriter(file, spec, partition);
            }
            Schema schema = table.schema();
            try {
                return Parquet.writeData(file)
                        .schema(schema)
                        .createWriterFunc(parquetSchema -> FlatParquetRowWriter.create(schema, rowType, parquetSchema))
                        .setAll(table.properties())
                        .setAll(writerProperties)
                        .metricsConfig(MetricsConfig.forTable(table))
                        .withSpec(spec)
                        .withPartition(partition)
                        .withKeyMetadata(file.keyMetadata())
                        .overwrite()
                        .build();
            } catch (IOException e) {
                throw new UncheckedIOException(
                        "Cannot create the data file "
                                + file.encryptingOutputFile().location(),
                        e);
            }
        }

        @Override
        public EqualityDeleteWriter<RowData> newEqualityDeleteWriter(
                EncryptedOutputFile file, PartitionSpec spec, StructLike partition) {
            return iceberg.newEqualityDeleteWriter(file, spec, partition);
        }

        @Override
        public PositionDeleteWriter<RowData> newPositionDeleteWriter(
                EncryptedOutputFile file, PartitionSpec spec, StructLike partition) {
            return iceberg.newPositionDeleteWriter(file, spec, partition);
        }
    }
}

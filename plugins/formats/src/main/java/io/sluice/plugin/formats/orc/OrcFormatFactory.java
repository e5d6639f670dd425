package io.sluice.plugin.formats.orc;

import io.sluice.plugin.formats.FileFormats;
import io.sluice.plugin.formats.bulk.FileNamingBulkFormat;
import io.sluice.plugin.formats.hadoop.HadoopConfigurations;
import io.sluice.spi.format.FormatContext;

import org.apache.flink.api.common.serialization.BulkWriter;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.connector.file.src.FileSourceSplit;
import org.apache.flink.connector.file.src.reader.BulkFormat;
import org.apache.flink.connector.file.table.PartitionFieldExtractor;
import org.apache.flink.orc.OrcColumnarRowInputFormat;
import org.apache.flink.orc.OrcSplitReaderUtil;
import org.apache.flink.orc.vector.RowDataVectorizer;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.columnar.vector.VectorizedColumnBatch;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.hadoop.conf.Configuration;
import org.apache.orc.TypeDescription;
import org.pf4j.Extension;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;

/**
 * The {@code orc} bulk format: written by Flink's ORC bulk writer with its {@link
 * RowDataVectorizer} (through {@link OrcRowDataWriterFactory}, which estimates an open file's heap), read by Flink's vectorized ORC reader. The options are listed in {@link
 * OrcOptions}.
 *
 * <p>The reader asks the file for the columns of the context's row type by name (ORC's schema
 * evolution), so the file may hold more columns than are read, and a column the file lacks reads
 * as null. Unlike Flink's own orc format, which opens files through Hadoop's file system API, it
 * reads through Flink's file systems like every other format ({@link FlinkFileSystemOrcShim}).
 *
 * <p>A known limit of ORC 1.5, which flink-orc is built against: a timestamp in the last second
 * before 1970 with a fraction of a second (say 1969-12-31 23:59:59.5) is stored one second late.
 */
@Extension
public final class OrcFormatFactory implements FileFormats.BulkFile {

    /** The name users select this format by. */
    public static final String IDENTIFIER = "orc";

    @Override
    public String identifier() {
        return IDENTIFIER;
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        return new LinkedHashSet<>(OrcOptions.ALL);
    }

    @Override
    public BulkWriter.Factory<RowData> createBulkWriterFactory(FormatContext context) {
        RowType rowType = context.rowType();
        TypeDescription schema = orcSchema(rowType);
        LogicalType[] fieldTypes = rowType.getChildren().toArray(new LogicalType[0]);
        return new OrcRowDataWriterFactory(
                new RowDataVectorizer(schema.toString(), fieldTypes),
                OrcOptions.writerProperties(context.options(), rowType),
                hadoopConfiguration());
    }

    @Override
    public BulkFormat<RowData, FileSourceSplit> createBulkFormat(FormatContext context) {
        RowType rowType = context.rowType();
        orcSchema(rowType);
        int[] allColumns = IntStream.range(0, rowType.getFieldCount()).toArray();
        return new FileNamingBulkFormat(
                IDENTIFIER,
                OrcColumnarRowInputFormat.<FileSourceSplit>createPartitionedFormat(
                        new FlinkFileSystemOrcShim(),
                        hadoopConfiguration(),
                        rowType,
                        List.of(),
                        noPartitionColumns(),
                        allColumns,
                        List.of(),
                        VectorizedColumnBatch.DEFAULT_SIZE,
                        InternalTypeInfo::of),
                OrcDeclaredTypes.check(rowType));
    }

    /** The ORC schema of the row type, or a clear error naming the type ORC cannot hold. */
    private static TypeDescription orcSchema(RowType rowType) {
        try {
            return OrcSplitReaderUtil.logicalTypeToOrcType(rowType);
        } catch (UnsupportedOperationException | IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    String.format(
                            "Format '%s' cannot hold the row type %s: %s",
                            IDENTIFIER, rowType.asSummaryString(), e.getMessage()),
                    e);
        }
    }

    private static PartitionFieldExtractor<FileSourceSplit> noPartitionColumns() {
        // partition values come from the framework, never from the file's path: never called
        return (split, fieldName, fieldType) -> {
            throw new IllegalStateException("orc reads no partition column: " + fieldName);
        };
    }

    private static Configuration hadoopConfiguration() {
        return HadoopConfigurations.create();
    }
}

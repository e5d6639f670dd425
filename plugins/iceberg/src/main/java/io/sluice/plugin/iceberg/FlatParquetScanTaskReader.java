package io.sluice.plugin.iceberg;

import org.apache.flink.table.data.RowData;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Schema;
import org.apache.iceberg.encryption.InputFilesDecryptor;
import org.apache.iceberg.flink.data.FlinkParquetReaders;
import org.apache.iceberg.flink.data.RowDataUtil;
import org.apache.iceberg.flink.source.FileScanTaskReader;
import org.apache.iceberg.flink.source.RowDataFileScanTaskReader;
import org.apache.iceberg.io.CloseableIterator;
import org.apache.iceberg.mapping.NameMappingParser;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.parquet.ParquetValueReader;
import org.apache.iceberg.util.PartitionUtil;

import javax.annotation.Nullable;

import java.util.Map;

/**
 * The files of a scan: a Parquet data file with no deletes is read by {@link FlatParquetRowReader}
 * when its columns allow, with the projection, name mapping, split bounds, residual filter (for
 * row groups) and container reuse that Iceberg's {@link RowDataFileScanTaskReader} reads with;
 * everything else (other formats, files with delete files, nested or promoted columns, partition
 * constants) by that reader itself.
 */
final class FlatParquetScanTaskReader implements FileScanTaskReader<RowData> {

    private static final long serialVersionUID = 1L;

    private final Schema projected;

    @Nullable
    private final String nameMapping;

    private final boolean caseSensitive;
    private final RowDataFileScanTaskReader iceberg;

    FlatParquetScanTaskReader(Schema table, Schema projected, @Nullable String nameMapping, boolean caseSensitive) {
        this.projected = projected;
        this.nameMapping = nameMapping;
        this.caseSensitive = caseSensitive;
        this.iceberg = new RowDataFileScanTaskReader(table, projected, nameMapping, caseSensitive, null);
    }

    @Override
    public CloseableIterator<RowData> open(FileScanTask task, InputFilesDecryptor files) {
        if (task.isDataTask()
                || task.file().format() != FileFormat.PARQUET
                || !task.deletes().isEmpty()) {
            return iceberg.open(task, files);
        }
        Map<Integer, ?> constants = PartitionUtil.constantsMap(task, RowDataUtil::convertConstant);
        Parquet.ReadBuilder read = Parquet.read(files.getInputFile(task))
                .project(projected)
                .split(task.start(), task.length())
                .caseSensitive(caseSensitive)
                .filter(task.residual())
                .reuseContainers()
                .createReaderFunc(fileSchema -> reader(fileSchema, constants));
        if (nameMapping != null) {
            read.withNameMapping(NameMappingParser.fromJson(nameMapping));
        }
        return read.<RowData>build().iterator();
    }

    /** The file's reader, Iceberg's own where the flat one does not read the file's columns. */
    private ParquetValueReader<?> reader(org.apache.parquet.schema.MessageType fileSchema, Map<Integer, ?> constants) {
        FlatParquetRowReader flat = FlatParquetRowReader.create(projected, fileSchema, constants);
        return flat != null ? flat : FlinkParquetReaders.buildReader(projected, fileSchema, constants);
    }
}

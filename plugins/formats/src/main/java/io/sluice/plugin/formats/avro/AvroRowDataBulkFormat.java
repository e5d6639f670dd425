package io.sluice.plugin.formats.avro;

import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.file.src.FileSourceSplit;
import org.apache.flink.formats.avro.AbstractAvroBulkFormat;
import org.apache.flink.formats.avro.AvroToRowDataConverters;
import org.apache.flink.formats.avro.AvroToRowDataConverters.AvroToRowDataConverter;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;

import java.util.function.Function;

/**
 * Reads Avro object container files as rows, through Flink's Avro bulk reader (block by block,
 * splittable at sync markers, restartable from a checkpointed position) and Flink's {@link
 * AvroToRowDataConverters}.
 */
final class AvroRowDataBulkFormat extends AbstractAvroBulkFormat<GenericRecord, RowData, FileSourceSplit> {

    private static final long serialVersionUID = 1L;

    private final RowType rowType;
    private final boolean legacyTimestampMapping;

    /**
     * @param readerSchema the Avro schema of {@code rowType}; the file's records are resolved
     *     against it
     */
    AvroRowDataBulkFormat(RowType rowType, Schema readerSchema, boolean legacyTimestampMapping) {
        super(readerSchema);
        this.rowType = rowType;
        this.legacyTimestampMapping = legacyTimestampMapping;
    }

    @Override
    protected GenericRecord createReusedAvroRecord() {
        return new GenericData.Record(readerSchema);
    }

    @Override
    protected Function<GenericRecord, RowData> createConverter() {
        AvroToRowDataConverter converter = AvroToRowDataConverters.createRowConverter(rowType, legacyTimestampMapping);
        // the converter copies every value out of the record, which the reader then reuses
        return record -> record == null ? null : (RowData) converter.convert(record);
    }

    @Override
    public TypeInformation<RowData> getProducedType() {
        return InternalTypeInfo.of(rowType);
    }
}

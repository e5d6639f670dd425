package io.sluice.plugin.formats;

import org.apache.avro.Schema;
import org.apache.avro.file.CodecFactory;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.flink.api.common.serialization.BulkWriter;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.formats.avro.AvroBuilder;
import org.apache.flink.formats.avro.AvroWriterFactory;
import org.apache.flink.formats.avro.RowDataToAvroConverters;
import org.apache.flink.formats.avro.RowDataToAvroConverters.RowDataToAvroConverter;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

import java.io.IOException;

/**
 * Writes rows into an Avro object container file: each row converted to a {@link GenericRecord}
 * by Flink's {@link RowDataToAvroConverters} against the schema Flink's {@code AvroSchemaConverter}
 * derives, then written by Flink's {@link AvroWriterFactory}
 * (which keeps the part file's stream open when the Avro file is finished, as a bulk writer must).
 *
 * <p>Holds only serializable settings; the schema and converter are made per file.
 */
final class AvroRowDataWriterFactory implements BulkWriter.Factory<RowData> {

    private static final long serialVersionUID = 1L;

    private final RowType rowType;
    private final String codec;
    private final boolean legacyTimestampMapping;

    AvroRowDataWriterFactory(RowType rowType, String codec, boolean legacyTimestampMapping) {
        this.rowType = rowType;
        this.codec = codec;
        this.legacyTimestampMapping = legacyTimestampMapping;
    }

    @Override
    public BulkWriter<RowData> create(FSDataOutputStream out) throws IOException {
        Schema schema = AvroFormatFactory.schema(rowType, legacyTimestampMapping);
        String codecName = codec;
        AvroBuilder<GenericRecord> builder = stream -> {
            DataFileWriter<GenericRecord> writer = new DataFileWriter<>(new GenericDatumWriter<>(schema));
            writer.setCodec(CodecFactory.fromString(codecName));
            return writer.create(schema, stream);
        };
        BulkWriter<GenericRecord> records = new AvroWriterFactory<>(builder).create(out);
        RowDataToAvroConverter converter = RowDataToAvroConverters.createConverter(rowType, legacyTimestampMapping);
        return new RowWriter(records, converter, schema);
    }

    /** Converts each row and hands it to the record writer. */
    private static final class RowWriter implements BulkWriter<RowData> {

        private final BulkWriter<GenericRecord> records;
        private final RowDataToAvroConverter converter;
        private final Schema schema;

        RowWriter(BulkWriter<GenericRecord> records, RowDataToAvroConverter converter, Schema schema) {
            this.records = records;
            this.converter = converter;
            this.schema = schema;
        }

        @Override
        public void addElement(RowData row) throws IOException {
            records.addElement((GenericRecord) converter.convert(schema, row));
        }

        @Override
        public void flush() throws IOException {
            records.flush();
        }

        @Override
        public void finish() throws IOException {
            records.finish();
        }
    }
}

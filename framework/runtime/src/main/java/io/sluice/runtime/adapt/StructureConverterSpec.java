package io.sluice.runtime.adapt;

import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.conversion.DataStructureConverter;
import org.apache.flink.table.data.conversion.DataStructureConverters;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.RowType;

/**
 * Rows and POJOs: Flink's own {@link DataStructureConverters} for the data type, the converters
 * the Table API uses between external and internal structures. The data type (with the POJO's
 * class as conversion class) is what travels; the converter is made and opened on the task, where
 * a POJO's converter compiles code against the job's class loader.
 */
final class StructureConverterSpec implements ConverterSpec {

    private static final long serialVersionUID = 1L;

    private final DataType dataType;
    private final RowType rowType;

    StructureConverterSpec(DataType dataType, RowType rowType) {
        this.dataType = dataType;
        this.rowType = rowType;
    }

    @Override
    public RecordConverter create(ClassLoader jobLoader) {
        DataStructureConverter<Object, Object> converter = DataStructureConverters.getConverter(dataType);
        converter.open(jobLoader != null ? jobLoader : StructureConverterSpec.class.getClassLoader());
        return new RecordConverter() {
            @Override
            public RowType rowType() {
                return rowType;
            }

            @Override
            public RowData convert(Object record) {
                return (RowData) converter.toInternal(record);
            }
        };
    }
}

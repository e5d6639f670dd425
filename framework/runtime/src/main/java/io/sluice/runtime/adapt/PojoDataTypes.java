package io.sluice.runtime.adapt;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.DataTypeFactory;
import org.apache.flink.table.catalog.UnresolvedIdentifier;
import org.apache.flink.table.types.AbstractDataType;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.UnresolvedDataType;
import org.apache.flink.table.types.extraction.DataTypeExtractor;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.UnresolvedUserDefinedType;
import org.apache.flink.table.types.logical.utils.LogicalTypeParser;
import org.apache.flink.table.types.utils.TypeConversions;
import org.apache.flink.table.types.utils.TypeInfoDataTypeConverter;

/**
 * Derives a POJO's data type with the Table API's own {@link DataTypeExtractor}, outside a table
 * environment. The extractor asks a {@link DataTypeFactory} for what it meets on the way (types in
 * {@code @DataTypeHint}s, nested classes); the Table API's factory lives in its catalog, so this is
 * a small one without a catalog: named user-defined types and RAW types cannot resolve, and say so
 * (a sink could not write a RAW value anyway).
 */
final class PojoDataTypes implements DataTypeFactory {

    private final ClassLoader loader;

    private PojoDataTypes(ClassLoader loader) {
        this.loader = loader;
    }

    /** The structured data type of {@code type}, its conversion class {@code type}. */
    static DataType of(Class<?> type) {
        ClassLoader loader =
                type.getClassLoader() != null ? type.getClassLoader() : PojoDataTypes.class.getClassLoader();
        return new PojoDataTypes(loader).createDataType(type);
    }

    @Override
    public DataType createDataType(AbstractDataType<?> abstractDataType) {
        if (abstractDataType instanceof DataType) {
            return (DataType) abstractDataType;
        }
        if (abstractDataType instanceof UnresolvedDataType) {
            return ((UnresolvedDataType) abstractDataType).toDataType(this);
        }
        throw new ValidationException("Unsupported data type: " + abstractDataType);
    }

    @Override
    public DataType createDataType(String typeString) {
        return TypeConversions.fromLogicalToDataType(createLogicalType(typeString));
    }

    @Override
    public DataType createDataType(UnresolvedIdentifier identifier) {
        throw noCatalog(identifier.asSummaryString());
    }

    @Override
    public <T> DataType createDataType(Class<T> clazz) {
        return DataTypeExtractor.extractFromType(this, clazz);
    }

    @Override
    public <T> DataType createDataType(TypeInformation<T> typeInfo) {
        return TypeInfoDataTypeConverter.toDataType(this, typeInfo);
    }

    @Override
    public <T> DataType createRawDataType(Class<T> clazz) {
        throw new ValidationException("No data type can be derived for " + clazz.getName()
                + " (it would be a RAW type, which no format writes): give the field a @DataTypeHint,"
                + " or pass the POJO's data type to RowAdapters.forPojo(Class, DataType)");
    }

    @Override
    public <T> DataType createRawDataType(TypeInformation<T> typeInfo) {
        throw new ValidationException(
                "No data type can be derived for " + typeInfo + " (it would be a RAW type, which no format writes)");
    }

    @Override
    public LogicalType createLogicalType(String typeString) {
        LogicalType type = LogicalTypeParser.parse(typeString, loader);
        if (type instanceof UnresolvedUserDefinedType) {
            throw noCatalog(typeString);
        }
        return type;
    }

    @Override
    public LogicalType createLogicalType(UnresolvedIdentifier identifier) {
        throw noCatalog(identifier.asSummaryString());
    }

    private static ValidationException noCatalog(String name) {
        return new ValidationException(
                "Type '" + name + "' names a catalog type; without a table"
                        + " environment there is no catalog: pass the POJO's data type to RowAdapters.forPojo(Class, DataType)");
    }
}

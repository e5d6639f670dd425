package io.sluice.runtime.sink.dynamic;

import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;

/** Flink's type of {@link RoutedRow}s: serialized by {@link RoutedRowSerializer}, never by Kryo. */
public final class RoutedRowTypeInfo extends TypeInformation<RoutedRow> {

    private static final long serialVersionUID = 1L;

    public static final RoutedRowTypeInfo INSTANCE = new RoutedRowTypeInfo();

    @Override
    public boolean isBasicType() {
        return false;
    }

    @Override
    public boolean isTupleType() {
        return false;
    }

    @Override
    public int getArity() {
        return 1;
    }

    @Override
    public int getTotalFields() {
        return 1;
    }

    @Override
    public Class<RoutedRow> getTypeClass() {
        return RoutedRow.class;
    }

    @Override
    public boolean isKeyType() {
        return false;
    }

    @Override
    public TypeSerializer<RoutedRow> createSerializer(SerializerConfig config) {
        return new RoutedRowSerializer();
    }

    /** Abstract in Flink 1.x, gone from Flink 2's TypeInformation: no {@code @Override}, so it compiles on both. */
    @Deprecated
    public TypeSerializer<RoutedRow> createSerializer(org.apache.flink.api.common.ExecutionConfig config) {
        return new RoutedRowSerializer();
    }

    @Override
    public String toString() {
        return "RoutedRow";
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof RoutedRowTypeInfo;
    }

    @Override
    public int hashCode() {
        return RoutedRowTypeInfo.class.hashCode();
    }

    @Override
    public boolean canEqual(Object obj) {
        return obj instanceof RoutedRowTypeInfo;
    }
}

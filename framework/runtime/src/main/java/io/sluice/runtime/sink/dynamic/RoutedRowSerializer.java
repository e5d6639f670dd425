package io.sluice.runtime.sink.dynamic;

import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.RowType;

import java.io.IOException;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * Flink's serializer of {@link RoutedRow}s between the router and the writers (and of those in
 * flight in an unaligned checkpoint): the write target ({@link WriteTarget#write}), the writer
 * (for a pending row then its distribution mode's ordinal and its write parallelism), then the row
 * in Flink's binary row format of the target's row type. Each instance keeps the
 * row serializers of the row types it has seen; Flink duplicates it per thread.
 */
public final class RoutedRowSerializer extends TypeSerializer<RoutedRow> {

    private static final long serialVersionUID = 1L;

    private transient WriteTarget.TypeCache types;
    private transient Map<RowType, RowDataSerializer> rows;
    /**
     * The same serializers by the type instance: a row's type is almost always one the serializer
     * saw before (targets read here share their types; the router's come from its table cache),
     * and an identity lookup does not walk the type's fields as its hash and equality do.
     */
    private transient Map<RowType, RowDataSerializer> byInstance;

    private WriteTarget.TypeCache types() {
        if (types == null) {
            types = new WriteTarget.TypeCache();
        }
        return types;
    }

    private RowDataSerializer rowSerializer(RowType type) {
        if (rows == null) {
            rows = new HashMap<>();
            byInstance = new IdentityHashMap<>();
        }
        RowDataSerializer serializer = byInstance.get(type);
        if (serializer != null) {
            return serializer;
        }
        serializer = rows.get(type);
        if (serializer == null) {
            if (rows.size() > 10_000) {
                rows.clear();
            }
            serializer = new RowDataSerializer(type);
            rows.put(type, serializer);
        }
        if (byInstance.size() > 10_000) {
            byInstance.clear(); // bounded: each refresh of a table cache brings new instances
        }
        byInstance.put(type, serializer);
        return serializer;
    }

    @Override
    public boolean isImmutableType() {
        return false;
    }

    @Override
    public TypeSerializer<RoutedRow> duplicate() {
        return new RoutedRowSerializer();
    }

    @Override
    public RoutedRow createInstance() {
        throw new UnsupportedOperationException("A routed row is made by the router, not by Flink");
    }

    @Override
    public RoutedRow copy(RoutedRow from) {
        // a pending row's mode and write parallelism go with it, as through serialize
        return from.withRow(rowSerializer(from.target().rowType()).copy(from.row()));
    }

    @Override
    public RoutedRow copy(RoutedRow from, RoutedRow reuse) {
        return copy(from);
    }

    @Override
    public int getLength() {
        return -1;
    }

    @Override
    public void serialize(RoutedRow record, DataOutputView target) throws IOException {
        record.target().write(target);
        target.writeInt(record.writer());
        if (record.isPending()) {
            target.writeByte(record.mode().ordinal());
            target.writeInt(record.writeParallelism());
        }
        rowSerializer(record.target().rowType()).serialize(record.row(), target);
    }

    @Override
    public RoutedRow deserialize(DataInputView source) throws IOException {
        WriteTarget target = WriteTarget.read(source, types());
        int writer = source.readInt();
        if (writer == RoutedRow.PENDING) {
            io.sluice.spi.distribution.DistributionMode mode =
                    io.sluice.spi.distribution.DistributionMode.values()[source.readByte()];
            int writeParallelism = source.readInt();
            return RoutedRow.pending(
                    target, rowSerializer(target.rowType()).deserialize(source), mode, writeParallelism);
        }
        return new RoutedRow(target, rowSerializer(target.rowType()).deserialize(source), writer);
    }

    @Override
    public RoutedRow deserialize(RoutedRow reuse, DataInputView source) throws IOException {
        return deserialize(source);
    }

    @Override
    public void copy(DataInputView source, DataOutputView target) throws IOException {
        serialize(deserialize(source), target);
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof RoutedRowSerializer;
    }

    @Override
    public int hashCode() {
        return RoutedRowSerializer.class.hashCode();
    }

    @Override
    public TypeSerializerSnapshot<RoutedRow> snapshotConfiguration() {
        return new Snapshot();
    }

    /** The serializer has no configuration: its snapshot restores it as it is. */
    public static final class Snapshot extends SimpleTypeSerializerSnapshot<RoutedRow> {
        public Snapshot() {
            super(RoutedRowSerializer::new);
        }
    }
}

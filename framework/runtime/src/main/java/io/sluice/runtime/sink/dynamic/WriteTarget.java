package io.sluice.runtime.sink.dynamic;

import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.utils.LogicalTypeParser;

import javax.annotation.Nullable;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What one writer of a dynamic sink writes: a table, on a branch, with one of its schemas (the
 * rows' type) and partition specs, as upserts by equality fields or as appends. Each distinct
 * write target gets its own writer of the target in every writer subtask; rows of one target from
 * one router subtask arrive in order.
 *
 * <p>Written into writer state and commit frames ({@link TableFrames}) and, with every shuffled
 * row, onto the wire ({@link RoutedRowSerializer}): {@link #write} is the one layout of all three,
 * and a change to it is a new version of each.
 */
public final class WriteTarget {

    private final String table;

    @Nullable
    private final String branch;

    private final int schemaId;
    private final int specId;
    private final RowType rowType;
    private final List<String> spec;

    @Nullable
    private final Boolean upsert;

    private final List<String> equalityFields;
    private final int hash;
    /** The row type's serializable string in UTF-8, made once: it goes out with every shuffled row. */
    private final byte[] typeBytes;

    public WriteTarget(
            String table,
            @Nullable String branch,
            int schemaId,
            int specId,
            RowType rowType,
            List<String> spec,
            @Nullable Boolean upsert,
            List<String> equalityFields) {
        this(
                table,
                branch,
                schemaId,
                specId,
                rowType,
                rowType.asSerializableString().getBytes(StandardCharsets.UTF_8),
                spec,
                upsert,
                equalityFields);
    }

    /**
     * A target whose row type's string is known already: a target read from the wire, once per
     * shuffled row, where making the string again (Flink formats it field by field) would cost
     * more than writing the row.
     */
    private WriteTarget(
            String table,
            @Nullable String branch,
            int schemaId,
            int specId,
            RowType rowType,
            byte[] typeBytes,
            List<String> spec,
            @Nullable Boolean upsert,
            List<String> equalityFields) {
        this.table = Objects.requireNonNull(table, "table");
        this.branch = branch;
        this.schemaId = schemaId;
        this.specId = specId;
        this.rowType = Objects.requireNonNull(rowType, "rowType");
        this.typeBytes = typeBytes;
        this.spec = List.copyOf(spec);
        this.upsert = upsert;
        this.equalityFields = List.copyOf(equalityFields);
        // the type's bytes stand for the type: they are made from it and say all of it, and
        // hashing them costs less than walking the type's fields
        this.hash = Objects.hash(table, branch, schemaId, specId, this.spec, upsert, this.equalityFields) * 31
                + Arrays.hashCode(typeBytes);
    }

    public String table() {
        return table;
    }

    @Nullable
    public String branch() {
        return branch;
    }

    /** The table's schema the rows have ({@code -1} for a schemaless table). */
    public int schemaId() {
        return schemaId;
    }

    public int specId() {
        return specId;
    }

    public RowType rowType() {
        return rowType;
    }

    public List<String> spec() {
        return spec;
    }

    /** Whether the rows are upserts by the equality fields; null: as the table or the sink says. */
    @Nullable
    public Boolean upsert() {
        return upsert;
    }

    public List<String> equalityFields() {
        return equalityFields;
    }

    /** The table and branch: what one commit of a checkpoint covers. */
    public String commitKey() {
        return branch == null ? table : table + "@" + branch;
    }

    public void write(DataOutputView out) throws IOException {
        out.writeUTF(table);
        out.writeBoolean(branch != null);
        if (branch != null) {
            out.writeUTF(branch);
        }
        out.writeInt(schemaId);
        out.writeInt(specId);
        // writeUTF holds 65,535 bytes: a wide schema's type string may not fit
        out.writeInt(typeBytes.length);
        out.write(typeBytes);
        writeStrings(spec, out);
        out.writeByte(upsert == null ? 0 : upsert ? 2 : 1);
        writeStrings(equalityFields, out);
    }

    public static WriteTarget read(DataInputView in, TypeCache types) throws IOException {
        String table = in.readUTF();
        String branch = in.readBoolean() ? in.readUTF() : null;
        int schemaId = in.readInt();
        int specId = in.readInt();
        byte[] type = new byte[in.readInt()];
        in.readFully(type);
        RowType rowType = types.rowType(type);
        List<String> spec = readStrings(in);
        byte upsertFlag = in.readByte();
        Boolean upsert = upsertFlag == 0 ? null : upsertFlag == 2;
        return new WriteTarget(table, branch, schemaId, specId, rowType, type, spec, upsert, readStrings(in));
    }

    private static void writeStrings(List<String> strings, DataOutputView out) throws IOException {
        out.writeInt(strings.size());
        for (String s : strings) {
            out.writeUTF(s);
        }
    }

    private static List<String> readStrings(DataInputView in) throws IOException {
        int n = in.readInt();
        if (n == 0) {
            return List.of(); // most targets: no spec, no equality fields, no copy
        }
        List<String> strings = new ArrayList<>(Math.min(n, 1024));
        for (int i = 0; i < n; i++) {
            strings.add(in.readUTF());
        }
        return strings;
    }

    /**
     * Parsed row types by their serialized strings' bytes, so that a type is parsed once per
     * reader, not per row, and every target read of one type shares one instance of it. Not
     * thread-safe: one per serializer instance.
     */
    public static final class TypeCache {
        private final Map<ByteBuffer, RowType> parsed = new HashMap<>();

        RowType rowType(byte[] utf8) {
            ByteBuffer key = ByteBuffer.wrap(utf8);
            RowType cached = parsed.get(key);
            if (cached == null) {
                if (parsed.size() > 10_000) {
                    parsed.clear(); // bounded: a pathological job with ever new schemas
                }
                cached = (RowType) LogicalTypeParser.parse(
                        new String(utf8, StandardCharsets.UTF_8), WriteTarget.class.getClassLoader());
                parsed.put(key, cached);
            }
            return cached;
        }
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof WriteTarget)) {
            return false;
        }
        WriteTarget that = (WriteTarget) o;
        return hash == that.hash
                && schemaId == that.schemaId
                && specId == that.specId
                && Objects.equals(upsert, that.upsert)
                && table.equals(that.table)
                && Objects.equals(branch, that.branch)
                && (rowType == that.rowType || Arrays.equals(typeBytes, that.typeBytes))
                && spec.equals(that.spec)
                && equalityFields.equals(that.equalityFields);
    }

    @Override
    public int hashCode() {
        return hash;
    }

    @Override
    public String toString() {
        return commitKey() + " (schema " + schemaId + ", spec " + specId + " " + spec
                + (Boolean.TRUE.equals(upsert) ? ", upsert by " + equalityFields : "") + ")";
    }
}

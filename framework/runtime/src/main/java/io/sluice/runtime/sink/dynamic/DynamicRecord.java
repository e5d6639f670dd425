package io.sluice.runtime.sink.dynamic;

import io.sluice.spi.distribution.DistributionMode;

import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

import javax.annotation.Nullable;

import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * One row of a dynamic sink and where it goes: the table (and branch) it is written to, the schema
 * and partition spec it is written with, how it reaches a writer and how many writers its table
 * gets. A {@link DynamicRecordGenerator} makes them from the job's records. A framework type: a job
 * needs no plugin's classes to make one (Iceberg's own {@code Schema} and {@code PartitionSpec}
 * convert through {@code io.sluice.runtime.adapt.IcebergDynamicRecords}).
 *
 * <p>The schema is a Flink {@link RowType}; reuse the same instance for rows of the same schema,
 * which lets the sink find its resolution in a cache by identity. The partition spec is a list of
 * Iceberg's transforms as strings ({@code identity(dt)}, {@code days(ts)}, {@code bucket(16,
 * id)}, {@code truncate(4, s)}, ...; an empty list is unpartitioned).
 *
 * <p>The distribution mode: {@link DistributionMode#NONE} (round-robin over the table's writers,
 * or by the equality fields when set), {@link DistributionMode#HASH} (by the partition key, else
 * the equality fields), {@link DistributionMode#RANGE} (as HASH, as upstream) or null: forward, no
 * shuffle at all (the row goes to the writer chained to the router; that writer applies schema
 * changes at once).
 */
public final class DynamicRecord {

    private String table;

    @Nullable
    private String branch;

    private RowType schema;
    private List<String> spec = List.of();
    private RowData row;

    @Nullable
    private DistributionMode distributionMode;

    private int writeParallelism;

    @Nullable
    private Boolean upsertMode;

    private Set<String> equalityFields = Set.of();

    /** An empty record, to fill with the setters. */
    public DynamicRecord() {}

    /** A forward record (no shuffle) with the sink's write parallelism. */
    public DynamicRecord(String table, @Nullable String branch, RowType schema, RowData row, List<String> spec) {
        this(table, branch, schema, row, spec, null, 0);
    }

    /**
     * A record with a distribution mode (null: forward) and the most writers its table gets on
     * that branch, schema and spec ({@code 0}: the sink's write parallelism).
     */
    public DynamicRecord(
            String table,
            @Nullable String branch,
            RowType schema,
            RowData row,
            List<String> spec,
            @Nullable DistributionMode distributionMode,
            int writeParallelism) {
        this.table = table;
        this.branch = branch;
        this.schema = schema;
        this.row = row;
        this.spec = spec;
        this.distributionMode = distributionMode;
        this.writeParallelism = writeParallelism;
    }

    public String table() {
        return table;
    }

    public void setTable(String table) {
        this.table = table;
    }

    @Nullable
    public String branch() {
        return branch;
    }

    public void setBranch(@Nullable String branch) {
        this.branch = branch;
    }

    public RowType schema() {
        return schema;
    }

    public void setSchema(RowType schema) {
        this.schema = schema;
    }

    public List<String> spec() {
        return spec;
    }

    public void setSpec(List<String> spec) {
        this.spec = spec;
    }

    public RowData row() {
        return row;
    }

    public void setRow(RowData row) {
        this.row = row;
    }

    @Nullable
    public DistributionMode distributionMode() {
        return distributionMode;
    }

    public void setDistributionMode(@Nullable DistributionMode distributionMode) {
        this.distributionMode = distributionMode;
    }

    public int writeParallelism() {
        return writeParallelism;
    }

    public void setWriteParallelism(int writeParallelism) {
        this.writeParallelism = writeParallelism;
    }

    /** Overrides the table's {@code write.upsert.enabled} for this record; null: the table's or the sink's. */
    @Nullable
    public Boolean upsertMode() {
        return upsertMode;
    }

    public void setUpsertMode(@Nullable Boolean upsertMode) {
        this.upsertMode = upsertMode;
    }

    public Set<String> equalityFields() {
        return equalityFields;
    }

    public void setEqualityFields(Set<String> equalityFields) {
        this.equalityFields = equalityFields == null ? Set.of() : equalityFields;
    }

    /**
     * Checks that the record names a table, a schema and a row, and that its row has the schema's
     * arity.
     *
     * @throws IllegalArgumentException saying what is missing
     */
    void check() {
        if (table == null || table.isEmpty()) {
            throw new IllegalArgumentException("A dynamic record names no table");
        }
        Objects.requireNonNull(schema, () -> "The dynamic record for table " + table + " has no schema");
        Objects.requireNonNull(row, () -> "The dynamic record for table " + table + " has no row");
        Objects.requireNonNull(spec, () -> "The dynamic record for table " + table + " has no partition spec");
        if (row.getArity() != schema.getFieldCount()) {
            throw new IllegalArgumentException("The dynamic record for table " + table + " has a row of "
                    + row.getArity() + " fields for a schema of " + schema.getFieldCount() + ": " + schema);
        }
        if (writeParallelism < 0) {
            throw new IllegalArgumentException(
                    "The dynamic record for table " + table + " has write parallelism " + writeParallelism);
        }
        for (String transform : spec) {
            String t = transform.trim();
            int open = t.indexOf('(');
            if (open <= 0 || !t.endsWith(")")) {
                throw new IllegalArgumentException("The dynamic record for table " + table
                        + " has partition transform '"
                        + transform + "': a transform is name(column) or name(argument, column), e.g. identity(dt),"
                        + " days(ts), bucket(16, id), truncate(4, s)");
            }
            String[] arguments = t.substring(open + 1, t.length() - 1).split(",");
            String column = arguments[arguments.length - 1].trim();
            if (!schema.getFieldNames().contains(column)) {
                throw new IllegalArgumentException(
                        "The dynamic record for table " + table + " has partition transform '" + transform
                                + "' of column '" + column + "', which its schema " + schema + " lacks");
            }
        }
        for (String field : equalityFields) {
            if (!schema.getFieldNames().contains(field)) {
                throw new IllegalArgumentException("The dynamic record for table " + table + " has equality field '"
                        + field + "', which its schema " + schema + " lacks");
            }
        }
    }

    @Override
    public String toString() {
        return "DynamicRecord{" + table + (branch == null ? "" : "@" + branch) + ", " + schema + ", " + spec + ", "
                + distributionMode + ", " + writeParallelism + "}";
    }
}

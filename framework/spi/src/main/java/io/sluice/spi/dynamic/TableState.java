package io.sluice.spi.dynamic;

import org.apache.flink.table.types.logical.RowType;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A table as a dynamic sink sees it: every schema and partition spec it has had, each with its id,
 * and which are current. A schemaless table (a directory of files that keep no table metadata)
 * has no schemas: every record writes with its own.
 *
 * @since 2.3.0
 */
@io.sluice.spi.Experimental
public final class TableState {

    private final String identifier;
    private final Map<Integer, RowType> schemas;
    private final int currentSchemaId;
    private final Map<Integer, List<String>> specs;
    private final int currentSpecId;

    /**
     * @param schemas by id, in the table's column order
     * @param specs by id: the transforms of each, in Iceberg's syntax ({@code identity(dt)},
     *     {@code days(ts)}, {@code bucket(16, id)}, {@code truncate(4, s)}); an unpartitioned spec is
     *     an empty list
     */
    public TableState(
            String identifier,
            Map<Integer, RowType> schemas,
            int currentSchemaId,
            Map<Integer, List<String>> specs,
            int currentSpecId) {
        this.identifier = Objects.requireNonNull(identifier, "identifier");
        this.schemas = Map.copyOf(schemas);
        this.currentSchemaId = currentSchemaId;
        this.specs = Map.copyOf(specs);
        this.currentSpecId = currentSpecId;
        if (!this.schemas.isEmpty() && !this.schemas.containsKey(currentSchemaId)) {
            throw new IllegalArgumentException("Table " + identifier + " has no schema " + currentSchemaId);
        }
    }

    /** A table without schemas of its own: every record writes with its own schema. */
    public static TableState schemaless(String identifier, List<String> spec) {
        return new TableState(identifier, Map.of(), 0, Map.of(0, List.copyOf(spec)), 0);
    }

    public String identifier() {
        return identifier;
    }

    public boolean schemaless() {
        return schemas.isEmpty();
    }

    public Map<Integer, RowType> schemas() {
        return schemas;
    }

    public int currentSchemaId() {
        return currentSchemaId;
    }

    /** The current schema; for a schemaless table there is none. */
    public RowType currentSchema() {
        RowType schema = schemas.get(currentSchemaId);
        if (schema == null) {
            throw new IllegalStateException("Table " + identifier + " is schemaless");
        }
        return schema;
    }

    public Map<Integer, List<String>> specs() {
        return specs;
    }

    public int currentSpecId() {
        return currentSpecId;
    }

    public List<String> currentSpec() {
        return specs.getOrDefault(currentSpecId, List.of());
    }

    @Override
    public String toString() {
        return identifier + " (schema " + currentSchemaId + (schemaless() ? "" : " " + currentSchema()) + ", spec "
                + currentSpecId + " " + currentSpec() + ")";
    }
}

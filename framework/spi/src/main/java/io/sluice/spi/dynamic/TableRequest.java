package io.sluice.spi.dynamic;

import org.apache.flink.table.types.logical.RowType;

import javax.annotation.Nullable;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What a dynamic sink asks of a table: this schema and partition spec, and for a new table these
 * properties and location.
 *
 * @since 2.3.0
 */
@io.sluice.spi.Experimental
public final class TableRequest {

    private final String identifier;
    private final RowType schema;
    private final List<String> spec;
    private final List<String> equalityFields;
    private final Map<String, String> properties;
    private final String location;

    /**
     * @param spec transforms in Iceberg's syntax ({@code identity(dt)}, {@code days(ts)} ...),
     *     empty for an unpartitioned table
     * @param equalityFields the columns that identify a row (Iceberg's identifier fields), if any
     * @param properties of a new table
     * @param location of a new table, null for the catalog's default
     */
    public TableRequest(
            String identifier,
            RowType schema,
            List<String> spec,
            List<String> equalityFields,
            Map<String, String> properties,
            @Nullable String location) {
        this.identifier = Objects.requireNonNull(identifier, "identifier");
        this.schema = Objects.requireNonNull(schema, "schema");
        this.spec = List.copyOf(spec);
        this.equalityFields = List.copyOf(equalityFields);
        this.properties = Map.copyOf(properties);
        this.location = location;
    }

    public String identifier() {
        return identifier;
    }

    public RowType schema() {
        return schema;
    }

    public List<String> spec() {
        return spec;
    }

    public List<String> equalityFields() {
        return equalityFields;
    }

    public Map<String, String> properties() {
        return properties;
    }

    public Optional<String> location() {
        return Optional.ofNullable(location);
    }

    @Override
    public String toString() {
        return identifier + " " + schema + " " + spec;
    }
}

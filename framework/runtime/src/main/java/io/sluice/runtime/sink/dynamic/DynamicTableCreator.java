package io.sluice.runtime.sink.dynamic;

import javax.annotation.Nullable;

import java.io.Serializable;
import java.util.Map;

/**
 * The properties and location of a table a dynamic sink creates, from its identifier (upstream's
 * {@code TableCreator}, without the catalog: the target creates the table). By default none and
 * the catalog's location.
 */
public interface DynamicTableCreator extends Serializable {

    DynamicTableCreator DEFAULT = new DynamicTableCreator() {
        private static final long serialVersionUID = 1L;
    };

    /** The new table's properties. */
    default Map<String, String> properties(String table) {
        return Map.of();
    }

    /** The new table's location, null for the catalog's default. */
    @Nullable
    default String location(String table) {
        return null;
    }
}

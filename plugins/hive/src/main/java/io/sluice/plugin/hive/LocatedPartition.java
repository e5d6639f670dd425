package io.sluice.plugin.hive;

import org.apache.flink.table.catalog.CatalogPartition;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A partition to add to the metastore at a location. Flink's own implementation is internal to
 * flink-table-api-java (CatalogPartitionImpl); upstream's HiveCatalog reads the
 * location from the properties and removes it, so they stay mutable.
 */
final class LocatedPartition implements CatalogPartition {

    private final Map<String, String> properties;

    LocatedPartition(String location) {
        this(new HashMap<>(Map.of("hive.location-uri", location)));
    }

    private LocatedPartition(Map<String, String> properties) {
        this.properties = properties;
    }

    @Override
    public Map<String, String> getProperties() {
        return properties;
    }

    @Override
    public String getComment() {
        return null;
    }

    @Override
    public CatalogPartition copy() {
        return new LocatedPartition(new HashMap<>(properties));
    }

    @Override
    public Optional<String> getDescription() {
        return Optional.empty();
    }

    @Override
    public Optional<String> getDetailedDescription() {
        return Optional.empty();
    }
}

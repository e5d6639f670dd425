package io.sluice.plugin.filesystem;

import io.sluice.spi.sink.BucketAssignerFactory;
import io.sluice.testkit.BucketAssignerConformance;

import java.util.List;
import java.util.Map;

/**
 * The built-in {@code partition} assigner against the framework's conformance kit: partitioned by
 * a string, a decimal and a timestamp column, so that hostile strings, nulls and formatted values
 * all become directory names.
 */
class PartitionBucketAssignerConformanceTest extends BucketAssignerConformance {

    @Override
    protected BucketAssignerFactory assignerFactory() {
        return new PartitionBucketAssignerFactory();
    }

    @Override
    protected List<String> partitionKeys() {
        return List.of("city", "amount", "ts");
    }

    @Override
    protected List<Map<String, String>> invalidOptions() {
        return List.of(Map.of("partition.default-name", ""));
    }
}

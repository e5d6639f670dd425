package io.sluice.plugin.filesystem;

import io.sluice.spi.sink.BucketAssignerFactory;
import io.sluice.testkit.BucketAssignerConformance;

import java.util.List;
import java.util.Map;

/**
 * The built-in {@code date-time} assigner against the framework's conformance kit, with Hive-style
 * directories of two levels; buckets come from processing time, whatever the row holds.
 */
class DateTimeBucketAssignerConformanceTest extends BucketAssignerConformance {

    private static final String FORMAT = "sink.bucket-assigner.date-time.format";
    private static final String ZONE = "sink.bucket-assigner.date-time.time-zone";

    @Override
    protected BucketAssignerFactory assignerFactory() {
        return new DateTimeBucketAssignerFactory();
    }

    @Override
    protected Map<String, String> options() {
        return Map.of(FORMAT, "'dt='yyyy-MM-dd/'hour='HH", ZONE, "UTC");
    }

    @Override
    protected List<Map<String, String>> invalidOptions() {
        return List.of(
                Map.of(ZONE, "Mars/Olympus_Mons"),
                Map.of(FORMAT, "'/'yyyy"),
                Map.of(FORMAT, "yyyy'/../'MM"),
                Map.of(FORMAT, "yyyy//MM"),
                Map.of(FORMAT, "yyyy/"),
                Map.of(FORMAT, "'_'yyyy"),
                Map.of(FORMAT, "'.'yyyy"),
                Map.of(FORMAT, "yyyy-MM-dd'T'HH':'mm"),
                Map.of(FORMAT, "not a {pattern"));
    }
}

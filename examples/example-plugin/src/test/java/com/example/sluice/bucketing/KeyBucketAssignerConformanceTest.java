package com.example.sluice.bucketing;

import io.sluice.spi.sink.BucketAssignerFactory;
import io.sluice.testkit.BucketAssignerConformance;

import java.util.Collections;
import java.util.List;
import java.util.Map;

/** The example bucket assigner against Sluice's conformance kit, bucketing by the city column. */
class KeyBucketAssignerConformanceTest extends BucketAssignerConformance {

    @Override
    protected BucketAssignerFactory assignerFactory() {
        return new KeyBucketAssignerFactory();
    }

    @Override
    protected Map<String, String> options() {
        return Collections.singletonMap("sink.bucket-assigner.key.column", "city");
    }

    @Override
    protected List<Map<String, String>> invalidOptions() {
        return List.of(Collections.singletonMap("sink.bucket-assigner.key.column", "nope"));
    }
}

package io.sluice.plugin.filesystem;

import io.sluice.spi.sink.BucketAssignerFactory;
import io.sluice.testkit.BucketAssignerConformance;

/** The built-in {@code base-path} assigner against the framework's conformance kit. */
class BasePathBucketAssignerConformanceTest extends BucketAssignerConformance {

    @Override
    protected BucketAssignerFactory assignerFactory() {
        return new BasePathBucketAssignerFactory();
    }
}

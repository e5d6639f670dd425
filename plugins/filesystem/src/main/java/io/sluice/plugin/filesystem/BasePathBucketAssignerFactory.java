package io.sluice.plugin.filesystem;

import io.sluice.spi.sink.BucketAssigner;
import io.sluice.spi.sink.BucketAssignerFactory;
import io.sluice.spi.sink.SinkContext;

import org.pf4j.Extension;

/** {@code base-path}: every row goes to the base path itself. */
@Extension
public final class BasePathBucketAssignerFactory implements BucketAssignerFactory {

    @Override
    public String identifier() {
        return "base-path";
    }

    @Override
    public BucketAssigner create(SinkContext context) {
        return (row, ctx) -> "";
    }
}

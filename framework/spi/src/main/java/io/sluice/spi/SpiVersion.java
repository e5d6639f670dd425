package io.sluice.spi;

/**
 * The version of the Sluice SPI that this jar defines.
 *
 * <p>A plugin declares the SPI version it needs in its descriptor ({@code plugin.requires}, e.g.
 * {@code >=1.0.0}); the framework refuses to load a plugin whose requirement this version does not
 * meet. The version follows semantic versioning: a minor version only adds, a major version may
 * break.
 */
public final class SpiVersion {

    /**
     * The SPI version of this build. 1.1.0 added scan sources ({@code io.sluice.spi.source.Scan*}),
     * compactors ({@code io.sluice.spi.compact}) and target catalogs ({@code io.sluice.spi.catalog});
     * 1.2.0 added {@code TargetFactory.changeKey}, {@code TargetFactory.supportsCompaction} and {@code
     * NonRecoverableException}, {@code PathNames}.
     */
    public static final String CURRENT = "1.2.0";

    private SpiVersion() {}
}

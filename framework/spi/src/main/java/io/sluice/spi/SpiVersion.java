package io.sluice.spi;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import java.util.regex.Pattern;

/**
 * The version of the Sluice SPI that this jar defines.
 *
 * <p>A plugin declares the SPI versions it works with in its descriptor ({@code plugin.requires}:
 * the version it is compiled against up to the next major, {@code >=3.0.0 & <4.0.0} or {@code
 * ^3.0.0}); the framework refuses to load a plugin whose requirement this version does not meet,
 * or that sets no upper bound. The version follows semantic versioning: a minor version only adds,
 * a major version may break; the build checks this against the last released SPI, except for what
 * is {@link Experimental}.
 *
 * <p>The version comes from the build (property {@code sluice.spi.version} of the parent pom),
 * through the resource {@code io/sluice/spi/spi-version.properties} of this jar.
 *
 * <p>History: {@code framework/spi/CHANGELOG.md} in the source tree, one entry per version.
 */
public final class SpiVersion {

    static final String RESOURCE = "spi-version.properties";

    private static final Pattern PLAIN = Pattern.compile("(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)");

    /**
     * The SPI version of this build, {@code major.minor.patch} (no pre-release or build suffix).
     * Not a compile-time constant: code compiled against this jar reads the version of the SPI
     * it runs with.
     */
    public static final String CURRENT = load();

    private SpiVersion() {}

    private static String load() {
        Properties properties = new Properties();
        try (InputStream in = SpiVersion.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("No " + RESOURCE + " next to " + SpiVersion.class.getName()
                        + " (io/sluice/spi/" + RESOURCE + "): this SPI jar was not built by Maven, which writes it");
            }
            properties.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read io/sluice/spi/" + RESOURCE, e);
        }
        return check(properties.getProperty("version"));
    }

    static String check(String version) {
        if (version == null || !PLAIN.matcher(version).matches()) {
            throw new IllegalStateException("io/sluice/spi/" + RESOURCE + " holds SPI version '" + version
                    + "', not major.minor.patch: the build's sluice.spi.version must be a plain version such as 2.0.0");
        }
        return version;
    }
}

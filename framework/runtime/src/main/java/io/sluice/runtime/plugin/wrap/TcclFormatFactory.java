package io.sluice.runtime.plugin.wrap;

import io.sluice.spi.format.FormatFactory;

/**
 * {@link FormatFactory} of a plugin, called under the plugin's context class loader: what every
 * format has (identifier, options). Its capabilities are found and wrapped as their own types.
 */
public final class TcclFormatFactory extends TcclFactory<FormatFactory> implements FormatFactory {

    public TcclFormatFactory(FormatFactory delegate, ClassLoader loader) {
        super(delegate, loader);
    }
}

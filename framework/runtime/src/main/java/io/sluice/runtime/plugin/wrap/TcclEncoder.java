package io.sluice.runtime.plugin.wrap;

import io.sluice.runtime.plugin.PluginBound;

import org.apache.flink.api.common.serialization.Encoder;
import org.apache.flink.table.data.RowData;

import java.io.IOException;
import java.io.OutputStream;

/** A plugin's {@link Encoder}, called under the plugin's context class loader. */
public final class TcclEncoder implements Encoder<RowData>, PluginBound {

    private static final long serialVersionUID = 1L;

    private final Encoder<RowData> delegate;
    private final transient ClassLoader loader;

    TcclEncoder(Encoder<RowData> delegate, ClassLoader loader) {
        this.delegate = delegate;
        this.loader = loader;
    }

    @Override
    public void encode(RowData element, OutputStream stream) throws IOException {
        Thread t = Thread.currentThread();
        ClassLoader previous = t.getContextClassLoader();
        t.setContextClassLoader(loader);
        try {
            delegate.encode(element, stream);
        } finally {
            t.setContextClassLoader(previous);
        }
    }

    @Override
    public ClassLoader pluginClassLoader() {
        return loader;
    }

    @Override
    public Object unwrap() {
        return delegate;
    }
}

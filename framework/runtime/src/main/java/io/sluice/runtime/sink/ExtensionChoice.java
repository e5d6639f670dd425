package io.sluice.runtime.sink;

import java.io.Serializable;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A choice of extension made in the DataStream API (a bucket assigner, a rolling policy), kept as
 * the options it stands for, so that nothing of a plugin enters the job graph.
 */
public final class ExtensionChoice implements Serializable {

    private static final long serialVersionUID = 1L;

    private final LinkedHashMap<String, String> options;

    public ExtensionChoice(Map<String, String> options) {
        this.options = new LinkedHashMap<>(options);
    }

    /** The options this choice sets. */
    public Map<String, String> options() {
        return Collections.unmodifiableMap(options);
    }

    /** A copy with one more option set. */
    public ExtensionChoice with(String key, String value) {
        LinkedHashMap<String, String> copy = new LinkedHashMap<>(options);
        copy.put(key, value);
        return new ExtensionChoice(copy);
    }
}

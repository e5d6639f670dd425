package io.sluice.plugin.hive.it;

import org.apache.flink.table.functions.ScalarFunction;

/** A Flink function of the job, kept in a hive catalog by {@code HiveCatalogIT}. */
public class Shout extends ScalarFunction {
    public String eval(String s) {
        return s == null ? null : s.toUpperCase(java.util.Locale.ROOT) + "!";
    }
}

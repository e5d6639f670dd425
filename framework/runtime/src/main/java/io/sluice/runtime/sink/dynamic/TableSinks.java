package io.sluice.runtime.sink.dynamic;

import io.sluice.runtime.sink.SinkDescriptor;
import io.sluice.spi.dynamic.DynamicTables;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The single-table sinks of a dynamic sink's write targets: the dynamic sink's descriptor with the
 * table's options ({@link DynamicTables#sinkOptions}), row type, partition columns and equality
 * fields. One place, so that the router's distribution keys, the writers and the committer see
 * each table as the same sink. Caches per write target; used by one thread.
 */
final class TableSinks {

    private final SinkDescriptor base;
    private final DynamicTables tables;
    private final Map<WriteTarget, SinkDescriptor> descriptors = new HashMap<>();

    TableSinks(SinkDescriptor base, DynamicTables tables) {
        this.base = base;
        this.tables = tables;
    }

    SinkDescriptor descriptor(WriteTarget target) {
        SinkDescriptor descriptor = descriptors.get(target);
        if (descriptor == null) {
            if (descriptors.size() > 10_000) {
                descriptors.clear();
            }
            descriptor = base.forTable(
                    tables.sinkOptions(
                            target.table(), target.branch(), target.spec(), target.upsert(), target.equalityFields()),
                    target.rowType(),
                    identityColumns(target.spec()),
                    target.equalityFields());
            descriptors.put(target, descriptor);
        }
        return descriptor;
    }

    /** The columns of a spec's {@code identity(...)} transforms: the partition columns of a file target. */
    static List<String> identityColumns(List<String> spec) {
        List<String> columns = new ArrayList<>();
        for (String transform : spec) {
            String t = transform.replace(" ", "");
            if (t.regionMatches(true, 0, "identity(", 0, "identity(".length()) && t.endsWith(")")) {
                columns.add(t.substring("identity(".length(), t.length() - 1));
            }
        }
        return columns;
    }
}

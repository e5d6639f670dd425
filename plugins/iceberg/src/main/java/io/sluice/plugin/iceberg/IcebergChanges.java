package io.sluice.plugin.iceberg;

import io.sluice.spi.changes.ChangeSupport;
import io.sluice.spi.sink.SinkContext;

import java.util.ArrayList;
import java.util.List;

/**
 * Changes into an Iceberg table: with {@code upsert-enabled} (or the table's {@code
 * write.upsert.enabled}) the writers take upserts and deletes by the equality fields, as
 * upstream's upsert mode.
 */
final class IcebergChanges implements ChangeSupport {

    @Override
    public boolean acceptsChanges(SinkContext context) {
        return IcebergTargetFactory.settings(context).upsert();
    }

    /** The equality fields: the primary key, else the table's identifier fields (as upstream). */
    @Override
    public List<String> changeKey(SinkContext context) {
        return CatalogTable.loadOrCreate(
                context.options(), context.rowType(), context.partitionKeys(), context.primaryKey(), table -> {
                    List<String> key = new ArrayList<>();
                    for (int id : WriteSettings.of(table, context).equalityFieldIds()) {
                        key.add(table.schema().findColumnName(id));
                    }
                    return key;
                });
    }
}

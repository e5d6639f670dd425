package io.sluice.plugin.iceberg;

import org.apache.iceberg.PartitionField;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableUtil;
import org.apache.iceberg.types.Types;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The equality fields of an upsert, and the checks that make an upsert safe, with upstream's
 * rules: the key is the sink's primary key (SQL {@code PRIMARY KEY ... NOT ENFORCED} or the
 * builder's), else the table's identifier fields; the table must be format v2 or later (delete
 * files); every partition field's source column must be part of the key, or an update that moves a
 * row to another partition would leave the old row behind (the equality delete is scoped to the
 * new row's partition); and an upsert cannot overwrite.
 */
final class UpsertKeys {

    private static final String UPSERT = "Upsert ('" + IcebergOptions.UPSERT_ENABLED.key() + "' or table property '"
            + IcebergOptions.TABLE_UPSERT_ENABLED.key() + "')";

    private UpsertKeys() {}

    /**
     * The field ids of the equality fields for an upsert into {@code table}.
     *
     * @param primaryKey the sink's primary key columns, possibly empty
     * @param overwrite whether the sink overwrites
     * @throws IllegalArgumentException naming the table and what rules out the upsert
     */
    static Set<Integer> of(Table table, List<String> primaryKey, boolean overwrite) {
        if (overwrite) {
            throw new IllegalArgumentException(UPSERT + " and overwrite (INSERT OVERWRITE or '"
                    + IcebergOptions.OVERWRITE_ENABLED.key() + "') exclude each other: Iceberg table '" + table.name()
                    + "' cannot be overwritten in upsert mode");
        }
        int formatVersion = TableUtil.formatVersion(table);
        if (formatVersion < 2) {
            throw new IllegalArgumentException(UPSERT + " needs an Iceberg table of format version 2 or later (delete"
                    + " files), but '" + table.name() + "' is format version " + formatVersion);
        }
        Schema schema = table.schema();
        Set<Integer> ids = new LinkedHashSet<>();
        for (String column : primaryKey) {
            Types.NestedField field = schema.findField(column);
            if (field == null) {
                throw new IllegalArgumentException("Primary key column '" + column
                        + "' is not a column of Iceberg table '" + table.name() + "' " + schema.asStruct());
            }
            ids.add(field.fieldId());
        }
        if (ids.isEmpty()) {
            ids.addAll(new TreeSet<>(schema.identifierFieldIds()));
        }
        if (ids.isEmpty()) {
            throw new IllegalArgumentException(UPSERT + " needs equality fields: declare a PRIMARY KEY ... NOT ENFORCED"
                    + " (or the builder's primary key), or identifier fields on Iceberg table '" + table.name() + "'");
        }
        for (PartitionField partition : table.spec().fields()) {
            if (!ids.contains(partition.sourceId())) {
                throw new IllegalArgumentException(
                        "In upsert mode, source column '" + schema.findColumnName(partition.sourceId())
                                + "' of partition field '" + partition.name() + "' of Iceberg table '" + table.name()
                                + "' must be one of the equality fields " + names(schema, ids));
            }
        }
        return Collections.unmodifiableSet(ids);
    }

    private static List<String> names(Schema schema, Set<Integer> ids) {
        List<String> names = new ArrayList<>();
        ids.forEach(id -> names.add(schema.findColumnName(id)));
        return names;
    }
}

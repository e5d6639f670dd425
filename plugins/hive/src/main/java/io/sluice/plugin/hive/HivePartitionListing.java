package io.sluice.plugin.hive;

import io.sluice.spi.source.SourceContext;

import org.apache.flink.connectors.hive.HiveTablePartition;
import org.apache.flink.table.catalog.hive.client.HiveMetastoreClientWrapper;
import org.apache.hadoop.hive.conf.HiveConf;
import org.apache.hadoop.hive.metastore.Warehouse;
import org.apache.hadoop.hive.metastore.api.FieldSchema;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A bounded read's partitions for the planner's pruning ({@code SupportsPartitionPushDown}): the
 * metastore's partition names as values the planner evaluates the query's filters on, and the
 * partitions it kept, fetched by name, as upstream's enumerator takes them. Only the kept ones
 * cost more than their names.
 *
 * <p>A value is what a row of the partition reads: Hive's default partition ({@code
 * __HIVE_DEFAULT_PARTITION__}) is that string in a string column and {@code NULL} in any other,
 * so a filter keeps or drops the partition as it would have kept or dropped its rows.
 */
final class HivePartitionListing {

    private HivePartitionListing() {}

    /** Every partition of the source's table, column to value in the table's key order. */
    static List<Map<String, String>> list(SourceContext context) throws IOException {
        HiveStreamingPlanner.Setting setting = HiveStreamingPlanner.Setting.load(context);
        try (HiveMetastoreClientWrapper client = setting.client()) {
            List<FieldSchema> keys = setting.hiveTable.getPartitionKeys();
            String defaultName = setting.table.hiveConf.getVar(HiveConf.ConfVars.DEFAULTPARTITIONNAME);
            List<Map<String, String>> partitions = new ArrayList<>();
            for (String name : client.listPartitionNames(
                    setting.table.path.getDatabaseName(), setting.table.path.getObjectName(), (short) -1)) {
                partitions.add(values(keys, Warehouse.makeValsFromName(name, null), defaultName));
            }
            return partitions;
        } catch (IOException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException(
                    "Cannot list the partitions of Hive table " + setting.table.path.getFullName() + ": " + e, e);
        }
    }

    /** The partitions of {@code kept} (as {@link #list} gave them) that still exist, fetched from the metastore. */
    static List<HiveTablePartition> fetch(SourceContext context, List<Map<String, String>> kept) throws IOException {
        HiveStreamingPlanner.Setting setting = HiveStreamingPlanner.Setting.load(context);
        try (HiveMetastoreClientWrapper client = setting.client()) {
            List<FieldSchema> keys = setting.hiveTable.getPartitionKeys();
            String defaultName = setting.table.hiveConf.getVar(HiveConf.ConfVars.DEFAULTPARTITIONNAME);
            List<String> names = new ArrayList<>(kept.size());
            for (Map<String, String> partition : kept) {
                names.add(name(keys, partition, defaultName));
            }
            return setting.partitions(client, names, Map.of());
        } catch (IOException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException(
                    "Cannot fetch the partitions of Hive table " + setting.table.path.getFullName() + ": " + e, e);
        }
    }

    /** A partition name's values as the planner reads them. */
    static Map<String, String> values(List<FieldSchema> keys, List<String> values, String defaultName) {
        if (values.size() != keys.size()) {
            throw new IllegalStateException("Partition values " + values + " do not match the keys " + names(keys));
        }
        Map<String, String> partition = new LinkedHashMap<>();
        for (int i = 0; i < keys.size(); i++) {
            String value = values.get(i);
            partition.put(keys.get(i).getName(), defaultName.equals(value) && !isString(keys.get(i)) ? null : value);
        }
        return partition;
    }

    /** The metastore's name of a partition {@link #values} made. */
    static String name(List<FieldSchema> keys, Map<String, String> partition, String defaultName) throws Exception {
        List<String> values = new ArrayList<>(keys.size());
        for (FieldSchema key : keys) {
            if (!partition.containsKey(key.getName())) {
                throw new IllegalArgumentException("Partition " + partition + " has no value of key " + key.getName());
            }
            String value = partition.get(key.getName());
            values.add(value == null ? defaultName : value);
        }
        return Warehouse.makePartName(keys, values);
    }

    private static boolean isString(FieldSchema key) {
        String type = key.getType().trim().toLowerCase(Locale.ROOT);
        return type.equals("string") || type.startsWith("varchar") || type.startsWith("char");
    }

    private static List<String> names(List<FieldSchema> keys) {
        List<String> names = new ArrayList<>();
        for (FieldSchema key : keys) {
            names.add(key.getName());
        }
        return names;
    }
}

package io.sluice.plugin.hive;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.connectors.hive.HiveOptions;
import org.apache.hadoop.mapred.JobConf;

/**
 * Upstream's read options of the job configuration (split sizing, the threads that list partitions
 * and size them, reading a partition's subdirectories; names and defaults of {@link HiveOptions}), put into the {@link
 * JobConf} where upstream's {@code HiveSourceFileEnumerator} looks for them, as upstream's source
 * builder does. A value that is not valid is refused naming the option.
 */
final class HiveReadSettings {

    /**
     * Upstream's deprecated switch of the parallelism inference (same key and default), declared
     * here: the port of upstream's connector to Flink 2 removes it, while docs/hive.md still
     * promises that {@code false} turns the inference off.
     */
    static final ConfigOption<Boolean> INFER_SOURCE_PARALLELISM = ConfigOptions.key(
                    "table.exec.hive.infer-source-parallelism")
            .booleanType()
            .defaultValue(true)
            .withDescription("Deprecated: false turns the inference of a Hive read's parallelism off, whatever"
                    + " 'table.exec.hive.infer-source-parallelism.mode' says.");

    private HiveReadSettings() {}

    static JobConf jobConf(org.apache.hadoop.hive.conf.HiveConf hiveConf, ReadableConfig job) {
        JobConf conf = new JobConf(hiveConf);
        conf.set(
                HiveOptions.TABLE_EXEC_HIVE_LOAD_PARTITION_SPLITS_THREAD_NUM.key(),
                String.valueOf(atLeastOne(job, HiveOptions.TABLE_EXEC_HIVE_LOAD_PARTITION_SPLITS_THREAD_NUM)));
        conf.set(
                HiveOptions.TABLE_EXEC_HIVE_CALCULATE_PARTITION_SIZE_THREAD_NUM.key(),
                String.valueOf(atLeastOne(job, HiveOptions.TABLE_EXEC_HIVE_CALCULATE_PARTITION_SIZE_THREAD_NUM)));
        conf.set(
                HiveOptions.TABLE_EXEC_HIVE_SPLIT_MAX_BYTES.key(),
                String.valueOf(
                        get(job, HiveOptions.TABLE_EXEC_HIVE_SPLIT_MAX_BYTES).getBytes()));
        conf.set(
                HiveOptions.TABLE_EXEC_HIVE_FILE_OPEN_COST.key(),
                String.valueOf(
                        get(job, HiveOptions.TABLE_EXEC_HIVE_FILE_OPEN_COST).getBytes()));
        // a partition's subdirectories (an external table over another's deeper layout), as upstream
        conf.set(
                org.apache.hadoop.mapreduce.lib.input.FileInputFormat.INPUT_DIR_RECURSIVE,
                String.valueOf(get(job, HiveOptions.TABLE_EXEC_HIVE_READ_PARTITION_WITH_SUBDIRECTORY_ENABLED)));
        // upstream's enumerator infers nothing here: the plugin infers the source's parallelism on
        // the client and plans the splits for the readers the job runs with (SourceContext#readers)
        conf.setBoolean(INFER_SOURCE_PARALLELISM.key(), false);
        conf.set(
                HiveOptions.TABLE_EXEC_HIVE_INFER_SOURCE_PARALLELISM_MAX.key(),
                String.valueOf(get(job, HiveOptions.TABLE_EXEC_HIVE_INFER_SOURCE_PARALLELISM_MAX)));
        return conf;
    }

    /** The inference mode; the deprecated boolean switch, when false, turns it off as upstream. */
    static HiveOptions.InferMode inferMode(ReadableConfig job) {
        if (!get(job, INFER_SOURCE_PARALLELISM)) {
            return HiveOptions.InferMode.NONE;
        }
        return get(job, HiveOptions.TABLE_EXEC_HIVE_INFER_SOURCE_PARALLELISM_MODE);
    }

    static int inferMax(ReadableConfig job) {
        return atLeastOne(job, HiveOptions.TABLE_EXEC_HIVE_INFER_SOURCE_PARALLELISM_MAX);
    }

    private static int atLeastOne(ReadableConfig job, ConfigOption<Integer> option) {
        int value = get(job, option);
        if (value < 1) {
            throw new IllegalArgumentException("Invalid '" + option.key() + "' " + value + ": must be 1 or more");
        }
        return value;
    }

    private static <T> T get(ReadableConfig job, ConfigOption<T> option) {
        try {
            return job.get(option);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("Invalid '" + option.key() + "': " + e.getMessage(), e);
        }
    }
}

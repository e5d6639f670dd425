package io.sluice.plugin.formats.parquet;

import org.apache.flink.configuration.Configuration;
import org.apache.parquet.hadoop.ParquetOutputFormat;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ParquetWriterConfigurationTest {

    @Test
    void writesEachOptionUnderTheKeyParquetReads() {
        assertThat(ParquetWriterConfiguration.hadoopKey(ParquetOptions.COMPRESSION))
                .isEqualTo(ParquetOutputFormat.COMPRESSION);
        assertThat(ParquetWriterConfiguration.hadoopKey(ParquetOptions.BLOCK_SIZE))
                .isEqualTo(ParquetOutputFormat.BLOCK_SIZE);
        assertThat(ParquetWriterConfiguration.hadoopKey(ParquetOptions.PAGE_SIZE))
                .isEqualTo(ParquetOutputFormat.PAGE_SIZE);
        assertThat(ParquetWriterConfiguration.hadoopKey(ParquetOptions.DICTIONARY_PAGE_SIZE))
                .isEqualTo(ParquetOutputFormat.DICTIONARY_PAGE_SIZE);
        assertThat(ParquetWriterConfiguration.hadoopKey(ParquetOptions.ENABLE_DICTIONARY))
                .isEqualTo(ParquetOutputFormat.ENABLE_DICTIONARY);
        assertThat(ParquetWriterConfiguration.hadoopKey(ParquetOptions.WRITER_VERSION))
                .isEqualTo(ParquetOutputFormat.WRITER_VERSION);
    }

    @Test
    void holdsTheOptionValuesAndParquetsDefaults() {
        org.apache.hadoop.conf.Configuration conf = ParquetWriterConfiguration.create(
                Configuration.fromMap(Map.of("compression", "zstd", "writer.version", "v2")));

        assertThat(conf.get(ParquetOutputFormat.COMPRESSION)).isEqualTo("ZSTD");
        assertThat(conf.get(ParquetOutputFormat.WRITER_VERSION)).isEqualTo("PARQUET_2_0");
        assertThat(ParquetOutputFormat.getBlockSize(conf)).isEqualTo(128 * 1024 * 1024);
        assertThat(ParquetOutputFormat.getEnableDictionary(conf)).isTrue();
    }

    @Test
    void loadsNoHadoopResourcesAndUsesThePluginsClassLoader() {
        org.apache.hadoop.conf.Configuration conf = ParquetWriterConfiguration.create(new Configuration());

        // core-default.xml would define these; core-site.xml of some classpath could change them
        assertThat(conf.get("fs.defaultFS")).isNull();
        assertThat(conf.get("hadoop.tmp.dir")).isNull();
        assertThat(conf.getClassLoader()).isSameAs(ParquetWriterConfiguration.class.getClassLoader());
    }
}

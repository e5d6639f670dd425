package io.sluice.plugin.hive.interop;

import org.apache.flink.connectors.hive.HiveSourceSplitSerializer;
import org.apache.flink.connectors.hive.HiveTablePartition;
import org.apache.flink.connectors.hive.read.HiveSourceSplit;
import org.apache.flink.core.fs.Path;
import org.apache.hadoop.hive.metastore.api.FieldSchema;
import org.apache.hadoop.hive.metastore.api.SerDeInfo;
import org.apache.hadoop.hive.metastore.api.StorageDescriptor;
import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The hive scan source's split payloads are upstream's {@link HiveSourceSplitSerializer} bytes,
 * and they are state: the framework's split enumerator checkpoints the splits it has not handed
 * out. So the bytes of version 1, as this build's {@code flink-connector-hive} writes them (the
 * plugin's version), are checked in ({@code hive-split-migration/partitioned/v1.b64}) and must
 * still be read, field by field: an upgrade of the connector that changes them needs a
 * conversion in the plugin. A missing file is written on the first run
 * ({@code -Dsluice.migration.write=true}); it is never overwritten.
 */
class HiveSplitPayloadMigrationTest {

    private static final String RESOURCE = "hive-split-migration/partitioned/v1.b64";

    @Test
    void version1SplitsAreRead() throws Exception {
        if (Boolean.getBoolean("sluice.migration.write")) {
            java.nio.file.Path file = Paths.get("src", "test", "resources").resolve(RESOURCE);
            if (!Files.exists(file)) {
                Files.createDirectories(file.getParent());
                Files.write(
                        file, Base64.getMimeEncoder().encode(HiveSourceSplitSerializer.INSTANCE.serialize(split())));
            }
        }
        byte[] bytes;
        try (InputStream in = getClass().getClassLoader().getResourceAsStream(RESOURCE)) {
            assertThat(in).as("checked-in bytes " + RESOURCE).isNotNull();
            bytes = Base64.getMimeDecoder().decode(new String(in.readAllBytes(), StandardCharsets.US_ASCII));
        }
        assertThat(HiveSourceSplitSerializer.INSTANCE.getVersion()).isEqualTo(1);

        HiveSourceSplit read = HiveSourceSplitSerializer.INSTANCE.deserialize(1, bytes);

        HiveSourceSplit expected = split();
        assertThat(read.path()).isEqualTo(expected.path());
        assertThat(read.offset()).isEqualTo(expected.offset());
        assertThat(read.length()).isEqualTo(expected.length());
        assertThat(read.getHiveTablePartition().getPartitionSpec()).isEqualTo(Map.of("dt", "2026-12-01"));
        StorageDescriptor sd = read.getHiveTablePartition().getStorageDescriptor();
        assertThat(sd.getLocation()).isEqualTo("file:/warehouse/db.db/t/dt=2026-12-01");
        assertThat(sd.getSerdeInfo().getSerializationLib())
                .isEqualTo("org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe");
        assertThat(sd.getCols()).extracting(FieldSchema::getName).containsExactly("id", "name");
        assertThat(read.getHiveTablePartition().getTableProps()).containsEntry("serialization.format", "1");
        // and written again, the same bytes: the layout of version 1 has not moved
        assertThat(HiveSourceSplitSerializer.INSTANCE.serialize(read)).isEqualTo(bytes);
    }

    private static HiveSourceSplit split() {
        StorageDescriptor sd = new StorageDescriptor();
        sd.setLocation("file:/warehouse/db.db/t/dt=2026-12-01");
        sd.setInputFormat("org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat");
        sd.setOutputFormat("org.apache.hadoop.hive.ql.io.parquet.MapredParquetOutputFormat");
        sd.setCols(List.of(new FieldSchema("id", "bigint", null), new FieldSchema("name", "string", null)));
        SerDeInfo serde = new SerDeInfo();
        serde.setSerializationLib("org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe");
        serde.setParameters(Map.of("serialization.format", "1"));
        sd.setSerdeInfo(serde);
        Properties props = new Properties();
        props.setProperty("serialization.format", "1");
        LinkedHashMap<String, String> spec = new LinkedHashMap<>();
        spec.put("dt", "2026-12-01");
        HiveTablePartition partition = new HiveTablePartition(sd, spec, props);
        return new HiveSourceSplit(
                "scan-1",
                new Path("file:/warehouse/db.db/t/dt=2026-12-01/part-0"),
                0,
                1234,
                0,
                1234,
                new String[0],
                null,
                partition);
    }
}

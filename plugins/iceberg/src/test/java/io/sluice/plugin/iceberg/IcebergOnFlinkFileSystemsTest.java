package io.sluice.plugin.iceberg;

import io.sluice.hadoopbridge.FlinkBackedFileSystem;
import io.sluice.hadoopbridge.testing.LocalObjectStore;
import io.sluice.spi.Payload;
import io.sluice.spi.sink.TargetCommitter;
import io.sluice.spi.sink.TargetWriter;
import io.sluice.testkit.TestSinkContext;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetReaders;
import org.apache.iceberg.data.parquet.GenericParquetWriter;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.hadoop.HadoopFileIO;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.FileAppender;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Iceberg on a file system only Flink reaches ({@code bridgetest://}, Flink's local file system
 * under another name, mapped to the Hadoop bridge as the object stores are): Iceberg's {@code
 * HadoopFileIO} writes, lists, reads and deletes a data file, and the plugin's writer and committer
 * write a table, through the plugin's Hadoop configurations and Flink's file system. The object
 * stores themselves map to the bridge in every configuration of the plugin.
 */
class IcebergOnFlinkFileSystemsTest {

    private static final Schema SCHEMA = new Schema(
            Types.NestedField.required(1, "id", Types.LongType.get()),
            Types.NestedField.optional(2, "name", Types.StringType.get()));

    @TempDir
    Path dir;

    @Test
    void theObjectStoresGoThroughFlinkInEveryConfiguration() throws IOException {
        Path confDir = Files.createDirectories(dir.resolve("conf"));
        // a core-site.xml copied from a cluster that had the S3A and ABFS connectors
        Files.writeString(
                confDir.resolve("core-site.xml"),
                "<configuration>"
                        + "<property><name>fs.s3a.impl</name><value>org.apache.hadoop.fs.s3a.S3AFileSystem</value></property>"
                        + "<property><name>fs.abfss.impl</name>"
                        + "<value>org.apache.hadoop.fs.azurebfs.SecureAzureBlobFileSystem</value></property>"
                        + "</configuration>");
        Configuration plugin = HadoopConfigurations.create(confDir.toString(), null);
        // what Iceberg's and Hadoop's internals create themselves, once the plugin has made one
        Configuration internal = new Configuration();
        for (Configuration conf : List.of(HadoopConfigurations.create(), plugin, internal)) {
            for (String scheme : List.of("s3", "s3a", "gs", "abfss", "wasbs", "oss")) {
                assertThat(FileSystem.getFileSystemClass(scheme, conf))
                        .as(scheme)
                        .isEqualTo(FlinkBackedFileSystem.class);
            }
            assertThat(FileSystem.getFileSystemClass("file", conf)).isNotEqualTo(FlinkBackedFileSystem.class);
        }
        // without a Flink file system for s3a (none on this class path), the error says what to add
        HadoopFileIO io = new HadoopFileIO(plugin);
        assertThatThrownBy(() -> io.newInputFile("s3a://bucket/warehouse/db/t/metadata/v1.metadata.json")
                        .exists())
                .hasStackTraceContaining("No Flink file system for 's3a://'")
                .hasStackTraceContaining("flink-s3-fs-hadoop");
    }

    @Test
    void hadoopFileIoWritesListsReadsAndDeletesADataFile() throws IOException {
        HadoopFileIO io =
                new HadoopFileIO(HadoopConfigurations.create(bridgeConfDir().toString(), null));
        String prefix = LocalObjectStore.location(dir.resolve("io"));
        String location = prefix + "/data/part-0.parquet";
        List<Record> written = records(1, 1000);
        try (FileAppender<Record> appender = Parquet.write(io.newOutputFile(location))
                .schema(SCHEMA)
                .createWriterFunc(type -> GenericParquetWriter.create(SCHEMA, type))
                .build()) {
            appender.addAll(written);
        }
        Path local = dir.resolve("io/data/part-0.parquet");
        assertThat(local).isRegularFile();
        assertThatThrownBy(() -> io.newOutputFile(location).create()).isInstanceOf(AlreadyExistsException.class);

        List<FileInfo> listed = new ArrayList<>();
        io.listPrefix(prefix).forEach(listed::add);
        assertThat(listed).singleElement().satisfies(f -> {
            assertThat(f.location()).isEqualTo(location);
            assertThat(f.size()).isEqualTo(Files.size(local));
        });
        assertThat(io.newInputFile(location).getLength()).isEqualTo(Files.size(local));

        List<String> read = new ArrayList<>();
        try (CloseableIterable<Record> records = Parquet.read(io.newInputFile(location))
                .project(SCHEMA)
                .createReaderFunc(type -> GenericParquetReaders.buildReader(SCHEMA, type))
                .build()) {
            records.forEach(r -> read.add(r.getField("id") + "=" + r.getField("name")));
        }
        assertThat(read)
                .isEqualTo(written.stream()
                        .map(r -> r.getField("id") + "=" + r.getField("name"))
                        .collect(Collectors.toList()));

        io.deleteFile(location);
        assertThat(local).doesNotExist();
        assertThat(io.newInputFile(location).exists()).isFalse();
    }

    @Test
    void theTargetWritesAndCommitsATableThroughFlink() throws Exception {
        Path warehouse = dir.resolve("warehouse");
        TestSinkContext context = IcebergSinks.hadoop(warehouse, Writes.ROW)
                .option("warehouse", LocalObjectStore.location(warehouse))
                .option("hadoop-conf-dir", bridgeConfDir().toString())
                .build();
        IcebergTargetFactory target = new IcebergTargetFactory();
        target.validate(context);
        List<Payload> pending = new ArrayList<>();
        try (TargetWriter writer = target.createWriter(context, new ArrayList<>())) {
            pending.addAll(Writes.write(writer, 1, 100));
        }
        try (TargetCommitter committer = target.createCommitter(context)) {
            committer.commit(Writes.request(IcebergSinks.JOB, "00000000000000000000000000000b0b", 1, pending));
        }
        try (CatalogTable table = CatalogTable.load(context.options())) {
            assertThat(table.table().location()).startsWith("bridgetest://bucket/");
            assertThat(Writes.ids(table.table()))
                    .isEqualTo(LongStream.rangeClosed(1, 100).boxed().collect(Collectors.toList()));
        }
        // every file went to the local disk underneath, through Flink
        try (Stream<Path> files = Files.walk(warehouse.resolve("db/t"))) {
            assertThat(files.map(p -> p.getFileName().toString()))
                    .anyMatch(n -> n.endsWith(".metadata.json"))
                    .anyMatch(n -> n.endsWith(".parquet"))
                    .anyMatch(n -> n.endsWith(".avro"));
        }
    }

    /** A Hadoop configuration directory that maps {@code bridgetest} to the bridge. */
    private Path bridgeConfDir() throws IOException {
        Path confDir = Files.createDirectories(dir.resolve("bridge-conf"));
        Files.writeString(
                confDir.resolve("core-site.xml"),
                "<configuration><property><name>fs.bridgetest.impl</name><value>"
                        + FlinkBackedFileSystem.class.getName() + "</value></property></configuration>");
        return confDir;
    }

    private static List<Record> records(long from, long to) {
        List<Record> records = new ArrayList<>();
        for (long id = from; id <= to; id++) {
            GenericRecord r = GenericRecord.create(SCHEMA);
            r.setField("id", id);
            r.setField("name", id % 7 == 0 ? null : "name-" + id);
            records.add(r);
        }
        return records;
    }
}

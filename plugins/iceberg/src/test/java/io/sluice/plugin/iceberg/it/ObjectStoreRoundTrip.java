package io.sluice.plugin.iceberg.it;

import io.sluice.testservers.s3.S3Server;

import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.FileIO;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.LocalInputFile;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One round trip of the iceberg target on a store, shared by the object-store tests of every
 * catalog: the same tables, writes and expected rows ({@link #writeAndReadBack}), and the same
 * checks independent of the plugin: the objects of a table on S3 ({@link #checkTableOnS3}), the rows
 * by Iceberg's generic reader and the live data files' row counts by parquet-java ({@link
 * #checkRows}).
 */
final class ObjectStoreRoundTrip {

    static final int ROWS = 400;

    private ObjectStoreRoundTrip() {}

    /**
     * {@code db.orders} (partitioned by {@code dt}): two appends of {@link #ROWS} rows, then an
     * overwrite of partition {@code d0}; {@code db.users} (primary key {@code id}, upserts): two
     * jobs, the second replacing a key. Both read back through Sluice's scan source.
     */
    static void writeAndReadBack(TableEnvironment tEnv, String catalog, String database) throws Exception {
        tEnv.executeSql("CREATE DATABASE " + catalog + "." + database);
        tEnv.executeSql("CREATE TABLE " + catalog + "." + database
                + ".orders (id BIGINT, name STRING, dt STRING) PARTITIONED BY (dt)");
        tEnv.executeSql("CREATE TEMPORARY TABLE numbers (id BIGINT) WITH ('connector' = 'datagen', "
                + "'number-of-rows' = '" + ROWS + "', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', "
                + "'fields.id.end' = '" + ROWS + "')");
        String orders = catalog + "." + database + ".orders";
        tEnv.executeSql("INSERT INTO " + orders + " SELECT id, CONCAT('n', CAST(id AS STRING)), "
                        + "CONCAT('d', CAST(id % 4 AS STRING)) FROM numbers")
                .await();
        tEnv.executeSql("INSERT INTO " + orders + " SELECT id + " + ROWS + ", CONCAT('m', CAST(id AS STRING)), "
                        + "CONCAT('d', CAST(id % 4 AS STRING)) FROM numbers")
                .await();
        // dynamic overwrite: partition d0 is replaced by two rows, d1..d3 stay
        tEnv.executeSql("INSERT OVERWRITE " + orders + " VALUES (-1, 'x', 'd0'), (-2, 'y', 'd0')")
                .await();

        tEnv.executeSql("CREATE TABLE " + catalog + "." + database + ".users (id INT NOT NULL, name STRING, "
                + "PRIMARY KEY (id) NOT ENFORCED) WITH ('format-version' = '2', 'write.upsert.enabled' = 'true')");
        String users = catalog + "." + database + ".users";
        tEnv.executeSql("INSERT INTO " + users + " VALUES (1, 'a'), (2, 'b'), (3, 'c')")
                .await();
        tEnv.executeSql("INSERT INTO " + users + " VALUES (2, 'B'), (4, 'd')").await();

        List<String> read = collect(tEnv, "SELECT id, name, dt FROM " + orders);
        assertThat(read).hasSize(expectedOrders().size());
        assertThat(read).containsExactlyInAnyOrderElementsOf(expectedOrders());
        assertThat(collect(tEnv, "SELECT name FROM " + orders + " WHERE dt = 'd0'"))
                .containsExactlyInAnyOrder("x", "y");
        assertThat(collect(tEnv, "SELECT id, name FROM " + users)).containsExactlyInAnyOrderElementsOf(expectedUsers());
    }

    static List<String> expectedOrders() {
        List<String> rows = new ArrayList<>(List.of("-1|x|d0", "-2|y|d0"));
        for (int id = 1; id <= ROWS; id++) {
            if (id % 4 != 0) {
                rows.add(id + "|n" + id + "|d" + id % 4);
                rows.add((id + ROWS) + "|m" + id + "|d" + id % 4);
            }
        }
        return rows;
    }

    static List<String> expectedUsers() {
        return List.of("1|a", "2|B", "3|c", "4|d");
    }

    static List<String> expected(String table) {
        return table.equals("orders") ? expectedOrders() : expectedUsers();
    }

    /**
     * Every object of the table under {@code prefix} of {@code bucket}; the table ({@code operations} over a file IO
     * of the bytes of its objects) read from them (fetched by the AWS SDK) by Iceberg's generic reader, and the live data
     * files' rows counted by parquet-java; no multipart upload left open.
     */
    static void checkTableOnS3(
            S3Server s3,
            String bucket,
            Path tmp,
            String scheme,
            String prefix,
            String table,
            Function<FileIO, TableOperations> operations)
            throws IOException {
        List<String> keys = s3.keys(bucket, prefix);
        assertThat(keys).anyMatch(k -> k.startsWith(prefix + "data/") && k.endsWith(".parquet"));
        assertThat(keys).anyMatch(k -> k.startsWith(prefix + "metadata/") && k.endsWith(".avro"));
        assertThat(keys)
                .as("every object of the table under data/ or metadata/ (or the table's directory marker)")
                .allMatch(
                        k -> k.equals(prefix) || k.startsWith(prefix + "data/") || k.startsWith(prefix + "metadata/"));

        Path copy = s3.download(bucket, prefix, Files.createTempDirectory(tmp, "copy-"));
        String root = scheme + "://" + bucket + "/" + prefix;
        Table loaded = IcebergTables.fromCopy(copy, root, operations, table);
        assertThat(loaded.location() + "/").isEqualTo(root);
        checkRows(loaded, table, location -> {
            assertThat(location).startsWith(root);
            return new LocalInputFile(copy.resolve(location.substring(root.length())));
        });
        assertThat(s3.openUploads(bucket, prefix)).isEmpty();
    }

    /** Opens a data file by its location, from wherever the test fetched it. */
    interface ParquetFiles {
        InputFile open(String location) throws IOException;
    }

    /** The rows by Iceberg's generic reader; the live data files' rows by parquet-java. */
    static void checkRows(Table table, String name, ParquetFiles parquet) throws IOException {
        assertThat(IcebergTables.rows(table)).containsExactlyInAnyOrderElementsOf(expected(name));
        long rows = 0;
        int dataFiles = 0;
        try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
            for (FileScanTask task : tasks) {
                DataFile file = task.file();
                assertThat(file.location()).startsWith(table.location() + "/data/");
                try (ParquetFileReader reader = ParquetFileReader.open(parquet.open(file.location()))) {
                    assertThat(reader.getRecordCount()).isEqualTo(file.recordCount());
                    rows += reader.getRecordCount();
                }
                dataFiles++;
            }
        }
        assertThat(dataFiles).isPositive();
        if (name.equals("orders")) {
            // appends and an overwrite: no deletes, so the live data files hold exactly the table's rows
            assertThat(rows).isEqualTo(expectedOrders().size());
        } else {
            // upserts: the replaced row stays in its file, deleted by an equality (or position) delete
            assertThat(rows).isGreaterThanOrEqualTo(expectedUsers().size());
        }
    }

    static List<String> collect(TableEnvironment tEnv, String sql) throws Exception {
        List<String> rows = new ArrayList<>();
        try (CloseableIterator<Row> it = tEnv.executeSql(sql).collect()) {
            it.forEachRemaining(r -> rows.add(IntStream.range(0, r.getArity())
                    .mapToObj(i -> String.valueOf(r.getField(i)))
                    .collect(Collectors.joining("|"))));
        }
        return rows;
    }
}

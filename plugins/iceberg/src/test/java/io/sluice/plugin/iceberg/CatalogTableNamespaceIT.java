package io.sluice.plugin.iceberg;

import io.sluice.plugin.iceberg.it.HiveMetastoreServer;

import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hive.HiveCatalog;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Several clients of one Hive metastore create the same database at once, as the dynamic sink's
 * routers do for a table none of them has seen: each then writes a file into the database's
 * directory, as a table created there does. Every file must stay. The metastore deletes the
 * directory of a create that made it and then failed, so without Sluice making the directory
 * first, the losers of the race deleted the winners' files (the table stayed in the metastore,
 * its metadata file gone).
 */
class CatalogTableNamespaceIT {

    private static final int CLIENTS = 4;
    private static final int DATABASES = 6;

    @TempDir
    static Path tmp;

    private static HiveMetastoreServer metastore;

    @BeforeAll
    static void startMetastore() throws Exception {
        metastore = HiveMetastoreServer.start(tmp.resolve("metastore-warehouse"));
    }

    @AfterAll
    static void stopMetastore() throws Exception {
        if (metastore != null) {
            metastore.close();
        }
    }

    @Test
    void aDatabaseCreatedByManyClientsAtOnceKeepsWhatTheyPutInIt() throws Exception {
        Path warehouse = Files.createDirectory(tmp.resolve("warehouse"));
        List<HiveCatalog> catalogs = new ArrayList<>();
        ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
        try {
            for (int i = 0; i < CLIENTS; i++) {
                HiveCatalog catalog = new HiveCatalog();
                catalog.setConf(new Configuration());
                catalog.initialize(
                        "client-" + i,
                        Map.of(
                                CatalogProperties.URI,
                                metastore.uri(),
                                CatalogProperties.WAREHOUSE_LOCATION,
                                warehouse.toUri().toString()));
                catalogs.add(catalog);
            }
            for (int d = 0; d < DATABASES; d++) {
                String database = "race_" + d;
                CyclicBarrier start = new CyclicBarrier(CLIENTS);
                List<Future<?>> creates = new ArrayList<>();
                for (int i = 0; i < CLIENTS; i++) {
                    HiveCatalog catalog = catalogs.get(i);
                    int client = i;
                    creates.add(clients.submit(() -> {
                        start.await(30, TimeUnit.SECONDS);
                        CatalogTable.createNamespace(catalog, TableIdentifier.of(database, "t"));
                        Path directory = warehouse.resolve(database + ".db");
                        Files.createDirectories(directory);
                        Files.writeString(directory.resolve("client-" + client), "table files of client " + client);
                        return null;
                    }));
                }
                for (Future<?> create : creates) {
                    create.get(60, TimeUnit.SECONDS);
                }
            }
        } finally {
            clients.shutdownNow();
            for (HiveCatalog catalog : catalogs) {
                catalog.close();
            }
        }

        List<String> lost = new ArrayList<>();
        for (int d = 0; d < DATABASES; d++) {
            for (int i = 0; i < CLIENTS; i++) {
                Path file = warehouse.resolve("race_" + d + ".db").resolve("client-" + i);
                if (!Files.exists(file)) {
                    lost.add(warehouse.relativize(file).toString());
                }
            }
        }
        assertThat(lost)
                .as("files deleted with a database directory by a create that lost the race")
                .isEmpty();
    }
}

package io.sluice.plugin.iceberg.it;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.conf.HiveConf;
import org.apache.hadoop.hive.metastore.DefaultMetaStoreFilterHookImpl;
import org.apache.hadoop.hive.metastore.api.NoSuchObjectException;
import org.apache.hadoop.hive.metastore.api.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hive.HiveCatalog;

import java.util.Map;

/**
 * The main class of a JVM that dies holding Iceberg's metastore lock on a table, as a committer
 * does when its process is killed in the middle of a commit: Iceberg's own {@code HiveCatalog} (of
 * the test class path: Iceberg 1.11 and the Hive 2.3.10 client, the versions the plugin bundles)
 * commits a table property and stops inside {@code HiveTableOperations.doCommit}, after
 * Iceberg's {@code MetastoreLock} took the table's lock and started heartbeating it, before the
 * metastore's table is altered. It stays there until the test kills the process.
 *
 * <p>The pause is Hive's client-side filter hook ({@code hive.metastore.filter.hook}), which Hive's
 * client applies to every table it fetches: the first fetch made from inside {@code doCommit} (the
 * commit's reload of the table, right after the lock) blocks for good. A real commit rather than a
 * lock request made by hand: the lock is Iceberg's own request (type, level, agent, user, host) and
 * its heartbeats come from Iceberg's own thread, at {@code iceberg.hive.lock-heartbeat-interval-ms}.
 *
 * <p>Arguments: the metastore's URI, the warehouse, the database, the table, the heartbeat
 * interval in milliseconds. Prints {@link #PAUSED} once the lock is held.
 */
public final class PausedHiveCommit {

    /** The line printed when the commit holds the lock and stops. */
    static final String PAUSED = "PAUSED INSIDE THE COMMIT, HOLDING THE TABLE'S LOCK";

    /** The table property the paused commit would set: never set, since the commit never ends. */
    static final String PROPERTY = "sluice.test.killed-commit";

    private PausedHiveCommit() {}

    public static void main(String[] args) throws Exception {
        Configuration conf = new Configuration();
        conf.set("hive.metastore.filter.hook", PauseInsideCommit.class.getName());
        conf.set("iceberg.hive.lock-heartbeat-interval-ms", args[4]);
        HiveCatalog catalog = new HiveCatalog();
        catalog.setConf(conf);
        catalog.initialize("killed-committer", Map.of("uri", args[0], "warehouse", args[1]));
        org.apache.iceberg.Table table = catalog.loadTable(TableIdentifier.of(args[2], args[3]));
        table.updateProperties().set(PROPERTY, "committed").commit();
        System.out.println("The commit ended: it was never paused inside the lock");
        System.exit(2);
    }

    /** Blocks the first table fetched inside a commit of Iceberg's Hive catalog, for good. */
    public static final class PauseInsideCommit extends DefaultMetaStoreFilterHookImpl {

        public PauseInsideCommit(HiveConf conf) {
            super(conf);
        }

        @Override
        public Table filterTable(Table table) throws NoSuchObjectException {
            boolean insideCommit = StackWalker.getInstance()
                    .walk(frames ->
                            frames.anyMatch(f -> f.getClassName().equals("org.apache.iceberg.hive.HiveTableOperations")
                                    && f.getMethodName().equals("doCommit")));
            if (insideCommit) {
                System.out.println(PAUSED);
                System.out.flush();
                while (true) { // until SIGKILL; the heartbeat thread keeps the lock alive meanwhile
                    try {
                        Thread.sleep(Long.MAX_VALUE);
                    } catch (InterruptedException ignored) {
                        // a committer stuck in a call does not notice either
                    }
                }
            }
            return super.filterTable(table);
        }
    }
}

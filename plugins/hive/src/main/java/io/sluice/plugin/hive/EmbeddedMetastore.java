package io.sluice.plugin.hive;

import org.apache.hadoop.hive.conf.HiveConf;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A metastore inside the catalog's own process: Hive's metastore handler on an embedded Derby
 * database, instead of a thrift client to a metastore service. For tests, examples and a single
 * process; Derby lets one JVM open the database, so two processes on one directory fail.
 */
final class EmbeddedMetastore {

    /** Derby's database directory under {@code metastore.dir}. */
    static final String DATABASE = "metastore_db";
    /**
     * The file Derby locks while a process has the database open: the lock is the operating
     * system's, so it is gone when that process ends, also when it was killed.
     */
    static final String PROCESS_LOCK = "dbex.lck";
    /** The default warehouse under {@code metastore.dir}: databases' and tables' directories. */
    static final String WAREHOUSE = "warehouse";

    private EmbeddedMetastore() {}

    /** Whether the configuration names no metastore service, so the client would run one in process. */
    static boolean isEmbedded(HiveConf conf) {
        String uris = conf.getVar(HiveConf.ConfVars.METASTOREURIS);
        return uris == null || uris.trim().isEmpty();
    }

    /** Points the configuration at a Derby metastore and a warehouse in {@code dir}. */
    static void configure(HiveConf conf, Path dir) {
        conf.setVar(HiveConf.ConfVars.METASTOREURIS, "");
        conf.setVar(
                HiveConf.ConfVars.METASTORECONNECTURLKEY,
                "jdbc:derby:;databaseName=" + dir.resolve(DATABASE) + ";create=true");
        conf.setVar(HiveConf.ConfVars.METASTORE_CONNECTION_DRIVER, "org.apache.derby.jdbc.EmbeddedDriver");
        conf.setVar(
                HiveConf.ConfVars.METASTOREWAREHOUSE,
                dir.resolve(WAREHOUSE).toUri().toString());
        // a new directory has no schema yet: let DataNucleus create it, and do not compare it
        // with the schema version of a schema tool that never ran
        conf.set("datanucleus.schema.autoCreateAll", "true");
        conf.setBoolVar(HiveConf.ConfVars.METASTORE_SCHEMA_VERIFICATION, false);
        conf.set("metastore.schema.verification", "false");
        // Hive's in-process metastore keeps its database connection (the RawStore) and its
        // configuration per thread, shared by every embedded client on that thread: without a
        // reload, a thread that opened a catalog on another directory last sends this catalog's
        // calls to that directory's database (CREATE TABLE in one, INSERT finds no table in the
        // other), and re-pointing it closes the other's connections. With the reload each call
        // first re-binds the thread's RawStore to the directory of the client that makes it.
        conf.setBoolVar(HiveConf.ConfVars.HMSHANDLERFORCERELOADCONF, true);
        // Derby writes derby.log into the working directory unless told otherwise; a JVM-wide
        // setting read once when the plugin's Derby boots, so the first embedded catalog's wins
        if (System.getProperty("derby.stream.error.file") == null) {
            System.setProperty(
                    "derby.stream.error.file", dir.resolve("derby.log").toString());
        }
    }

    /**
     * Fails when another process has the Derby database of {@code dir} open. Derby lets one
     * process boot a database; a second one would retry for half a minute and print thousands of
     * lock traces before failing (or succeed only once the first has ended). The lock is taken
     * and released at once: this process holding it already (another catalog on the same
     * directory) is fine.
     */
    static void checkNotInUseByAnotherProcess(Path dir, String option) {
        Path lock = dir.resolve(DATABASE).resolve(PROCESS_LOCK);
        if (!Files.exists(lock)) {
            return;
        }
        try (FileChannel channel = FileChannel.open(lock, StandardOpenOption.WRITE)) {
            FileLock held = channel.tryLock();
            if (held != null) {
                held.release();
                return;
            }
        } catch (OverlappingFileLockException thisProcessHasIt) {
            return;
        } catch (IOException cannotTell) {
            return; // Derby's own boot reports a database it cannot open
        }
        throw new IllegalArgumentException("The embedded metastore in '" + option + "' '" + dir
                + "' is in use by another process (Derby opens a metastore directory in one process at a"
                + " time): wait for that process to end, or use a remote metastore to share one");
    }
}

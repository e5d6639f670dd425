package io.sluice.plugin.hive;

import org.apache.hadoop.hive.conf.HiveConf;

import java.nio.file.Path;

/**
 * A metastore inside the catalog's own process: Hive's metastore handler on an embedded Derby
 * database, instead of a thrift client to a metastore service. For tests, examples and a single
 * process; Derby lets one JVM open the database, so two processes on one directory fail.
 */
final class EmbeddedMetastore {

    /** Derby's database directory under {@code metastore.dir}. */
    static final String DATABASE = "metastore_db";
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
}

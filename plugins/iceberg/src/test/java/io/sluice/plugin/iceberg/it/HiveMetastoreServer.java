package io.sluice.plugin.iceberg.it;

import org.apache.hadoop.hive.conf.HiveConf;
import org.apache.hadoop.hive.metastore.HiveMetaStore;
import org.apache.hadoop.hive.metastore.IHMSHandler;
import org.apache.hadoop.hive.metastore.TSetIpAddressProcessor;
import org.apache.hadoop.hive.metastore.txn.TxnDbUtil;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.server.TServer;
import org.apache.thrift.server.TThreadPoolServer;
import org.apache.thrift.transport.TServerSocket;
import org.apache.thrift.transport.TTransportFactory;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * A real Hive metastore (Hive 2.3) for the end-to-end tests: the metastore's own handler on an
 * in-memory Derby database (DataNucleus creates the schema), served over thrift on a free port of
 * this JVM. Clients, the plugin's Hive catalog included, reach it only through {@link #uri()}, as
 * they would a standalone metastore process.
 *
 * <p>The server is built from the handler rather than through {@code HiveMetaStore.startMetaStore},
 * which serves forever: this one stops in {@link #close()}.
 */
public final class HiveMetastoreServer implements AutoCloseable {

    private final TServer server;
    private final Thread serving;
    private final int port;

    private HiveMetastoreServer(TServer server, Thread serving, int port) {
        this.server = server;
        this.serving = serving;
        this.port = port;
    }

    /** Starts a metastore whose default warehouse directory is {@code warehouse}. */
    public static HiveMetastoreServer start(Path warehouse) throws Exception {
        // Derby writes derby.log into the working directory unless told otherwise
        System.setProperty(
                "derby.stream.error.file", warehouse.resolveSibling("derby.log").toString());
        HiveConf conf = new HiveConf();
        conf.set("javax.jdo.option.ConnectionURL", "jdbc:derby:memory:hms-" + UUID.randomUUID() + ";create=true");
        conf.set("datanucleus.schema.autoCreateAll", "true");
        conf.set("hive.metastore.schema.verification", "false");
        // no pool library on the class path, and one embedded database needs none
        conf.set("datanucleus.connectionPoolingType", "None");
        conf.set("hive.metastore.warehouse.dir", warehouse.toUri().toString());
        conf.set("hive.metastore.uris", "");
        // the default proxy lives in hive-exec, which only the query engine needs; Iceberg never
        // filters partitions by expression in the metastore
        conf.set("hive.metastore.expression.proxy", "org.apache.hadoop.hive.metastore.DefaultPartitionExpressionProxy");

        // the lock tables Iceberg's Hive catalog commits under, in the same database
        TxnDbUtil.prepDb(conf);

        IHMSHandler handler = HiveMetaStore.newRetryingHMSHandler(
                new HiveMetaStore.HMSHandler("sluice-test-metastore", conf, false), conf, false);
        TServerSocket socket = new TServerSocket(new InetSocketAddress("localhost", 0));
        int port = socket.getServerSocket().getLocalPort();
        TServer server = new TThreadPoolServer(new TThreadPoolServer.Args(socket)
                .processor(new TSetIpAddressProcessor<>(handler))
                .transportFactory(new TTransportFactory())
                .protocolFactory(new TBinaryProtocol.Factory())
                .minWorkerThreads(2)
                .maxWorkerThreads(8));
        Thread serving = new Thread(server::serve, "hive-metastore-" + port);
        serving.setDaemon(true);
        serving.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!server.isServing()) {
            if (System.nanoTime() > deadline) {
                server.stop();
                throw new IllegalStateException("Hive metastore did not start serving on port " + port);
            }
            Thread.sleep(20);
        }
        return new HiveMetastoreServer(server, serving, port);
    }

    /** The thrift URI clients connect to. */
    public String uri() {
        return "thrift://localhost:" + port;
    }

    @Override
    public void close() throws InterruptedException {
        server.stop();
        serving.join(TimeUnit.SECONDS.toMillis(10));
    }
}

package io.sluice.testservers.hdfs;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.MiniDFSCluster;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.stream.Stream;

/**
 * The main class of {@link HdfsServer}'s JVM: Hadoop's {@code MiniDFSCluster} (a NameNode and one
 * DataNode, real RPC and data transfer on loopback) on a given NameNode port and base directory.
 * Writes its ready file once the DataNode has registered, and runs until it is killed.
 *
 * <p>Commands come as files in the command directory, {@code <n>.<command>}, answered by {@code
 * <n>.done} or {@code <n>.failed} (holding the error): {@code restart-datanode} stops the DataNode
 * and starts it again on the same ports and storage, as a DataNode process that dies and is
 * restarted looks to its clients (their write pipelines break mid-block).
 *
 * <p>Arguments: NameNode port, base directory, ready file, command directory.
 */
public final class HdfsServerMain {

    private HdfsServerMain() {}

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        Path base = Paths.get(args[1]);
        Path ready = Paths.get(args[2]);
        Configuration conf = new HdfsConfiguration();
        conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, base.toString());
        // small blocks: a test's files span several blocks and DataNode round trips
        conf.setLong("dfs.blocksize", 1024 * 1024);
        conf.setInt("dfs.namenode.fs-limits.min-block-size", 1024);
        conf.setBoolean("dfs.permissions.enabled", true);
        MiniDFSCluster cluster = new MiniDFSCluster.Builder(conf)
                .nameNodePort(port)
                .numDataNodes(1)
                .format(true)
                .build();
        cluster.waitActive();
        Path tmp = ready.resolveSibling(ready.getFileName() + ".tmp");
        Files.writeString(tmp, cluster.getURI().toString(), StandardCharsets.UTF_8);
        Files.move(tmp, ready, StandardCopyOption.ATOMIC_MOVE);
        Runtime.getRuntime().addShutdownHook(new Thread(cluster::shutdown, "hdfs-stop"));
        Path commands = Paths.get(args[3]);
        while (true) {
            try (Stream<Path> files = Files.list(commands)) {
                for (Path command : (Iterable<Path>) files.filter(f -> f.getFileName().toString().endsWith(".restart-datanode"))::iterator) {
                    String n = command.getFileName().toString().split("\\.")[0];
                    Files.delete(command);
                    try {
                        cluster.restartDataNode(0, true);
                        cluster.waitActive();
                        Files.writeString(commands.resolve(n + ".done"), "", StandardCharsets.UTF_8);
                    } catch (Exception e) {
                        Files.writeString(commands.resolve(n + ".failed"), e.toString(), StandardCharsets.UTF_8);
                    }
                }
            }
            Thread.sleep(50);
        }
    }
}

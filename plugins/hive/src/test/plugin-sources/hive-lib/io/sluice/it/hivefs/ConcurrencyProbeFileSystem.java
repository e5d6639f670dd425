package io.sluice.it.hivefs;

import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.permission.FsPermission;

import java.io.IOException;
import java.net.URI;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Test file system: local files under the scheme {@code probefs:///}, registered by a test's
 * {@code core-site.xml} ({@code fs.probefs.impl}). It counts the threads of upstream's Hive split
 * enumerator that are inside it at once, per thread pool: the pools are unnamed, so each call is
 * told apart by the upstream task on its stack ({@code PartitionFilesSizeCalculator} sizes the
 * partitions, {@code MRSplitter} splits them); both start with {@code exists} on the partition's
 * directory. Such a call is held until no other thread has entered for {@link #QUIET_MS}, so
 * that every thread the pool has runs into it before any leaves. The highest count per pool is
 * published as the system property {@code sluice.it.probefs.<pool>}, which a test in another
 * class loader can read; the test clears it before a query.
 */
public class ConcurrencyProbeFileSystem extends RawLocalFileSystem {

    public static final String SCHEME = "probefs";
    private static final URI NAME = URI.create(SCHEME + ":///");
    private static final long QUIET_MS = 300;

    private static final Object LOCK = new Object();
    private static final Map<String, Set<Thread>> INSIDE = new HashMap<>();
    private static final Map<String, Long> LAST_ENTRY = new HashMap<>();

    @Override
    public URI getUri() {
        return NAME;
    }

    @Override
    public String getScheme() {
        return SCHEME;
    }

    @Override
    public boolean exists(Path path) throws IOException {
        String pool = pool();
        if (pool != null) {
            hold(pool);
        }
        return super.exists(path);
    }

    @Override
    public FileStatus getFileStatus(Path path) throws IOException {
        return plain(super.getFileStatus(path));
    }

    @Override
    public FileStatus[] listStatus(Path path) throws IOException {
        FileStatus[] listed = super.listStatus(path);
        FileStatus[] plain = new FileStatus[listed.length];
        for (int i = 0; i < listed.length; i++) {
            plain[i] = plain(listed[i]);
        }
        return plain;
    }

    /**
     * The status without the local file system's lazy permissions, which it reads from a {@code
     * java.io.File} of the status's path and cannot for a path of another scheme.
     */
    private static FileStatus plain(FileStatus s) {
        return new FileStatus(
                s.getLen(),
                s.isDirectory(),
                s.getReplication(),
                s.getBlockSize(),
                s.getModificationTime(),
                s.getAccessTime(),
                s.isDirectory() ? FsPermission.getDirDefault() : FsPermission.getFileDefault(),
                "probe",
                "probe",
                s.getPath());
    }

    /** The upstream pool whose task called {@code exists} directly, or null. */
    private static String pool() {
        return StackWalker.getInstance()
                .walk(frames -> frames.filter(f -> !f.getClassName().equals(ConcurrencyProbeFileSystem.class.getName()))
                        .findFirst()
                        .map(caller -> {
                            String c = caller.getClassName();
                            if (c.endsWith("HiveSourceFileEnumerator$PartitionFilesSizeCalculator")) {
                                return "calculate-partition-size";
                            }
                            if (c.endsWith("MRSplitsGetter$MRSplitter")) {
                                return "load-partition-splits";
                            }
                            return null;
                        })
                        .orElse(null));
    }

    private static void hold(String pool) throws IOException {
        Thread me = Thread.currentThread();
        synchronized (LOCK) {
            Set<Thread> inside = INSIDE.computeIfAbsent(pool, p -> new HashSet<>());
            inside.add(me);
            LAST_ENTRY.put(pool, System.nanoTime());
            String key = "sluice.it.probefs." + pool;
            int before = Integer.parseInt(System.getProperty(key, "0"));
            System.setProperty(key, String.valueOf(Math.max(before, inside.size())));
            LOCK.notifyAll();
            try {
                long quietFor;
                while ((quietFor = (System.nanoTime() - LAST_ENTRY.get(pool)) / 1_000_000) < QUIET_MS) {
                    LOCK.wait(QUIET_MS - quietFor);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new java.io.InterruptedIOException("interrupted in the probe");
            } finally {
                inside.remove(me);
            }
        }
    }
}

package io.sluice.plugin.iceberg;

import io.sluice.hadoopbridge.ObjectStores;
import io.sluice.hadoopbridge.OpenUploads;

import org.apache.iceberg.ContentFile;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.io.SupportsPrefixOperations;
import org.apache.iceberg.util.LocationUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.FileNotFoundException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Deletes the data and delete files that earlier writers of this job's subtask wrote and that
 * nothing will commit: a writer names its files after its id ({@code
 * <subtask>-<n>-<writer id>-<file number>.<format>}, Iceberg's file names with the writer id as the
 * operation id) and numbers them in the order it creates them, so a restored writer knows, for
 * each earlier writer it is told about, which of its files may be leftovers:
 *
 * <ul>
 *   <li>the writer whose state the restore hands over: its files numbered above the last one it
 *       handed to the committer before that checkpoint's state was taken. Those up to it are in the
 *       restored committables or already committed; the ones above were written after the
 *       checkpoint and are in no committable of it.
 *   <li>the earlier attempts of the subtask that began from the same checkpoint (the framework's
 *       lineage), and the writer's own id (a writer of an earlier JobManager session may have had
 *       it): all their files. They began after the checkpoint, so none of their files is in a
 *       restored committable.
 * </ul>
 *
 * <p>A candidate is kept if any snapshot this job committed since shortly before the oldest
 * candidate was written lists it (a restore from an older checkpoint than the latest, with the same
 * job id, may find files of later checkpoints committed): only the manifests those snapshots added
 * are read, not the table's history. Only the table's data location is listed (one listing by
 * prefix, which an object store answers without renames), and only when there is an earlier writer
 * to clean up after; only names of the given writers are considered, so files of other jobs,
 * other subtasks and other sinks are never touched, and nothing outside the table's location is.
 * Failures to list or delete only cost space: they are logged and the writer starts anyway.
 *
 * <p>The temporary manifests that listed a writer's files for its committer ({@link
 * TemporaryManifests}, named after the writer's id and numbered likewise) go the same way, in the
 * same pass: of the restored writer those numbered above the last one it handed over before the
 * checkpoint, of the other earlier writers all; only this job's, only directly in the table's
 * metadata directory. A manifest is never in a snapshot, so none is kept for one.
 *
 * <p>On an object store a file larger than one part that a writer was sending when it died is no
 * file but an open multipart upload, which no listing of files shows and the store keeps (and
 * bills) until someone aborts it: {@link #abortUploads} aborts those of the same writers, under the
 * same data location.
 */
final class LeftoverDataFiles {

    private static final Logger LOG = LoggerFactory.getLogger(LeftoverDataFiles.class);

    /**
     * How long before the oldest candidate's time a snapshot that might list it is still read: the
     * store's clock (a file's time) and the committer's (a snapshot's) may disagree.
     */
    static final long CLOCK_SKEW_MS = 60 * 60 * 1000L;

    /** How often a listing that failed is tried again, see {@link #candidates}. */
    private static final int LIST_ATTEMPTS = 5;

    /**
     * Files of writer {@code writerId} numbered above {@code handedOver} may be leftovers (0: all),
     * and its temporary manifests numbered above {@code manifestsHandedOver} ({@link
     * TemporaryManifests}; {@link Long#MAX_VALUE}: none, the state did not say). With {@code
     * fromOpening} at 0 or more, {@code writerId} is a lineage's id that writers of several
     * openings share (the opening-th writes as {@code <writerId>-<opening>}, the 0th as {@code
     * <writerId>}): the files and manifests of the openings from {@code fromOpening} on are meant
     * then.
     */
    static final class Earlier {
        final String writerId;
        final long handedOver;
        final long manifestsHandedOver;
        final int fromOpening;
        private final Pattern name;
        private final Pattern manifestName;

        /** A writer whose state does not say which manifests it handed over: none is a leftover. */
        Earlier(String writerId, long handedOver) {
            this(writerId, handedOver, Long.MAX_VALUE, -1);
        }

        Earlier(String writerId, long handedOver, long manifestsHandedOver) {
            this(writerId, handedOver, manifestsHandedOver, -1);
        }

        private Earlier(String writerId, long handedOver, long manifestsHandedOver, int fromOpening) {
            this.writerId = writerId;
            this.handedOver = handedOver;
            this.manifestsHandedOver = manifestsHandedOver;
            this.fromOpening = fromOpening;
            String opening = fromOpening < 0 ? "()" : "(?:-(\\d+))?";
            this.name = Pattern.compile("\\d+-\\d+-" + Pattern.quote(writerId) + opening + "-(\\d+)(\\..*)?");
            // after "sluice-<job>-": "<subtask>-<writer id>[-<opening>]-<n>-<kind>.avro"
            this.manifestName =
                    Pattern.compile("\\d+-" + Pattern.quote(writerId) + opening + "-(\\d+)-(?:data|deletes)\\.avro");
        }

        /**
         * Every file and temporary manifest of the writers of lineage id {@code writerId} opened
         * from {@code fromOpening} on.
         */
        static Earlier openings(String writerId, int fromOpening) {
            if (fromOpening < 0) {
                throw new IllegalArgumentException("opening " + fromOpening);
            }
            return new Earlier(writerId, 0, 0, fromOpening);
        }

        /** Whether the data or delete file at {@code location} is one of those meant. */
        boolean matches(String location) {
            return matches(name.matcher(name(location)), handedOver);
        }

        /** Whether the file at {@code location} is a temporary manifest of job {@code jobId} meant here. */
        boolean matchesManifest(String location, String jobId) {
            String fileName = name(location);
            String job = TemporaryManifests.PREFIX + jobId + "-";
            return fileName.startsWith(job)
                    && matches(manifestName.matcher(fileName.substring(job.length())), manifestsHandedOver);
        }

        private boolean matches(Matcher m, long numberedAbove) {
            if (!m.matches() || numberedAbove == Long.MAX_VALUE) {
                return false;
            }
            if (fromOpening >= 0) {
                String opening = m.group(1);
                // an opening number too long for an int is no writer's of ours
                if (opening != null && (opening.length() > 9 || Integer.parseInt(opening) < fromOpening)) {
                    return false;
                }
                if (opening == null && fromOpening > 0) {
                    return false;
                }
            }
            String number = m.group(2);
            return number.length() > 18 || Long.parseLong(number) > numberedAbove;
        }

        @Override
        public String toString() {
            return writerId
                    + (fromOpening > 0 ? " (openings from " + fromOpening + ")" : "")
                    + (handedOver > 0 ? " (after file " + handedOver + ")" : "")
                    + (manifestsHandedOver == Long.MAX_VALUE
                            ? " (no manifests)"
                            : manifestsHandedOver > 0 ? " (after manifest " + manifestsHandedOver + ")" : "");
        }
    }

    private LeftoverDataFiles() {}

    /**
     * The number of a file that writer {@code writerId} named, or -1 if another writer named it.
     */
    static long fileNumber(String location, String writerId) {
        String name = location.substring(location.lastIndexOf('/') + 1);
        Matcher m = Pattern.compile("\\d+-\\d+-" + Pattern.quote(writerId) + "-(\\d+)(\\..*)?")
                .matcher(name);
        return m.matches() ? Long.parseLong(m.group(1)) : -1;
    }

    /** The highest number of {@code files} that writer {@code writerId} named, at least {@code atLeast}. */
    static long highestNumber(ContentFile<?>[] files, String writerId, long atLeast) {
        long highest = atLeast;
        for (ContentFile<?> f : files) {
            highest = Math.max(highest, fileNumber(f.location(), writerId));
        }
        return highest;
    }

    /**
     * Deletes the leftovers of {@code earlier} in {@code table}'s data location, keeping every file a
     * snapshot of job {@code jobId} lists, and their temporary manifests of job {@code jobId} in
     * the table's metadata directory.
     *
     * @return the locations deleted
     */
    static List<String> delete(Table table, String jobId, Collection<Earlier> earlier) {
        if (earlier.isEmpty()) {
            return List.of();
        }
        FileIO io = table.io();
        if (!(io instanceof SupportsPrefixOperations)) {
            LOG.info(
                    "Iceberg table {}: its file IO {} cannot list, leftovers of earlier writers {} stay",
                    table.name(),
                    io.getClass().getName(),
                    earlier);
            return List.of();
        }
        List<String> deleted = new ArrayList<>(deleteDataFiles(table, jobId, earlier));
        deleted.addAll(deleteManifests(table, jobId, earlier));
        return deleted;
    }

    private static List<String> deleteDataFiles(Table table, String jobId, Collection<Earlier> earlier) {
        FileIO io = table.io();
        String tableLocation = LocationUtil.stripTrailingSlash(table.location());
        String dataLocation = LocationUtil.stripTrailingSlash(dataLocation(table));
        if (!path(dataLocation).startsWith(path(tableLocation) + "/")) {
            LOG.info(
                    "Iceberg table {} writes its data outside its location ({}): leftovers of earlier writers {} stay",
                    table.name(),
                    dataLocation,
                    earlier);
            return List.of();
        }
        try {
            List<FileInfo> candidates = candidates((SupportsPrefixOperations) io, dataLocation, false, location -> {
                for (Earlier e : earlier) {
                    if (e.matches(location)) {
                        return true;
                    }
                }
                return false;
            });
            if (candidates.isEmpty()) {
                return List.of();
            }
            long oldest = Long.MAX_VALUE;
            for (FileInfo file : candidates) {
                oldest = Math.min(oldest, file.createdAtMillis());
            }
            Set<String> committed = committedSince(table, jobId, oldest - CLOCK_SKEW_MS);
            List<String> deleted = new ArrayList<>();
            for (FileInfo file : candidates) {
                if (committed.contains(name(file.location()))) {
                    continue;
                }
                io.deleteFile(file.location());
                deleted.add(file.location());
            }
            LOG.info(
                    "Iceberg table {}: deleted {} data files that earlier writers {} wrote and nothing commits: {}",
                    table.name(),
                    deleted.size(),
                    earlier,
                    deleted);
            return deleted;
        } catch (RuntimeException e) {
            LOG.warn(
                    "Iceberg table {}: cannot clean up after earlier writers {}, their uncommitted files may stay: {}",
                    table.name(),
                    earlier,
                    e.toString());
            return List.of();
        }
    }

    /**
     * Deletes the temporary manifests of {@code earlier} that no committer will read: those a
     * restored writer wrote after its checkpoint's state was taken, and all of the writers that
     * began after it. A manifest is never part of a snapshot (the committer appends the files it
     * lists), so none is kept for a snapshot's sake; one a restored committable lists is numbered
     * at or below what the restored state says was handed over. Only files directly in the table's
     * metadata directory, and only when that is inside the table's location.
     */
    private static List<String> deleteManifests(Table table, String jobId, Collection<Earlier> earlier) {
        FileIO io = table.io();
        String tableLocation = LocationUtil.stripTrailingSlash(table.location());
        try {
            String directory = LocationUtil.stripTrailingSlash(TemporaryManifests.directory(table));
            if (!path(directory).startsWith(path(tableLocation) + "/")) {
                LOG.info(
                        "Iceberg table {} keeps its metadata outside its location ({}): temporary manifests of"
                                + " earlier writers {} stay",
                        table.name(),
                        directory,
                        earlier);
                return List.of();
            }
            List<FileInfo> candidates = candidates((SupportsPrefixOperations) io, directory, true, location -> {
                for (Earlier e : earlier) {
                    if (e.matchesManifest(location, jobId)) {
                        return true;
                    }
                }
                return false;
            });
            if (candidates.isEmpty()) {
                return List.of();
            }
            List<String> deleted = new ArrayList<>();
            for (FileInfo file : candidates) {
                io.deleteFile(file.location());
                deleted.add(file.location());
            }
            LOG.info(
                    "Iceberg table {}: deleted {} temporary manifests that earlier writers {} wrote and no committer"
                            + " reads: {}",
                    table.name(),
                    deleted.size(),
                    earlier,
                    deleted);
            return deleted;
        } catch (RuntimeException e) {
            LOG.warn(
                    "Iceberg table {}: cannot clean up after earlier writers {}, their temporary manifests may"
                            + " stay: {}",
                    table.name(),
                    earlier,
                    e.toString());
            return List.of();
        }
    }

    /**
     * Aborts the open multipart uploads of files of {@code earlier} under {@code table}'s data
     * location: every writer {@code earlier} names is dead (the restored state or the lineage says
     * so), so none of those uploads will ever be completed, and an upload is never a committed
     * file. Only on an object store; elsewhere a file being written is a file, which {@link
     * #delete} sees. Through the table's own file IO where that is Iceberg's {@code S3FileIO}
     * ({@link S3FileIOUploads}: its client, endpoint and credentials, which Flink may not have
     * for the bucket), else through Flink's file system of the location ({@link OpenUploads}, the
     * S3 specifics): {@code HadoopFileIO} reaches every object store through Flink's file systems
     * (the plugin's Hadoop has no S3 client of its own, {@code ObjectStores}), so that is the
     * file system it wrote through. A failure only costs space: it is logged and the writer
     * starts anyway.
     *
     * @return the number of uploads aborted
     */
    static int abortUploads(Table table, Collection<Earlier> earlier) {
        if (earlier.isEmpty()) {
            return 0;
        }
        String tableLocation = LocationUtil.stripTrailingSlash(table.location());
        String dataLocation = LocationUtil.stripTrailingSlash(dataLocation(table));
        if (!ObjectStores.isObjectStore(dataLocation) || !path(dataLocation).startsWith(path(tableLocation) + "/")) {
            return 0;
        }
        Predicate<String> meant = name -> {
            for (Earlier e : earlier) {
                if (e.matches(name)) {
                    return true;
                }
            }
            return false;
        };
        try {
            int aborted;
            if (S3FileIOUploads.reaches(table.io(), dataLocation)) {
                aborted = S3FileIOUploads.abortUnder(table.io(), dataLocation, meant);
            } else {
                org.apache.flink.core.fs.Path base = new org.apache.flink.core.fs.Path(dataLocation);
                aborted = OpenUploads.abortUnder(base.getFileSystem(), base, meant);
            }
            if (aborted > 0) {
                LOG.info(
                        "Iceberg table {}: aborted {} multipart uploads of data files that earlier writers {} began",
                        table.name(),
                        aborted,
                        earlier);
            }
            return Math.max(aborted, 0);
        } catch (Exception | LinkageError e) {
            LOG.warn(
                    "Iceberg table {}: cannot abort the uploads of earlier writers {} under {}, they may stay open: {}",
                    table.name(),
                    earlier,
                    dataLocation,
                    e.toString());
            return 0;
        }
    }

    /**
     * The files under {@code location} ({@code direct}: only those directly in it) whose location
     * {@code meant} accepts. The other subtasks clean up in the same directories at the same time,
     * and a Hadoop listing fails on a file deleted between listing a directory and reading its
     * status (a local file system does): listed again then.
     */
    private static List<FileInfo> candidates(
            SupportsPrefixOperations io, String location, boolean direct, Predicate<String> meant) {
        String under = path(location) + "/";
        for (int attempt = 1; ; attempt++) {
            try {
                List<FileInfo> candidates = new ArrayList<>();
                for (FileInfo file : io.listPrefix(location + "/")) {
                    String p = path(file.location());
                    if (!p.startsWith(under) || (direct && p.indexOf('/', under.length()) >= 0)) {
                        continue;
                    }
                    if (meant.test(file.location())) {
                        candidates.add(file);
                    }
                }
                return candidates;
            } catch (UncheckedIOException e) {
                if (e.getCause() instanceof FileNotFoundException && attempt == 1) {
                    // nothing written yet (Hadoop's listing of a missing directory): nothing to clean up
                    if (isMissing(io, location)) {
                        return List.of();
                    }
                }
                if (attempt >= LIST_ATTEMPTS) {
                    throw e;
                }
                pause(location, attempt, e);
            } catch (RuntimeException e) {
                if (attempt >= LIST_ATTEMPTS) {
                    throw e;
                }
                pause(location, attempt, e);
            }
        }
    }

    private static void pause(String location, int attempt, RuntimeException failure) {
        LOG.info("Listing {} failed, again ({} of {}): {}", location, attempt, LIST_ATTEMPTS, failure.toString());
        try {
            Thread.sleep(100L * attempt);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw failure;
        }
    }

    /** Whether nothing exists at {@code location}: a file's listing fails alike when it vanished. */
    private static boolean isMissing(SupportsPrefixOperations io, String location) {
        try {
            return !((FileIO) io).newInputFile(location).exists();
        } catch (RuntimeException e) {
            return false;
        }
    }

    /**
     * The names of the files that snapshots of job {@code jobId} made at or after {@code since}
     * added. Names, not locations: a listing and a manifest may spell a directory differently
     * (scheme, authority, escaped partition values), and a writer's name with its number is unique
     * on its own; comparing names can only keep a file too many.
     */
    private static Set<String> committedSince(Table table, String jobId, long since) {
        table.refresh();
        Set<String> paths = new HashSet<>();
        for (Snapshot s : table.snapshots()) {
            if (s.timestampMillis() < since || !jobId.equals(s.summary().get(CommittedCheckpoints.JOB_ID))) {
                continue;
            }
            s.addedDataFiles(table.io()).forEach(f -> paths.add(name(f.location())));
            s.addedDeleteFiles(table.io()).forEach(f -> paths.add(name(f.location())));
        }
        return paths;
    }

    /** Where the table's default location provider puts data files (object storage layout too). */
    private static String dataLocation(Table table) {
        Map<String, String> p = table.properties();
        for (String key : List.of(
                TableProperties.WRITE_DATA_LOCATION,
                TableProperties.OBJECT_STORE_PATH,
                TableProperties.WRITE_FOLDER_STORAGE_LOCATION)) {
            String value = p.get(key);
            if (value != null && !value.isEmpty()) {
                return value;
            }
        }
        return LocationUtil.stripTrailingSlash(table.location()) + "/data";
    }

    private static String name(String location) {
        return location.substring(location.lastIndexOf('/') + 1);
    }

    /**
     * A location without its scheme and authority: the listing and the manifests may spell the
     * same directory differently ({@code file:/x} and {@code file:///x}, {@code s3://} and {@code
     * s3a://}): only files whose path is under the data location's path are candidates.
     */
    static String path(String location) {
        String p = location;
        int scheme = p.indexOf("://");
        if (scheme >= 0) {
            String rest = p.substring(scheme + 3);
            int slash = rest.indexOf('/');
            p = slash < 0 ? "/" : rest.substring(slash);
        } else {
            int colon = p.indexOf(':');
            int slash = p.indexOf('/');
            if (colon > 0 && (slash < 0 || colon < slash)) {
                p = p.substring(colon + 1);
            }
        }
        int i = 0;
        while (i + 1 < p.length() && p.charAt(i) == '/' && p.charAt(i + 1) == '/') {
            i++;
        }
        return p.substring(i);
    }
}

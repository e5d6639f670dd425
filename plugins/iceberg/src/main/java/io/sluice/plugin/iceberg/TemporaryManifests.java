package io.sluice.plugin.iceberg;

import org.apache.iceberg.FileFormat;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableOperations;

import java.util.Locale;

/**
 * Where one writer puts the manifests of the files it hands to the committer: next to the table's
 * metadata, named {@code sluice-<job>-<subtask>-<writer id>-<n>-<kind>.avro} after the writer's id
 * (the one its data files carry, with a dynamic sink's opening) and numbered in the order the
 * writer writes them. The number of the last one is in the writer's state ({@link #written}), so
 * that after a failure its successor can tell the manifests a restored committable still lists
 * from those written after the checkpoint, which nothing will read: it deletes those with the
 * data files they list ({@link LeftoverDataFiles}).
 */
final class TemporaryManifests {

    /** How every temporary manifest's name begins. */
    static final String PREFIX = "sluice-";

    private final Table table;
    private final String prefix;
    private long count;

    TemporaryManifests(Table table, String jobId, int subtask, String writerId) {
        this.table = table;
        this.prefix = String.format(Locale.ROOT, "%s%s-%05d-%s", PREFIX, jobId, subtask, writerId);
    }

    /**
     * The location of a new manifest; {@code kind} ends its name ({@code data}, {@code deletes}).
     * Only the files of a checkpoint too many to travel in their payload are listed there ({@link
     * PendingFiles}).
     */
    String nextLocation(String kind) {
        String name = FileFormat.AVRO.addExtension(String.format(Locale.ROOT, "%s-%05d-%s", prefix, ++count, kind));
        return operations(table).metadataFileLocation(name);
    }

    /** The number of the last manifest this writer named, 0 before the first. */
    long written() {
        return count;
    }

    /** The directory of a table's temporary manifests: where its table operations put metadata files. */
    static String directory(Table table) {
        String probe = operations(table).metadataFileLocation(PREFIX);
        if (!probe.endsWith("/" + PREFIX)) {
            throw new IllegalStateException(
                    "Iceberg table " + table.name() + " places metadata file " + PREFIX + " at " + probe);
        }
        return probe.substring(0, probe.length() - PREFIX.length() - 1);
    }

    private static TableOperations operations(Table table) {
        if (!(table instanceof HasTableOperations)) {
            throw new IllegalStateException("Iceberg table " + table.name() + " ("
                    + table.getClass().getName() + ") has no table operations to place manifests with");
        }
        return ((HasTableOperations) table).operations();
    }
}

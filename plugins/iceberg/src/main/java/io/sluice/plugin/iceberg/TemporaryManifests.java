package io.sluice.plugin.iceberg;

import org.apache.iceberg.FileFormat;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Table;

import java.util.Locale;
import java.util.UUID;

/**
 * Where one writer puts the manifests of the files it hands to the committer: next to the table's
 * metadata, under names unique to the writer (job, subtask, a random id per writer instance and a
 * counter), so that writers of different attempts and restores never collide. A manifest the
 * committer never read (the job failed first) is an orphan, like the data files it lists.
 */
final class TemporaryManifests {

    private final Table table;
    private final String prefix;
    private int count;

    TemporaryManifests(Table table, String jobId, int subtask) {
        this.table = table;
        this.prefix = String.format(Locale.ROOT, "sluice-%s-%05d-%s", jobId, subtask, UUID.randomUUID());
    }

    /**
     * The location of a new manifest; {@code kind} ends its name ({@code data}, {@code deletes}).
     * Only the files of a checkpoint too many to travel in their payload are listed there ({@link
     * PendingFiles}).
     */
    String nextLocation(String kind) {
        String name = FileFormat.AVRO.addExtension(String.format(Locale.ROOT, "%s-%05d-%s", prefix, ++count, kind));
        if (!(table instanceof HasTableOperations)) {
            throw new IllegalStateException("Iceberg table " + table.name() + " ("
                    + table.getClass().getName() + ") has no table operations to place manifests with");
        }
        return ((HasTableOperations) table).operations().metadataFileLocation(name);
    }
}

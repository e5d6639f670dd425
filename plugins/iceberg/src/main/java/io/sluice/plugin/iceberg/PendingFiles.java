package io.sluice.plugin.iceberg;

import io.sluice.spi.Payload;

import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.ManifestContent;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestReader;
import org.apache.iceberg.ManifestWriter;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableUtil;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.WriteResult;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The data and delete files one writer closed for one checkpoint, as the committer gets them.
 *
 * <p>The files are listed in temporary Iceberg manifests written by the writer; the payload holds
 * only the manifests' descriptions in Iceberg's own Avro encoding ({@link ManifestFiles#encode}),
 * so it stays small however many files a checkpoint has, and its format is Iceberg's manifest
 * format rather than the Java serialization of Iceberg classes, which changes between Iceberg
 * versions. After a successful commit the manifests are deleted; the committed snapshot has its
 * own.
 *
 * <p>Payload version 1 (the only one so far): {@code int} count, then per manifest {@code int}
 * length and the encoded manifest. The encoding is Iceberg's own ({@link ManifestFiles#encode},
 * Avro with its schema), which Iceberg keeps readable across its versions; so it takes no version
 * frame of ours.
 */
final class PendingFiles {

    /** The payload version this class writes. */
    static final int VERSION = 1;

    /**
     * Snapshot id written into the temporary manifests' entries: format v1 manifests require one.
     * The files get the id of the snapshot that commits them; this one is never seen by readers.
     */
    private static final Long UNCOMMITTED_SNAPSHOT_ID = 0L;

    private final List<ManifestFile> manifests;

    private PendingFiles(List<ManifestFile> manifests) {
        this.manifests = manifests;
    }

    /**
     * Writes the files of {@code result} into temporary manifests, one per kind of content and
     * partition spec.
     */
    static PendingFiles write(Table table, WriteResult result, TemporaryManifests locations) throws IOException {
        int formatVersion = TableUtil.formatVersion(table);
        List<ManifestFile> manifests = new ArrayList<>();
        for (Map.Entry<Integer, List<DataFile>> bySpec :
                bySpec(result.dataFiles()).entrySet()) {
            PartitionSpec spec = table.specs().get(bySpec.getKey());
            ManifestWriter<DataFile> writer =
                    ManifestFiles.write(formatVersion, spec, locations.next("data"), UNCOMMITTED_SNAPSHOT_ID);
            try (ManifestWriter<DataFile> closing = writer) {
                closing.addAll(bySpec.getValue());
            }
            manifests.add(writer.toManifestFile());
        }
        for (Map.Entry<Integer, List<DeleteFile>> bySpec :
                bySpec(result.deleteFiles()).entrySet()) {
            PartitionSpec spec = table.specs().get(bySpec.getKey());
            ManifestWriter<DeleteFile> writer = ManifestFiles.writeDeleteManifest(
                    formatVersion, spec, locations.next("deletes"), UNCOMMITTED_SNAPSHOT_ID);
            try (ManifestWriter<DeleteFile> closing = writer) {
                closing.addAll(bySpec.getValue());
            }
            manifests.add(writer.toManifestFile());
        }
        return new PendingFiles(manifests);
    }

    private static <F extends org.apache.iceberg.ContentFile<F>> Map<Integer, List<F>> bySpec(F[] files) {
        Map<Integer, List<F>> grouped = new TreeMap<>();
        if (files != null) {
            for (F f : files) {
                grouped.computeIfAbsent(f.specId(), id -> new ArrayList<>()).add(f);
            }
        }
        return grouped;
    }

    /** Reads the payload of {@link #toPayload()}, of this or an earlier version. */
    static PendingFiles of(Payload payload) throws IOException {
        switch (payload.version()) {
            case 1:
                return readVersion1(payload.bytes());
            default:
                throw new IOException("Cannot read the iceberg target's pending files of version " + payload.version()
                        + ": this plugin reads version 1. Was the job restored with an older plugin than the one that"
                        + " wrote them? Restore it with that version, or start without state.");
        }
    }

    private static PendingFiles readVersion1(byte[] bytes) throws IOException {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
            int count = in.readInt();
            List<ManifestFile> manifests = new ArrayList<>(Math.min(count, 1024));
            for (int i = 0; i < count; i++) {
                byte[] encoded = new byte[in.readInt()];
                in.readFully(encoded);
                manifests.add(ManifestFiles.decode(encoded));
            }
            return new PendingFiles(manifests);
        }
    }

    /** The payload: the manifests' descriptions, not the files themselves. */
    Payload toPayload() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(manifests.size());
            for (ManifestFile m : manifests) {
                byte[] encoded = ManifestFiles.encode(m);
                out.writeInt(encoded.length);
                out.write(encoded);
            }
        }
        return new Payload(VERSION, bytes.toByteArray());
    }

    /**
     * Reads the listed files from the manifests into {@code data} and {@code deletes}.
     *
     * @throws IOException naming the manifest that cannot be read
     */
    void readInto(Table table, List<DataFile> data, List<DeleteFile> deletes) throws IOException {
        for (ManifestFile m : manifests) {
            try {
                if (m.content() == ManifestContent.DELETES) {
                    try (ManifestReader<DeleteFile> reader =
                            ManifestFiles.readDeleteManifest(m, table.io(), table.specs())) {
                        reader.forEach(deletes::add);
                    }
                } else {
                    try (ManifestReader<DataFile> reader = ManifestFiles.read(m, table.io(), table.specs())) {
                        reader.forEach(data::add);
                    }
                }
            } catch (RuntimeException e) {
                throw new IOException(
                        "Cannot read the pending files listed in temporary manifest " + m.path() + ": "
                                + e.getMessage(),
                        e);
            }
        }
    }

    /** Deletes the temporary manifests, once their files are committed; failures only cost space. */
    void deleteManifests(FileIO io) {
        for (ManifestFile m : manifests) {
            try {
                io.deleteFile(m.path());
            } catch (RuntimeException leftBehind) {
                // an orphan manifest harms no reader: it is in no snapshot
            }
        }
    }

    /** The temporary manifests. */
    List<ManifestFile> manifests() {
        return Collections.unmodifiableList(manifests);
    }
}

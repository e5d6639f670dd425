package io.sluice.plugin.iceberg;

import io.sluice.spi.Payload;

import org.apache.iceberg.ContentFileParser;
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
import org.apache.iceberg.util.JsonUtil;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The data and delete files one writer closed for one checkpoint, as the committer gets them.
 *
 * <p>Up to {@link #INLINE_LIMIT} bytes of them travel in the payload itself, each file in
 * Iceberg's JSON of a content file ({@link ContentFileParser}, the REST catalog's format, which
 * Iceberg keeps readable across its versions): no temporary manifest per writer, table and
 * checkpoint to write, read back and delete, which with many tables costs more than the data
 * (each is a storage round trip, and on a local Hadoop file system a forked {@code chmod} per
 * file). More (thousands of files in one checkpoint) are listed in temporary manifests next to the
 * table's metadata, of which only the descriptions travel, so a payload stays small however many
 * files a checkpoint has; they are deleted after their files are committed, since the committed
 * snapshot has manifests of its own; those of a failed attempt that no committer will read are
 * deleted by the writer restored after it ({@link LeftoverDataFiles}). Neither is the Java serialization of Iceberg classes, which
 * changes between Iceberg versions.
 *
 * <p>Payload version 2 (written): {@code int} count, then per temporary manifest {@code int}
 * length and its description ({@link ManifestFiles#encode}); then {@code int} count, then per
 * inline file {@code int} length and its JSON in UTF-8. Version 1 (read): the manifests only. The
 * encodings are Iceberg's own; so they take no version frame of ours.
 */
final class PendingFiles {

    /** The payload version this class writes. */
    static final int VERSION = 2;

    /**
     * The most bytes of files' JSON a payload carries (about a thousand files); a writer's
     * payloads of all its tables go to the committer in one record at every checkpoint, which
     * should fit the network buffers between them.
     */
    static final int INLINE_LIMIT = 256 * 1024;

    /**
     * Snapshot id written into the temporary manifests' entries: format v1 manifests require one.
     * The files get the id of the snapshot that commits them; this one is never seen by readers.
     */
    private static final Long UNCOMMITTED_SNAPSHOT_ID = 0L;

    private final List<ManifestFile> manifests;

    /** The files carried in the payload, each its JSON in UTF-8. */
    private final List<byte[]> inline;

    private PendingFiles(List<ManifestFile> manifests, List<byte[]> inline) {
        this.manifests = manifests;
        this.inline = inline;
    }

    /**
     * The files of {@code result}: in the payload if they fit, else in temporary manifests, one per
     * kind of content and partition spec.
     */
    static PendingFiles write(Table table, WriteResult result, TemporaryManifests locations) throws IOException {
        return write(table, result, locations, INLINE_LIMIT);
    }

    /** As {@link #write(Table, WriteResult, TemporaryManifests)}, with at most {@code inlineLimit} bytes inline. */
    static PendingFiles write(Table table, WriteResult result, TemporaryManifests locations, int inlineLimit)
            throws IOException {
        List<byte[]> inline = new ArrayList<>();
        long bytes = 0;
        for (org.apache.iceberg.ContentFile<?>[] files : java.util.Arrays.<org.apache.iceberg.ContentFile<?>[]>asList(
                result.dataFiles(), result.deleteFiles())) {
            for (org.apache.iceberg.ContentFile<?> f : files) {
                byte[] json = ContentFileParser.toJson(f, table.specs().get(f.specId()))
                        .getBytes(StandardCharsets.UTF_8);
                bytes += json.length;
                if (bytes > inlineLimit) {
                    return new PendingFiles(writeManifests(table, result, locations), List.of());
                }
                inline.add(json);
            }
        }
        return new PendingFiles(List.of(), inline);
    }

    private static List<ManifestFile> writeManifests(Table table, WriteResult result, TemporaryManifests locations)
            throws IOException {
        int formatVersion = TableUtil.formatVersion(table);
        List<ManifestFile> manifests = new ArrayList<>();
        for (Map.Entry<Integer, List<DataFile>> bySpec :
                bySpec(result.dataFiles()).entrySet()) {
            PartitionSpec spec = table.specs().get(bySpec.getKey());
            ManifestWriter<DataFile> writer = ManifestFiles.write(
                    formatVersion,
                    spec,
                    table.io().newOutputFile(locations.nextLocation("data")),
                    UNCOMMITTED_SNAPSHOT_ID);
            try (ManifestWriter<DataFile> closing = writer) {
                closing.addAll(bySpec.getValue());
            }
            manifests.add(writer.toManifestFile());
        }
        for (Map.Entry<Integer, List<DeleteFile>> bySpec :
                bySpec(result.deleteFiles()).entrySet()) {
            PartitionSpec spec = table.specs().get(bySpec.getKey());
            ManifestWriter<DeleteFile> writer = ManifestFiles.writeDeleteManifest(
                    formatVersion,
                    spec,
                    table.io().newOutputFile(locations.nextLocation("deletes")),
                    UNCOMMITTED_SNAPSHOT_ID);
            try (ManifestWriter<DeleteFile> closing = writer) {
                closing.addAll(bySpec.getValue());
            }
            manifests.add(writer.toManifestFile());
        }
        return manifests;
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
            case 2:
                return read(payload.version(), payload.bytes());
            default:
                throw new IOException("Cannot read the iceberg target's pending files of version " + payload.version()
                        + ": this plugin reads versions 1 and 2. Was the job restored with an older plugin than the one"
                        + " that wrote them? Restore it with that version, or start without state.");
        }
    }

    private static PendingFiles read(int version, byte[] bytes) throws IOException {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
            List<ManifestFile> manifests = new ArrayList<>();
            for (byte[] encoded : readBlocks(in)) {
                manifests.add(ManifestFiles.decode(encoded));
            }
            List<byte[]> inline = version >= 2 ? readBlocks(in) : List.of();
            return new PendingFiles(manifests, inline);
        }
    }

    private static List<byte[]> readBlocks(DataInputStream in) throws IOException {
        int count = in.readInt();
        List<byte[]> blocks = new ArrayList<>(Math.min(count, 1024));
        for (int i = 0; i < count; i++) {
            byte[] block = new byte[in.readInt()];
            in.readFully(block);
            blocks.add(block);
        }
        return blocks;
    }

    /** The payload: the manifests' descriptions, then the files carried inline. */
    Payload toPayload() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(manifests.size());
            for (ManifestFile m : manifests) {
                byte[] encoded = ManifestFiles.encode(m);
                out.writeInt(encoded.length);
                out.write(encoded);
            }
            out.writeInt(inline.size());
            for (byte[] json : inline) {
                out.writeInt(json.length);
                out.write(json);
            }
        }
        return new Payload(VERSION, bytes.toByteArray());
    }

    /**
     * Reads the listed files into {@code data} and {@code deletes}.
     *
     * @throws IOException naming the manifest or file that cannot be read
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
        for (byte[] json : inline) {
            org.apache.iceberg.ContentFile<?> file;
            try {
                file = ContentFileParser.fromJson(JsonUtil.mapper().readTree(json), table.specs());
            } catch (IOException | RuntimeException e) {
                throw new IOException(
                        "Cannot read a pending file of table " + table.name() + " from its payload: " + e.getMessage(),
                        e);
            }
            if (file instanceof DataFile) {
                data.add((DataFile) file);
            } else {
                deletes.add((DeleteFile) file);
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

    /** The temporary manifests' descriptions. */
    List<ManifestFile> manifests() {
        return Collections.unmodifiableList(manifests);
    }

    /** How many files the payload carries itself. */
    int inlineFiles() {
        return inline.size();
    }
}

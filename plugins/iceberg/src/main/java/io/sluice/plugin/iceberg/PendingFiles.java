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
import org.apache.iceberg.inmemory.InMemoryInputFile;
import org.apache.iceberg.inmemory.InMemoryOutputFile;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.io.PositionOutputStream;
import org.apache.iceberg.io.WriteResult;

import javax.annotation.Nullable;

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
 * <p>The files are listed in Iceberg manifests (one per kind of content and partition spec),
 * encoded as Iceberg encodes them, so the payload's format is Iceberg's manifest format rather
 * than the Java serialization of Iceberg classes, which changes between Iceberg versions. A
 * manifest of up to {@link #INLINE_LIMIT} bytes travels in the payload itself: no temporary file
 * per writer, table and checkpoint to write, read back and delete, which with many tables costs
 * more than the data (each is a storage round trip, and on a local Hadoop file system a forked
 * {@code chmod} per file). A larger one (thousands of files in one checkpoint) is written next to
 * the table's metadata and only its description travels; it is deleted after its files are
 * committed, since the committed snapshot has manifests of its own.
 *
 * <p>Payload version 2 (written): {@code int} count, then per manifest {@code int} length and the
 * description ({@link ManifestFiles#encode}), then {@code int} length and the manifest file's
 * bytes, or {@code -1} for a manifest written to its location. Version 1 (read): {@code int}
 * count, then per manifest {@code int} length and the description, every manifest a file. The
 * descriptions and manifests are Iceberg's own Avro, which Iceberg keeps readable across its
 * versions; so they take no version frame of ours.
 */
final class PendingFiles {

    /** The payload version this class writes. */
    static final int VERSION = 2;

    /** The largest manifest that travels in its payload (and in the committer's state). */
    static final int INLINE_LIMIT = 1 << 20;

    /**
     * Snapshot id written into the temporary manifests' entries: format v1 manifests require one.
     * The files get the id of the snapshot that commits them; this one is never seen by readers.
     */
    private static final Long UNCOMMITTED_SNAPSHOT_ID = 0L;

    /** Marks a manifest of a version 2 payload that is a file at its location. */
    private static final int WRITTEN = -1;

    private final List<ManifestFile> manifests;

    /** Per manifest, its bytes if it travels in the payload, else null. */
    private final List<byte[]> contents;

    private PendingFiles(List<ManifestFile> manifests, List<byte[]> contents) {
        this.manifests = manifests;
        this.contents = contents;
    }

    /** Lists the files of {@code result} in manifests, one per kind of content and partition spec. */
    static PendingFiles write(Table table, WriteResult result, TemporaryManifests locations) throws IOException {
        int formatVersion = TableUtil.formatVersion(table);
        List<ManifestFile> manifests = new ArrayList<>();
        List<byte[]> contents = new ArrayList<>();
        for (Map.Entry<Integer, List<DataFile>> bySpec :
                bySpec(result.dataFiles()).entrySet()) {
            PartitionSpec spec = table.specs().get(bySpec.getKey());
            InMemoryOutputFile file = new InMemoryOutputFile(locations.nextLocation("data"));
            ManifestWriter<DataFile> writer = ManifestFiles.write(formatVersion, spec, file, UNCOMMITTED_SNAPSHOT_ID);
            try (ManifestWriter<DataFile> closing = writer) {
                closing.addAll(bySpec.getValue());
            }
            manifests.add(writer.toManifestFile());
            contents.add(inlineOrWrite(table, file));
        }
        for (Map.Entry<Integer, List<DeleteFile>> bySpec :
                bySpec(result.deleteFiles()).entrySet()) {
            PartitionSpec spec = table.specs().get(bySpec.getKey());
            InMemoryOutputFile file = new InMemoryOutputFile(locations.nextLocation("deletes"));
            ManifestWriter<DeleteFile> writer =
                    ManifestFiles.writeDeleteManifest(formatVersion, spec, file, UNCOMMITTED_SNAPSHOT_ID);
            try (ManifestWriter<DeleteFile> closing = writer) {
                closing.addAll(bySpec.getValue());
            }
            manifests.add(writer.toManifestFile());
            contents.add(inlineOrWrite(table, file));
        }
        return new PendingFiles(manifests, contents);
    }

    /**
     * The manifest's bytes to inline, or null once written to its location: the same bytes at the
     * same location, so the description made in memory describes the file as well.
     */
    @Nullable
    private static byte[] inlineOrWrite(Table table, InMemoryOutputFile file) throws IOException {
        byte[] bytes = file.toByteArray();
        if (bytes.length <= INLINE_LIMIT) {
            return bytes;
        }
        try (PositionOutputStream out =
                table.io().newOutputFile(file.location()).create()) {
            out.write(bytes);
        }
        return null;
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
            int count = in.readInt();
            List<ManifestFile> manifests = new ArrayList<>(Math.min(count, 1024));
            List<byte[]> contents = new ArrayList<>(Math.min(count, 1024));
            for (int i = 0; i < count; i++) {
                byte[] encoded = new byte[in.readInt()];
                in.readFully(encoded);
                manifests.add(ManifestFiles.decode(encoded));
                byte[] content = null;
                if (version >= 2) {
                    int length = in.readInt();
                    if (length != WRITTEN) {
                        content = new byte[length];
                        in.readFully(content);
                    }
                }
                contents.add(content);
            }
            return new PendingFiles(manifests, contents);
        }
    }

    /** The payload: the manifests' descriptions, and the bytes of those that travel with them. */
    Payload toPayload() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(manifests.size());
            for (int i = 0; i < manifests.size(); i++) {
                byte[] encoded = ManifestFiles.encode(manifests.get(i));
                out.writeInt(encoded.length);
                out.write(encoded);
                byte[] content = contents.get(i);
                if (content == null) {
                    out.writeInt(WRITTEN);
                } else {
                    out.writeInt(content.length);
                    out.write(content);
                }
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
        for (int i = 0; i < manifests.size(); i++) {
            ManifestFile m = manifests.get(i);
            byte[] content = contents.get(i);
            FileIO io = content == null ? table.io() : new InlineManifest(m.path(), content);
            try {
                if (m.content() == ManifestContent.DELETES) {
                    try (ManifestReader<DeleteFile> reader = ManifestFiles.readDeleteManifest(m, io, table.specs())) {
                        reader.forEach(deletes::add);
                    }
                } else {
                    try (ManifestReader<DataFile> reader = ManifestFiles.read(m, io, table.specs())) {
                        reader.forEach(data::add);
                    }
                }
            } catch (RuntimeException e) {
                throw new IOException(
                        "Cannot read the pending files listed in "
                                + (content == null ? "temporary manifest " + m.path() : "the payload's manifest")
                                + ": " + e.getMessage(),
                        e);
            }
        }
    }

    /**
     * Deletes the manifests written to files, once their files are committed; failures only cost
     * space.
     */
    void deleteManifests(FileIO io) {
        for (int i = 0; i < manifests.size(); i++) {
            if (contents.get(i) != null) {
                continue; // in the payload, never written
            }
            try {
                io.deleteFile(manifests.get(i).path());
            } catch (RuntimeException leftBehind) {
                // an orphan manifest harms no reader: it is in no snapshot
            }
        }
    }

    /** Whether manifest {@code i} travels in the payload rather than as a file. */
    boolean inline(int i) {
        return contents.get(i) != null;
    }

    /** The one manifest a payload carries, as the file Iceberg's manifest reader asks for. */
    private static final class InlineManifest implements FileIO {
        private static final long serialVersionUID = 1L;
        private final String path;
        private final byte[] content;

        InlineManifest(String path, byte[] content) {
            this.path = path;
            this.content = content;
        }

        @Override
        public InputFile newInputFile(String location) {
            if (!location.equals(path)) {
                throw new IllegalStateException("A manifest carried in a payload is " + path + ", not " + location);
            }
            return new InMemoryInputFile(location, content);
        }

        @Override
        public OutputFile newOutputFile(String location) {
            throw new UnsupportedOperationException("A manifest carried in a payload is only read");
        }

        @Override
        public void deleteFile(String location) {
            throw new UnsupportedOperationException("A manifest carried in a payload is only read");
        }
    }

    /** The manifests' descriptions, in the payload's order. */
    List<ManifestFile> manifests() {
        return Collections.unmodifiableList(manifests);
    }
}

package io.sluice.testshared;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;

/**
 * Serialized state checked in for migration tests: {@code <state>-migration/<scenario>/v<N>.b64}
 * under a module's {@code src/test/resources}, as MIME base64 (text, so a diff shows that bytes
 * changed), one file per version and scenario; a list state has a directory {@code v<N>/} with
 * one file per element ({@code 0.b64}, {@code 1.b64}, ...).
 *
 * <p>Bytes of a new version are written by the tests' writer methods, which run only with
 * {@code -Dsluice.migration.write=true} ({@link #WRITE_PROPERTY}), for example {@code mvn test -pl
 * framework/runtime -Dtest=CommittableSerializerMigrationTest -Dsluice.migration.write=true}. They
 * never change bytes already checked in: different bytes for a version that has some mean the
 * layout changed without a new version, which is what these tests are there to catch.
 */
public final class CheckedInBytes {

    /** The system property that lets writer methods run. */
    public static final String WRITE_PROPERTY = "sluice.migration.write";

    private CheckedInBytes() {}

    /** The checked-in bytes of {@code resource}, for example {@code committable-migration/empty/v1.b64}. */
    public static byte[] read(String resource) {
        try (InputStream in = CheckedInBytes.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("No checked-in bytes " + resource + " on the test class path");
            }
            String base64 = new String(in.readAllBytes(), StandardCharsets.US_ASCII).replaceAll("\\s", "");
            return Base64.getDecoder().decode(base64);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Whether bytes are checked in as {@code resource}. */
    public static boolean exists(String resource) {
        return CheckedInBytes.class.getClassLoader().getResource(resource) != null;
    }

    /** The elements of a list state checked in under {@code directory}: {@code 0.b64}, {@code 1.b64}, ... */
    public static List<byte[]> readList(String directory) {
        List<byte[]> elements = new ArrayList<>();
        while (CheckedInBytes.class.getClassLoader().getResource(directory + "/" + elements.size() + ".b64") != null) {
            elements.add(read(directory + "/" + elements.size() + ".b64"));
        }
        if (elements.isEmpty()) {
            throw new IllegalStateException("No checked-in list " + directory + "/0.b64 on the test class path");
        }
        return elements;
    }

    /**
     * Checks {@code bytes} in as {@code resource} under this module's {@code src/test/resources}
     * (Maven runs tests in the module's directory); no change if the same bytes are there.
     *
     * @throws IllegalStateException if different bytes are checked in under that name
     */
    public static void write(String resource, byte[] bytes) {
        Path file = Paths.get("src", "test", "resources").resolve(resource);
        try {
            if (Files.exists(file)) {
                byte[] there = Base64.getMimeDecoder().decode(Files.readAllBytes(file));
                if (!Arrays.equals(there, bytes)) {
                    throw new IllegalStateException(file.toAbsolutePath() + " holds other bytes for this version: a"
                            + " changed layout needs a new version (and a branch for it in the serializer)");
                }
                return;
            }
            Files.createDirectories(file.getParent());
            String text = Base64.getMimeEncoder(76, new byte[] {'\n'}).encodeToString(bytes) + "\n";
            Files.write(file, text.getBytes(StandardCharsets.US_ASCII));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Checks in the elements of a list state as {@code directory/0.b64}, {@code directory/1.b64}, ... */
    public static void writeList(String directory, List<byte[]> elements) {
        for (int i = 0; i < elements.size(); i++) {
            write(directory + "/" + i + ".b64", elements.get(i));
        }
    }
}

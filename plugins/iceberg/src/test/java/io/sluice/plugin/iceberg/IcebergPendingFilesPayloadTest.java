package io.sluice.plugin.iceberg;

import io.sluice.spi.Payload;

import org.apache.iceberg.ManifestContent;
import org.apache.iceberg.ManifestFile;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The pending-files payload stays readable: bytes checked in when version 1 was written (by a
 * writer of three rows into {@code db.t} of a warehouse under {@code /tmp/sluice-payload-v1}) decode
 * to the manifest they described, and a version this plugin does not know is a clear error.
 */
class IcebergPendingFilesPayloadTest {

    @Test
    void version1BytesDecodeToTheirManifest() throws IOException {
        PendingFiles files = PendingFiles.of(new Payload(1, checkedIn("payloads/pending-files-v1.b64")));

        assertThat(files.manifests()).hasSize(1);
        ManifestFile m = files.manifests().get(0);
        assertThat(m.path()).startsWith("file:/tmp/sluice-payload-v1/warehouse/db/t/metadata/sluice-0000000000000000000000000000000a-00000-")
                .endsWith("-00001-data.avro");
        assertThat(m.length()).isEqualTo(7018);
        assertThat(m.content()).isEqualTo(ManifestContent.DATA);
        assertThat(m.partitionSpecId()).isZero();
        assertThat(m.addedFilesCount()).isEqualTo(1);
        assertThat(m.addedRowsCount()).isEqualTo(3);
        // and this version writes them back to the same bytes
        assertThat(files.toPayload()).isEqualTo(new Payload(1, checkedIn("payloads/pending-files-v1.b64")));
    }

    @Test
    void anUnknownVersionIsAClearError() {
        assertThatThrownBy(() -> PendingFiles.of(new Payload(2, new byte[0])))
                .isInstanceOf(IOException.class).hasMessageContaining("Unknown version 2");
    }

    private static byte[] checkedIn(String resource) throws IOException {
        try (InputStream in = IcebergPendingFilesPayloadTest.class.getClassLoader().getResourceAsStream(resource)) {
            String base64 = new String(in.readAllBytes(), StandardCharsets.US_ASCII).replaceAll("\\s", "");
            return Base64.getDecoder().decode(base64);
        }
    }
}

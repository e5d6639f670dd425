package io.sluice.hadoopbridge;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URI;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Which schemes go through Flink, and that every kind of Hadoop configuration of a plugin maps them. */
class ObjectStoresTest {

    @Test
    void theDefaultResourceMapsExactlyTheObjectStoreSchemes() {
        Configuration resource = new Configuration(false);
        resource.addResource(ObjectStores.DEFAULT_RESOURCE);
        Set<String> fileSystems = new TreeSet<>();
        Set<String> abstractFileSystems = new TreeSet<>();
        for (Map.Entry<String, String> e : resource) {
            String key = e.getKey();
            if (key.startsWith("fs.AbstractFileSystem.")) {
                assertThat(e.getValue()).as(key).isEqualTo(FlinkBackedFs.class.getName());
                abstractFileSystems.add(key.substring("fs.AbstractFileSystem.".length(), key.length() - 5));
            } else {
                assertThat(key).matches("fs\\.[a-z0-9]+\\.impl");
                assertThat(e.getValue()).as(key).isEqualTo(FlinkBackedFileSystem.class.getName());
                fileSystems.add(key.substring(3, key.length() - 5));
            }
        }
        assertThat(fileSystems).isEqualTo(new TreeSet<>(ObjectStores.SCHEMES));
        assertThat(abstractFileSystems).isEqualTo(new TreeSet<>(ObjectStores.SCHEMES));
    }

    @Test
    void everyNewConfigurationMapsThemOverHadoopsDefaults() throws IOException {
        Configuration coreDefault = new Configuration(false);
        coreDefault.addResource("core-default.xml");
        assertThat(coreDefault.get("fs.s3a.impl")).isEqualTo("org.apache.hadoop.fs.s3a.S3AFileSystem");
        assertThat(coreDefault.get("fs.abfs.impl")).isEqualTo("org.apache.hadoop.fs.azurebfs.AzureBlobFileSystem");

        Configuration before = new Configuration();
        ObjectStores.routeThroughFlinkByDefault();
        ObjectStores.routeThroughFlinkByDefault();
        Configuration after = new Configuration();
        for (String scheme : ObjectStores.SCHEMES) {
            for (Configuration conf : new Configuration[] {before, after}) {
                assertThat(FileSystem.getFileSystemClass(scheme, conf))
                        .as(scheme)
                        .isEqualTo(FlinkBackedFileSystem.class);
                assertThat(conf.get("fs.AbstractFileSystem." + scheme + ".impl"))
                        .isEqualTo(FlinkBackedFs.class.getName());
            }
        }
        // served by the plugin's own Hadoop
        assertThat(FileSystem.getFileSystemClass("file", after)).isEqualTo(org.apache.hadoop.fs.LocalFileSystem.class);
        assertThat(after.get("fs.hdfs.impl")).isNull();
        assertThat(after.get("fs.AbstractFileSystem.hdfs.impl")).isEqualTo("org.apache.hadoop.fs.Hdfs");
        assertThat(after.get("fs.viewfs.impl")).isNull();
    }

    @Test
    void aConfigurationWithoutDefaultsOrWithASiteFileIsMappedExplicitly() {
        Configuration conf = new Configuration(false);
        conf.set("fs.s3a.impl", "org.apache.hadoop.fs.s3a.S3AFileSystem"); // as a copied core-site.xml says
        assertThat(ObjectStores.routeThroughFlink(conf)).isSameAs(conf);
        for (String scheme : ObjectStores.SCHEMES) {
            assertThat(conf.get("fs." + scheme + ".impl")).isEqualTo(FlinkBackedFileSystem.class.getName());
        }
        assertThat(conf.get("fs.hdfs.impl")).isNull();
    }

    @Test
    void anObjectStoreWithoutAFlinkFileSystemNamesWhatToInstall() {
        Configuration conf = ObjectStores.newConfiguration();
        assertThatThrownBy(() -> FileSystem.newInstance(URI.create("s3a://bucket/warehouse"), conf))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("No Flink file system for 's3a://' (s3a://bucket/)")
                .hasMessageContaining("flink-s3-fs-hadoop or flink-s3-fs-presto");
    }

    @Test
    void objectStoreLocations() {
        for (String location : new String[] {
            "s3://bucket/w",
            "s3a://bucket/w",
            "S3A://bucket/w",
            "s3n://b/",
            "s3p://b/",
            "gs://bucket/w",
            "oss://bucket/w",
            "abfs://container@account.dfs.core.windows.net/w",
            "abfss://container@account.dfs.core.windows.net/w",
            "wasb://container@account.blob.core.windows.net/w",
            "wasbs://container@account.blob.core.windows.net/w",
            "s3a://bucket/with space"
        }) {
            assertThat(ObjectStores.isObjectStore(location)).as(location).isTrue();
        }
        for (String location : new String[] {
            "hdfs://nn:8020/w", "file:/tmp/w", "file:///tmp/w", "/tmp/w", "w", "viewfs://c/w", "", null
        }) {
            assertThat(ObjectStores.isObjectStore(location)).as(location).isFalse();
        }
    }
}

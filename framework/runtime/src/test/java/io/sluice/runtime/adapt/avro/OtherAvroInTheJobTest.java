package io.sluice.runtime.adapt.avro;

import io.sluice.runtime.adapt.JobClassBridgeTest;
import io.sluice.runtime.adapt.RowAdapter;
import io.sluice.runtime.plugin.TestPlugins;

import org.apache.avro.Schema;
import org.apache.flink.table.data.RowData;
import org.apache.flink.util.InstantiationUtil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.reflect.InvocationTargetException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The framework's loader sees one Avro (here the test's, as a cluster with {@code flink-sql-avro}
 * in {@code lib/} would), the job brings another, loaded child-first as Flink loads a job jar. The
 * adapter must convert with the job's: the job's records are not even instances of the
 * framework's {@code IndexedRecord}. Here the job passes the schema as text: {@code
 * AvroAdapters.forSchema(Schema)} cannot link across two Avros, and says so.
 */
class OtherAvroInTheJobTest {

    @TempDir
    Path tmp;

    /** Child-first for Avro and the job's own classes, parent-first for the rest (the framework). */
    static final class ChildFirstLoader extends URLClassLoader {
        ChildFirstLoader(URL[] urls, ClassLoader parent) {
            super(urls, parent);
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (!name.startsWith("org.apache.avro.") && !name.startsWith("job.")) {
                return super.loadClass(name, resolve);
            }
            synchronized (getClassLoadingLock(name)) {
                Class<?> c = findLoadedClass(name);
                if (c == null) {
                    c = findClass(name);
                }
                if (resolve) {
                    resolveClass(c);
                }
                return c;
            }
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void theJobsAvroWinsOverTheOneTheFrameworkSees() throws Exception {
        String frameworkAvro = Schema.class.getPackage().getImplementationVersion();
        assertThat(frameworkAvro).isNotEqualTo(JobClassBridgeTest.AVRO);
        Path avro = TestPlugins.testLib("avro-" + JobClassBridgeTest.AVRO + ".jar");
        Path job = TestPlugins.compileJar(
                tmp.resolve("job.jar"), Map.of("job.AvroJob", JobClassBridgeTest.JOB), Map.of(), List.of(avro));
        try (URLClassLoader jobLoader = new ChildFirstLoader(
                new URL[] {avro.toUri().toURL(), job.toUri().toURL()},
                getClass().getClassLoader())) {
            Class<?> jobClass = jobLoader.loadClass("job.AvroJob");
            assertThat(jobLoader.loadClass("org.apache.avro.Schema")).isNotSameAs(Schema.class);

            // a framework method that names Avro's Schema cannot link to a job whose Schema is
            // another class than the one the framework's loader sees: the JVM refuses, loudly
            assertThatThrownBy(
                            () -> jobClass.getMethod("adapter", String.class).invoke(null, JobClassBridgeTest.SCHEMA))
                    .isInstanceOf(InvocationTargetException.class)
                    .cause()
                    .isInstanceOf(LinkageError.class)
                    .hasMessageContaining("loader constraint violation");
            // the schema as text links everywhere
            RowAdapter<Object> adapter = (RowAdapter<Object>)
                    jobClass.getMethod("adapterFromText", String.class).invoke(null, JobClassBridgeTest.SCHEMA);
            RowAdapter<Object> onTask =
                    InstantiationUtil.deserializeObject(InstantiationUtil.serializeObject(adapter), jobLoader);
            Object record =
                    jobClass.getMethod("record", String.class, long.class).invoke(null, JobClassBridgeTest.SCHEMA, 9L);
            assertThat(record.getClass().getClassLoader()).isSameAs(jobLoader);

            Thread thread = Thread.currentThread();
            ClassLoader previous = thread.getContextClassLoader();
            thread.setContextClassLoader(jobLoader);
            RowData row;
            try {
                row = onTask.map(record);
            } finally {
                thread.setContextClassLoader(previous);
            }
            assertThat(row.getLong(0)).isEqualTo(9L);
            assertThat(row.getString(1).toString()).isEqualTo("n9");
            assertThat(row.getTimestamp(2, 6).toInstant().toString()).isEqualTo("2023-11-14T22:13:20.123456Z");
        }
    }
}

package io.sluice.runtime.plugin;

import io.sluice.runtime.plugin.ClassLoadingRule.Origin;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static io.sluice.runtime.plugin.ClassLoadingRule.Origin.FRAMEWORK_ONLY;
import static io.sluice.runtime.plugin.ClassLoadingRule.Origin.JDK;
import static io.sluice.runtime.plugin.ClassLoadingRule.Origin.PLUGIN_FIRST;
import static io.sluice.runtime.plugin.ClassLoadingRule.Origin.PLUGIN_ONLY;
import static io.sluice.runtime.plugin.ClassLoadingRule.Origin.SHARED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The class-loading rule, name by name and grouped by area, as Kafka Connect's {@code
 * PluginUtilsTest} tests its isolation predicate: each name is one a plugin or a library it
 * bundles really asks for (or one chosen to sit just beside a boundary).
 */
class ClassLoadingRuleTest {

    private static final ClassLoadingRule RULE = ClassLoadingRule.defaults();

    /** Asserts the origin of every name, reporting all that differ at once. */
    private static void assertOrigin(ClassLoadingRule rule, Origin expected, String... names) {
        List<String> wrong = new ArrayList<>();
        for (String name : names) {
            Origin actual = rule.originOf(name);
            if (actual != expected) {
                wrong.add(name + " is " + actual);
            }
        }
        assertThat(wrong).as("names expected to be %s", expected).isEmpty();
    }

    private static void assertOrigin(Origin expected, String... names) {
        assertOrigin(RULE, expected, names);
    }

    @Test
    void jdkNamespaces() {
        assertOrigin(
                JDK,
                "java.lang.Object",
                "java.lang.String",
                "java.lang.Thread$State",
                "java.lang.invoke.MethodHandles$Lookup",
                "java.lang.reflect.Proxy",
                "java.util.ServiceLoader",
                "java.util.concurrent.ConcurrentHashMap",
                "java.util.logging.Logger",
                "java.util.zip.ZipFile",
                "java.io.ObjectInputStream",
                "java.net.URLClassLoader",
                "java.nio.file.spi.FileTypeDetector",
                "java.security.PrivilegedAction",
                "java.sql.Timestamp",
                "java.time.Instant",
                "java.beans.Introspector",
                "java.awt.image.BufferedImage",
                "java.rmi.Remote",
                "jdk.internal.misc.Unsafe",
                "jdk.internal.reflect.Reflection",
                "jdk.jfr.Event",
                "jdk.net.ExtendedSocketOptions",
                "jdk.nio.zipfs.ZipFileSystem",
                "jdk.proxy1.$Proxy12",
                "jdk.xml.internal.JdkXmlUtils",
                "sun.misc.Unsafe",
                "sun.misc.Signal",
                "sun.nio.ch.DirectBuffer",
                "sun.reflect.ReflectionFactory",
                "sun.security.krb5.KrbException",
                "sun.security.x509.X500Name",
                "sun.net.www.protocol.jar.JarURLConnection",
                "sun.util.calendar.ZoneInfo");
    }

    @Test
    void jdkPackagesInNamespacesShared() {
        assertOrigin(
                JDK,
                // Hadoop's UserGroupInformation names these login modules in its JAAS configuration
                "com.sun.security.auth.module.UnixLoginModule",
                "com.sun.security.auth.module.Krb5LoginModule",
                "com.sun.security.auth.UnixPrincipal",
                "com.sun.security.jgss.ExtendedGSSContext",
                "com.sun.security.sasl.gsskerb.JdkSASL",
                // Hadoop's LdapGroupsMapping, through JNDI
                "com.sun.jndi.ldap.LdapCtxFactory",
                "com.sun.jndi.dns.DnsContextFactory",
                "com.sun.management.OperatingSystemMXBean",
                "com.sun.management.HotSpotDiagnosticMXBean",
                "com.sun.net.httpserver.HttpServer",
                "com.sun.nio.file.ExtendedOpenOption",
                "com.sun.nio.sctp.SctpChannel",
                "com.sun.crypto.provider.SunJCE",
                "com.sun.jmx.mbeanserver.JmxMBeanServer",
                "com.sun.rowset.CachedRowSetImpl",
                "com.sun.beans.finder.ClassFinder",
                "com.sun.org.apache.xerces.internal.jaxp.DocumentBuilderFactoryImpl",
                "com.sun.org.apache.xalan.internal.xsltc.trax.TransformerFactoryImpl",
                "com.sun.org.apache.xml.internal.serializer.ToStream",
                "com.sun.org.apache.xpath.internal.XPathAPI",
                "com.sun.org.apache.bcel.internal.classfile.JavaClass",
                "com.sun.xml.internal.stream.XMLInputFactoryImpl",
                "org.w3c.dom.Document",
                "org.w3c.dom.Node",
                "org.w3c.dom.ls.LSInput",
                "org.w3c.dom.css.CSSStyleSheet",
                "org.w3c.dom.events.Event",
                "org.xml.sax.SAXException",
                "org.xml.sax.helpers.DefaultHandler",
                "org.xml.sax.ext.LexicalHandler",
                "org.ietf.jgss.GSSManager",
                "org.jcp.xml.dsig.internal.dom.XMLDSigRI",
                "netscape.javascript.JSObject");
    }

    @Test
    void jdkJavaxPackages() {
        assertOrigin(
                JDK,
                "javax.annotation.processing.Processor",
                "javax.annotation.processing.AbstractProcessor",
                "javax.crypto.Cipher",
                "javax.crypto.spec.SecretKeySpec",
                "javax.crypto.interfaces.DHKey",
                "javax.management.MBeanServer",
                "javax.management.ObjectName",
                "javax.management.openmbean.CompositeData",
                "javax.management.remote.JMXConnectorFactory",
                "javax.management.remote.rmi.RMIConnector",
                "javax.naming.InitialContext",
                "javax.naming.directory.DirContext",
                "javax.naming.ldap.LdapContext",
                "javax.naming.spi.InitialContextFactory",
                "javax.net.SocketFactory",
                "javax.net.ssl.SSLContext",
                "javax.net.ssl.TrustManagerFactory",
                "javax.security.auth.Subject",
                "javax.security.auth.callback.CallbackHandler",
                "javax.security.auth.kerberos.KerberosPrincipal",
                "javax.security.auth.login.LoginContext",
                "javax.security.auth.login.AppConfigurationEntry$LoginModuleControlFlag",
                "javax.security.auth.spi.LoginModule",
                "javax.security.auth.x500.X500Principal",
                "javax.security.cert.X509Certificate",
                "javax.security.sasl.Sasl",
                "javax.sql.DataSource",
                "javax.sql.rowset.CachedRowSet",
                "javax.transaction.xa.XAResource",
                "javax.xml.XMLConstants",
                "javax.xml.parsers.DocumentBuilderFactory",
                "javax.xml.parsers.SAXParserFactory",
                "javax.xml.stream.XMLStreamReader",
                "javax.xml.stream.XMLInputFactory",
                "javax.xml.transform.Transformer",
                "javax.xml.transform.stream.StreamSource",
                "javax.xml.transform.dom.DOMSource",
                "javax.xml.validation.Schema",
                "javax.xml.xpath.XPath",
                "javax.xml.datatype.DatatypeFactory",
                "javax.xml.namespace.QName",
                "javax.xml.catalog.Catalog",
                "javax.xml.crypto.dsig.XMLSignature",
                "javax.script.ScriptEngine",
                "javax.tools.ToolProvider",
                "javax.lang.model.element.Element",
                "javax.lang.model.SourceVersion",
                "javax.swing.JFrame",
                "javax.swing.plaf.nimbus.NimbusLookAndFeel",
                "javax.imageio.ImageIO",
                "javax.print.PrintService",
                "javax.sound.sampled.AudioSystem",
                "javax.accessibility.Accessible",
                "javax.smartcardio.Card",
                "javax.rmi.ssl.SslRMIClientSocketFactory");
    }

    @Test
    void javaxPackagesTheJdkDoesNotHaveAreThePluginsOwn() {
        assertOrigin(
                PLUGIN_ONLY,
                // a Hive plugin's metastore client and server
                "javax.jdo.JDOHelper",
                "javax.jdo.PersistenceManager",
                "javax.jdo.spi.PersistenceCapable",
                "javax.servlet.Servlet",
                "javax.servlet.http.HttpServletRequest",
                "javax.ws.rs.core.Response",
                "javax.ws.rs.client.Client",
                "javax.inject.Inject",
                "javax.inject.Provider",
                // JSR-305 (findbugs jsr305) and JSR-250: javax.annotation, but not the JDK's
                "javax.annotation.Nullable",
                "javax.annotation.Nonnull",
                "javax.annotation.CheckForNull",
                "javax.annotation.concurrent.ThreadSafe",
                "javax.annotation.meta.TypeQualifier",
                "javax.annotation.PostConstruct",
                "javax.annotation.Generated",
                // Java EE modules the JDK dropped in 11
                "javax.xml.bind.JAXBContext",
                "javax.xml.bind.annotation.XmlElement",
                "javax.xml.ws.Service",
                "javax.xml.soap.SOAPMessage",
                "javax.activation.DataSource",
                "javax.jws.WebService",
                "javax.rmi.PortableRemoteObject",
                "javax.rmi.CORBA.Util",
                // JTA beside the JDK's javax.transaction.xa
                "javax.transaction.Transaction",
                "javax.transaction.TransactionManager",
                // Java EE packages inside a JDK package's namespace
                "javax.management.j2ee.Management",
                "javax.security.auth.message.AuthStatus",
                "javax.security.jacc.PolicyContext",
                "javax.el.ELContext",
                "javax.mail.Session",
                "javax.validation.Validator",
                "javax.persistence.Entity",
                "javax.json.Json",
                "javax.cache.Cache",
                "javax.websocket.Session",
                "javax.wsdl.Definition",
                "javax.measure.Unit",
                "javax.money.MonetaryAmount");
    }

    @Test
    void comSunAndW3cPackagesTheJdkDoesNotHaveAreThePluginsOwn() {
        assertOrigin(
                PLUGIN_ONLY,
                // Hadoop's Jersey 1
                "com.sun.jersey.api.client.Client",
                "com.sun.jersey.spi.container.servlet.ServletContainer",
                "com.sun.research.ws.wadl.Application",
                // JAXB and JAX-WS implementations, out of the JDK since 11
                "com.sun.xml.bind.v2.ContextFactory",
                "com.sun.xml.ws.api.BindingID",
                "com.sun.istack.Nullable",
                "com.sun.tools.xjc.Driver",
                "com.sun.activation.registries.MailcapFile",
                "com.sun.mail.smtp.SMTPTransport",
                "com.sun.jna.Native",
                "com.sun.el.ExpressionFactoryImpl",
                "com.sun.jmx.remote.generic.DefaultConfig",
                // the JDK's tool modules are not served by the platform class loader
                "com.sun.tools.javac.Main",
                "com.sun.source.tree.Tree",
                // DOM and SAX extensions of libraries
                "org.w3c.dom.svg.SVGDocument",
                "org.w3c.css.sac.Parser",
                "org.w3c.tidy.Tidy",
                "org.xmlpull.v1.XmlPullParser",
                "org.xmlunit.builder.Input");
    }

    @Test
    void flinkIsShared() {
        assertOrigin(
                SHARED,
                "org.apache.flink.api.common.serialization.Encoder",
                "org.apache.flink.api.common.serialization.BulkWriter$Factory",
                "org.apache.flink.api.common.typeinfo.TypeInformation",
                "org.apache.flink.api.java.tuple.Tuple2",
                "org.apache.flink.configuration.Configuration",
                "org.apache.flink.configuration.ReadableConfig",
                "org.apache.flink.core.fs.FileSystem",
                "org.apache.flink.core.fs.Path",
                "org.apache.flink.core.fs.RecoverableWriter",
                "org.apache.flink.core.io.SimpleVersionedSerializer",
                "org.apache.flink.metrics.MetricGroup",
                "org.apache.flink.util.StringUtils",
                "org.apache.flink.util.UserCodeClassLoader",
                "org.apache.flink.table.data.RowData",
                "org.apache.flink.table.data.GenericRowData",
                "org.apache.flink.table.types.logical.RowType",
                "org.apache.flink.table.catalog.Catalog",
                "org.apache.flink.table.catalog.CatalogTable",
                "org.apache.flink.table.catalog.ObjectPath",
                "org.apache.flink.table.factories.DynamicTableFactory",
                "org.apache.flink.table.runtime.typeutils.InternalTypeInfo",
                "org.apache.flink.table.expressions.ResolvedExpression",
                "org.apache.flink.connector.file.src.reader.BulkFormat",
                "org.apache.flink.connector.file.src.reader.StreamFormat",
                "org.apache.flink.connector.file.src.enumerate.FileEnumerator",
                "org.apache.flink.connector.file.sink.FileSink",
                "org.apache.flink.connector.base.source.reader.SourceReaderBase",
                "org.apache.flink.streaming.api.functions.sink.filesystem.RollingPolicy",
                "org.apache.flink.runtime.fs.hdfs.HadoopFileSystem",
                "org.apache.flink.runtime.metrics.DescriptiveStatisticsHistogram",
                // Flink's relocated libraries are Flink's
                "org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper",
                "org.apache.flink.shaded.jackson2.com.fasterxml.jackson.dataformat.csv.CsvMapper",
                "org.apache.flink.shaded.guava31.com.google.common.collect.ImmutableList",
                "org.apache.flink.shaded.netty4.io.netty.buffer.ByteBuf",
                "org.apache.flink.shaded.zookeeper3.org.apache.zookeeper.ZooKeeper",
                // a connector a plugin bundles falls back to its jars when the cluster lacks it
                "org.apache.flink.connector.sluicetest.OnlyInPlugin",
                // just beside a plugin-first prefix
                "org.apache.flink.formatsx.Codec",
                "org.apache.flink.table.catalog.hivex.Catalog",
                "org.apache.flink.table.catalog.GenericInMemoryCatalog",
                "scala.Option",
                "scala.Function1",
                "scala.collection.immutable.List",
                "org.pf4j.Extension",
                "org.pf4j.ExtensionPoint",
                "org.pf4j.PluginWrapper");
    }

    @Test
    void flinkFormatAndConnectorModulesArePluginFirst() {
        assertOrigin(
                PLUGIN_FIRST,
                "org.apache.flink.formats.parquet.ParquetWriterFactory",
                "org.apache.flink.formats.parquet.row.ParquetRowDataBuilder",
                "org.apache.flink.formats.parquet.vector.ParquetColumnarRowSplitReader",
                "org.apache.flink.formats.parquet.ParquetColumnarRowInputFormat",
                "org.apache.flink.formats.avro.AvroSerializationSchema",
                "org.apache.flink.formats.avro.AvroToRowDataConverters",
                "org.apache.flink.formats.avro.typeutils.AvroSerializer",
                "org.apache.flink.formats.avro.typeutils.AvroSchemaConverter",
                "org.apache.flink.formats.csv.CsvRowDataSerializationSchema",
                "org.apache.flink.formats.csv.CsvReaderFormat",
                "org.apache.flink.formats.json.JsonRowDataSerializationSchema",
                "org.apache.flink.formats.common.TimestampFormat",
                "org.apache.flink.formats.compress.CompressWriterFactory",
                "org.apache.flink.formats.sequencefile.SequenceFileWriterFactory",
                "org.apache.flink.formats.hadoop.bulk.HadoopPathBasedBulkWriter",
                "org.apache.flink.orc.OrcColumnarRowInputFormat",
                "org.apache.flink.orc.writer.OrcBulkWriterFactory",
                "org.apache.flink.orc.vector.Vectorizer",
                "org.apache.flink.orc.shim.OrcShim",
                "org.apache.flink.orc.nohive.OrcNoHiveColumnarRowInputFormat",
                "org.apache.flink.connectors.hive.HiveTableSink",
                "org.apache.flink.connectors.hive.read.HiveInputFormat",
                "org.apache.flink.connectors.hive.write.HiveWriterFactory",
                "org.apache.flink.table.catalog.hive.HiveCatalog",
                "org.apache.flink.table.catalog.hive.client.HiveShim",
                "org.apache.flink.table.catalog.hive.util.HiveTypeUtil",
                "org.apache.flink.table.functions.hive.HiveGenericUDF",
                "org.apache.flink.table.module.hive.HiveModule",
                "org.apache.flink.table.planner.delegation.hive.HiveParser");
    }

    @Test
    void theHiveConnectorsHadoopLinkedFlinkModulesArePluginFirst() {
        // a cluster may have flink-sql-connector-hive or flink-hadoop-compatibility in lib/, linked
        // against its own Hadoop and Hive, or a flat planner whose flink-sql-parser is linked against
        // its own Calcite: the hive plugin's copies must win
        assertOrigin(
                PLUGIN_FIRST,
                "org.apache.flink.api.java.hadoop.mapred.utils.HadoopUtils",
                "org.apache.flink.api.java.hadoop.mapred.HadoopInputFormat",
                "org.apache.flink.api.java.hadoop.mapreduce.HadoopOutputFormat",
                "org.apache.flink.hadoopcompatibility.HadoopInputs",
                "org.apache.flink.hadoopcompatibility.mapred.HadoopMapFunction",
                "org.apache.flink.hive.shaded.parquet.hadoop.ParquetFileReader",
                "org.apache.flink.hive.reshaded.parquet.format.FileMetaData",
                "org.apache.flink.table.endpoint.hive.HiveServer2Endpoint",
                "org.apache.flink.table.endpoint.hive.util.ThriftObjectConversions",
                "org.apache.flink.sql.parser.impl.FlinkSqlParserImpl",
                "org.apache.flink.sql.parser.validate.FlinkSqlConformance",
                "org/apache/flink/api/java/hadoop/mapred/utils/HadoopUtils.class");
        // names just beside them stay the cluster's
        assertOrigin(
                SHARED,
                "org.apache.flink.api.java.hadoopx.Foo",
                "org.apache.flink.api.java.ExecutionEnvironment",
                "org.apache.flink.hivex.Foo",
                "org.apache.flink.table.endpoint.SqlGatewayEndpointFactory",
                "org.apache.flink.sql.parserx.Foo",
                "org.apache.flink.sql.Foo",
                "org.apache.flink.hadoopcompatibilityx.Foo");
    }

    @Test
    void theSpiIsShared() {
        assertOrigin(
                SHARED,
                "io.sluice.spi.SluiceFactory",
                "io.sluice.spi.SpiVersion",
                "io.sluice.spi.ExtensionLookup",
                "io.sluice.spi.Payload",
                "io.sluice.spi.format.FormatFactory",
                "io.sluice.spi.format.FormatContext",
                "io.sluice.spi.sink.TargetFactory",
                "io.sluice.spi.sink.TargetWriter",
                "io.sluice.spi.sink.TargetCommitter",
                "io.sluice.spi.sink.BucketAssignerFactory",
                "io.sluice.spi.source.ScanSourceFactory",
                "io.sluice.spi.source.FileEnumeratorFactory",
                "io.sluice.spi.catalog.TargetCatalogFactory",
                "io.sluice.spi.compact.FileCompactor",
                "io.sluice.spi.partition.CommitPolicy");
    }

    @Test
    void theFrameworkIsNeverAPlugins() {
        assertOrigin(
                FRAMEWORK_ONLY,
                "io.sluice.runtime.plugin.PluginRegistry",
                "io.sluice.runtime.plugin.IsolatingPluginClassLoader",
                "io.sluice.runtime.plugin.ClassLoadingRule",
                "io.sluice.runtime.plugin.ClassLoadingRule$Origin",
                "io.sluice.runtime.plugin.wrap.SpiWrappers",
                "io.sluice.runtime.plugin.PluginBound",
                "io.sluice.runtime.config.SluiceOptions",
                "io.sluice.runtime.table.SluiceDynamicTableFactory",
                "io.sluice.runtime.table.SluiceCatalogFactory",
                "io.sluice.runtime.sluicetest.OnlyInPlugin");
        // plugins' own code, the test kit, and names just beside the framework's and the SPI's
        assertOrigin(
                PLUGIN_ONLY,
                "io.sluice.plugin.iceberg.IcebergTargetFactory",
                "io.sluice.plugin.formats.parquet.ParquetFormatFactory",
                "io.sluice.plugin.filesystem.FileSystemTargetFactory",
                "io.sluice.testkit.FileEnumeratorConformance",
                "io.sluice.testshared.SharedMarker",
                "io.sluice.runtimes.Foo",
                "io.sluice.spiral.Foo",
                "io.sluice.Version");
    }

    @Test
    void thePartFileLibraryIsEachPluginsOwn() {
        // framework/part-files: bundled in the zip of every plugin that writes part files, never in lib/
        assertOrigin(
                PLUGIN_ONLY,
                "io.sluice.partfiles.PartFiles",
                "io.sluice.partfiles.PartFiles$Builder",
                "io.sluice.partfiles.PartWriters",
                "io.sluice.partfiles.PartFileNames",
                "io.sluice.partfiles.VisibleFiles",
                "io.sluice.partfiles.FileWriterState",
                "io.sluice.partfiles.PendingFile",
                "io/sluice/partfiles/PartFiles.class");
    }

    @Test
    void loggingApisAreShared() {
        assertOrigin(
                SHARED,
                "org.slf4j.Logger",
                "org.slf4j.LoggerFactory",
                "org.slf4j.MDC",
                "org.slf4j.spi.LoggerFactoryBinder",
                "org.slf4j.impl.StaticLoggerBinder",
                "org.slf4j.bridge.SLF4JBridgeHandler",
                "org.apache.logging.log4j.LogManager",
                "org.apache.logging.log4j.Logger",
                "org.apache.logging.log4j.spi.LoggerContext",
                "org.apache.logging.log4j.core.LoggerContext",
                "org.apache.logging.log4j.core.appender.FileAppender",
                "org.apache.log4j.Logger",
                "org.apache.log4j.Level",
                "org.apache.commons.logging.Log",
                "org.apache.commons.logging.LogFactory");
        // implementations outside the API namespaces stay a plugin's, like any library
        assertOrigin(
                PLUGIN_ONLY,
                "ch.qos.logback.classic.Logger",
                "org.apache.logging.slf4j.Log4jLoggerFactory",
                "org.apache.commons.lang3.StringUtils",
                "org.apache.commons.lang.StringUtils",
                "org.apache.commons.compress.compressors.CompressorStreamFactory");
    }

    @Test
    void icebergIsThePluginsOnly() {
        assertOrigin(
                PLUGIN_ONLY,
                "org.apache.iceberg.Table",
                "org.apache.iceberg.Schema",
                "org.apache.iceberg.PartitionSpec",
                "org.apache.iceberg.DataFile",
                "org.apache.iceberg.IcebergBuild",
                "org.apache.iceberg.catalog.Catalog",
                "org.apache.iceberg.catalog.Namespace",
                "org.apache.iceberg.hadoop.HadoopCatalog",
                "org.apache.iceberg.hadoop.HadoopFileIO",
                "org.apache.iceberg.hive.HiveCatalog",
                "org.apache.iceberg.rest.RESTCatalog",
                "org.apache.iceberg.io.FileIO",
                "org.apache.iceberg.io.TaskWriter",
                "org.apache.iceberg.parquet.Parquet",
                "org.apache.iceberg.orc.ORC",
                "org.apache.iceberg.avro.Avro",
                "org.apache.iceberg.data.GenericRecord",
                "org.apache.iceberg.metrics.LoggingMetricsReporter",
                "org.apache.iceberg.flink.FlinkCatalog",
                "org.apache.iceberg.flink.CatalogLoader",
                "org.apache.iceberg.flink.sink.FlinkSink",
                "org.apache.iceberg.flink.source.IcebergSource",
                "org.apache.iceberg.flink.source.split.IcebergSourceSplit",
                // the iceberg plugin's own class in Iceberg's package
                "org.apache.iceberg.flink.source.enumerator.SluiceSplitPlanning",
                "org.apache.iceberg.relocated.com.google.common.collect.ImmutableList",
                "org.apache.iceberg.shaded.org.apache.avro.Schema");
    }

    @Test
    void avroIsThePluginsOnly() {
        assertOrigin(
                PLUGIN_ONLY,
                "org.apache.avro.Schema",
                "org.apache.avro.Schema$Parser",
                "org.apache.avro.LogicalTypes",
                "org.apache.avro.generic.GenericRecord",
                "org.apache.avro.generic.GenericData$Record",
                "org.apache.avro.file.DataFileWriter",
                "org.apache.avro.file.CodecFactory",
                "org.apache.avro.specific.SpecificRecordBase",
                "org.apache.avro.io.DatumWriter",
                "org.apache.avro.io.EncoderFactory",
                "org.apache.avro.reflect.ReflectData",
                "org.apache.avro.util.Utf8");
    }

    @Test
    void hadoopIsThePluginsOnly() {
        assertOrigin(
                PLUGIN_ONLY,
                "org.apache.hadoop.conf.Configuration",
                "org.apache.hadoop.fs.FileSystem",
                "org.apache.hadoop.fs.Path",
                "org.apache.hadoop.fs.s3a.S3AFileSystem",
                "org.apache.hadoop.hdfs.DistributedFileSystem",
                "org.apache.hadoop.security.UserGroupInformation",
                "org.apache.hadoop.io.compress.Lz4Codec",
                "org.apache.hadoop.io.Text",
                "org.apache.hadoop.mapred.JobConf",
                "org.apache.hadoop.util.ReflectionUtils",
                "org.apache.hadoop.shaded.com.google.common.base.Preconditions",
                "org.apache.hadoop.shaded.org.apache.commons.lang3.StringUtils",
                "org.apache.hadoop.thirdparty.com.google.common.collect.Lists");
    }

    @Test
    void parquetAndOrcAreThePluginsOnly() {
        assertOrigin(
                PLUGIN_ONLY,
                "org.apache.parquet.hadoop.ParquetWriter",
                "org.apache.parquet.hadoop.ParquetFileReader",
                "org.apache.parquet.hadoop.metadata.CompressionCodecName",
                "org.apache.parquet.schema.MessageType",
                "org.apache.parquet.schema.LogicalTypeAnnotation$VariantLogicalTypeAnnotation",
                "org.apache.parquet.column.ParquetProperties",
                "org.apache.parquet.avro.AvroParquetWriter",
                "org.apache.parquet.io.OutputFile",
                "org.apache.parquet.format.FileMetaData",
                "shaded.parquet.it.unimi.dsi.fastutil.ints.IntList",
                "shaded.parquet.org.apache.thrift.TBase",
                "org.apache.orc.OrcFile",
                "org.apache.orc.TypeDescription",
                "org.apache.orc.Writer",
                "org.apache.orc.impl.WriterImpl",
                "org.apache.orc.storage.ql.exec.vector.VectorizedRowBatch",
                // hive-storage-api, which ORC links against
                "org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch",
                "org.apache.hadoop.hive.common.type.HiveDecimal");
    }

    @Test
    void hiveThriftAndDerbyAreThePluginsOnly() {
        assertOrigin(
                PLUGIN_ONLY,
                "org.apache.hadoop.hive.conf.HiveConf",
                "org.apache.hadoop.hive.metastore.HiveMetaStoreClient",
                "org.apache.hadoop.hive.metastore.IMetaStoreClient",
                "org.apache.hadoop.hive.metastore.ObjectStore",
                "org.apache.hadoop.hive.metastore.api.Table",
                "org.apache.hadoop.hive.metastore.api.ThriftHiveMetastore$Client",
                "org.apache.hadoop.hive.serde2.typeinfo.TypeInfo",
                "org.apache.hadoop.hive.ql.io.orc.OrcSerde",
                "org.apache.hadoop.hive.shims.ShimLoader",
                "org.apache.hive.common.util.HiveVersionInfo",
                "org.apache.hive.service.rpc.thrift.TCLIService",
                "org.apache.thrift.TBase",
                "org.apache.thrift.TException",
                "org.apache.thrift.protocol.TBinaryProtocol",
                "org.apache.thrift.transport.TSocket",
                "com.facebook.fb303.FacebookService",
                "org.apache.derby.jdbc.EmbeddedDriver",
                "org.apache.derby.iapi.services.context.ContextManager",
                "org.apache.derby.impl.jdbc.EmbedConnection",
                "org.datanucleus.api.jdo.JDOPersistenceManagerFactory",
                "org.datanucleus.store.rdbms.RDBMSStoreManager",
                "org.antlr.runtime.Parser",
                // the embedded metastore's connection pool (Hive 3.1's default)
                "com.zaxxer.hikari.HikariDataSource");
    }

    @Test
    void jacksonIsThePluginsOnlyUnlessFlinkRelocatedIt() {
        assertOrigin(
                PLUGIN_ONLY,
                "com.fasterxml.jackson.databind.ObjectMapper",
                "com.fasterxml.jackson.databind.JsonNode",
                "com.fasterxml.jackson.core.JsonFactory",
                "com.fasterxml.jackson.core.JsonParser",
                "com.fasterxml.jackson.annotation.JsonProperty",
                "com.fasterxml.jackson.dataformat.csv.CsvMapper",
                "com.fasterxml.jackson.datatype.jsr310.JavaTimeModule",
                "org.codehaus.jackson.map.ObjectMapper",
                "shaded.parquet.com.fasterxml.jackson.databind.ObjectMapper",
                "org.apache.iceberg.shaded.com.fasterxml.jackson.databind.ObjectMapper",
                "org.apache.hadoop.shaded.com.fasterxml.jackson.databind.ObjectMapper");
        assertOrigin(
                SHARED,
                "org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper",
                "org.apache.flink.shaded.jackson2.com.fasterxml.jackson.core.JsonParser");
    }

    @Test
    void guavaIsThePluginsOnlyUnlessFlinkRelocatedIt() {
        assertOrigin(
                PLUGIN_ONLY,
                "com.google.common.collect.ImmutableList",
                "com.google.common.base.Preconditions",
                "com.google.common.cache.CacheBuilder",
                "com.google.common.util.concurrent.ListenableFuture",
                "com.google.thirdparty.publicsuffix.PublicSuffixPatterns",
                "com.google.errorprone.annotations.CanIgnoreReturnValue",
                "org.apache.iceberg.relocated.com.google.common.base.Preconditions",
                "org.apache.hadoop.thirdparty.com.google.common.base.Preconditions");
        assertOrigin(
                SHARED,
                "org.apache.flink.shaded.guava31.com.google.common.collect.ImmutableList",
                "org.apache.flink.shaded.guava32.com.google.common.base.Preconditions");
    }

    @Test
    void aThirdPartysOwnPackagesAreThePluginsOnly() {
        assertOrigin(
                PLUGIN_ONLY,
                "com.example.sluice.ManifestEnumeratorFactory",
                "com.acme.storage.AcmeTargetFactory",
                "org.example.Foo",
                "DefaultPackageClass",
                "org.tukaani.xz.XZOutputStream",
                "org.xerial.snappy.Snappy",
                "com.github.luben.zstd.Zstd",
                "net.jpountz.lz4.LZ4Factory",
                "io.netty.buffer.ByteBuf",
                "org.eclipse.jetty.server.Server",
                "org.apache.http.client.HttpClient",
                "software.amazon.awssdk.services.s3.S3Client",
                "com.amazonaws.services.s3.AmazonS3",
                "org.roaringbitmap.RoaringBitmap",
                "it.unimi.dsi.fastutil.ints.IntList",
                "com.github.benmanes.caffeine.cache.Caffeine",
                "org.checkerframework.checker.nullness.qual.Nullable",
                "edu.umd.cs.findbugs.annotations.SuppressFBWarnings",
                "org.joda.time.DateTime",
                "kotlin.jvm.functions.Function1",
                "org.apache.kafka.clients.producer.KafkaProducer",
                "org.apache.zookeeper.ZooKeeper",
                "org.apache.commons.io.IOUtils",
                "javaxx.Foo",
                "javafx.application.Application",
                "sunx.Foo",
                "jdkx.Foo");
    }

    @Test
    void resourcesFollowThePackageTheyAreIn() {
        assertOrigin(
                JDK,
                "java/lang/Object.class",
                "javax/xml/parsers/DocumentBuilderFactory.class",
                "com/sun/org/apache/xerces/internal/impl/msg/XMLMessages.properties",
                "javax/swing/plaf/metal/icons/ocean/close.gif");
        assertOrigin(FRAMEWORK_ONLY, "io/sluice/runtime/plugin/PluginRegistry.class");
        assertOrigin(
                SHARED,
                "org/apache/flink/table/data/RowData.class",
                "io/sluice/spi/SluiceFactory.class",
                "org/slf4j/impl/StaticLoggerBinder.class",
                "org/apache/flink/");
        assertOrigin(
                PLUGIN_FIRST,
                "org/apache/flink/formats/avro/AvroSerializationSchema.class",
                "org/apache/flink/orc/OrcColumnarRowInputFormat.class");
        assertOrigin(
                PLUGIN_ONLY,
                "org/apache/iceberg/Table.class",
                "org/apache/iceberg/iceberg-build.properties",
                "javax/jdo/JDOHelper.class",
                "javax/annotation/Nullable.class",
                "org/apache/hadoop/hive/conf/HiveConf.class",
                // service files and the extension index: a plugin's own, so it finds its own providers only
                "META-INF/services/java.nio.file.spi.FileTypeDetector",
                "META-INF/services/org.apache.flink.table.factories.Factory",
                "META-INF/services/javax.xml.parsers.DocumentBuilderFactory",
                "META-INF/extensions.idx",
                "META-INF/MANIFEST.MF",
                "META-INF/versions/11/module-info.class",
                // configuration files at the root: the plugin's, never the cluster's
                "core-site.xml",
                "hive-site.xml",
                "log4j2.component.properties",
                "iceberg-build.properties");
    }

    @Test
    void configuredPrefixesFeedTheSameDecision() {
        ClassLoadingRule rule = ClassLoadingRule.withAdditional(
                "io.sluice.testshared.;com.example.shared.",
                "org.apache.flink.connector.sluicetest.;com.example.shared.impl.");
        assertOrigin(
                rule,
                SHARED,
                "io.sluice.testshared.SharedMarker",
                "io.sluice.testshared.TcclProbe",
                "com.example.shared.Api",
                "org.apache.flink.connector.file.sink.FileSink");
        assertOrigin(
                rule,
                PLUGIN_FIRST,
                "com.example.shared.impl.ApiImpl",
                "org.apache.flink.connector.sluicetest.OnlyInPlugin",
                "org.apache.flink.formats.avro.AvroSerializationSchema");
        assertOrigin(rule, PLUGIN_ONLY, "com.example.sharedx.Api", "org.apache.iceberg.Table", "javax.jdo.JDOHelper");
        // blanks and stray separators are no prefixes
        ClassLoadingRule blank = ClassLoadingRule.withAdditional(" ; ;", "");
        assertOrigin(blank, PLUGIN_ONLY, "org.apache.iceberg.Table", "", "com.example.Foo");
        assertOrigin(blank, SHARED, "org.apache.flink.core.fs.Path");
    }

    @Test
    void configurationCannotMoveTheJdkOrTheFramework() {
        // javax. shared wholesale, as it once was: the JDK's packages stay the JDK's
        ClassLoadingRule rule = ClassLoadingRule.withAdditional("java.;javax.;io.sluice.runtime.;sun.", null);
        assertOrigin(rule, JDK, "java.lang.String", "javax.xml.parsers.DocumentBuilderFactory", "sun.misc.Unsafe");
        assertOrigin(rule, FRAMEWORK_ONLY, "io.sluice.runtime.plugin.PluginRegistry");
        assertOrigin(rule, SHARED, "javax.jdo.JDOHelper", "javax.servlet.Servlet");
    }

    @Test
    void aPluginFirstPrefixOutsideTheSharedOnesIsRejected() {
        for (String outside :
                List.of("org.apache.iceberg.", "com.example.", "java.util.", "io.sluice.runtime.", "org.apache.")) {
            assertThatThrownBy(() -> ClassLoadingRule.withAdditional(null, outside))
                    .as(outside)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(PluginSettings.PLUGIN_FIRST_ADDITIONAL)
                    .hasMessageContaining("'" + outside + "'")
                    .hasMessageContaining("not under a shared prefix");
        }
        // under a shared prefix that is itself configured, it is fine
        assertThat(ClassLoadingRule.withAdditional("com.example.", "com.example.impl.")
                        .originOf("com.example.impl.X"))
                .isEqualTo(PLUGIN_FIRST);
    }

    @Test
    void pluginSettingsRejectAPluginFirstPrefixOutsideTheSharedOnesWhenParsed() {
        Map<String, String> options = new TreeMap<>();
        options.put(PluginSettings.PLUGINS_DIR, "/tmp/sluice-plugins");
        options.put(PluginSettings.PLUGIN_FIRST_ADDITIONAL, "org.apache.iceberg.");
        assertThatThrownBy(() -> PluginSettings.fromOptions(options))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("org.apache.iceberg.");
        options.put(PluginSettings.PLUGIN_FIRST_ADDITIONAL, "org.apache.flink.connector.sluicetest.");
        assertThat(PluginSettings.fromOptions(options)
                        .classLoadingRule()
                        .originOf("org.apache.flink.connector.sluicetest.OnlyInPlugin"))
                .isEqualTo(PLUGIN_FIRST);
    }

    /**
     * Every package the platform class loader serves (the JDK's boot and platform modules) is
     * JDK: a package missing from the list would be looked up in the plugin, where a library's
     * copy (xml-apis' {@code org.w3c.dom}, say) would make a second, clashing class.
     */
    @Test
    void everyPackageOfTheRunningJdksPlatformModulesIsJdk() {
        ClassLoader platform = ClassLoader.getPlatformClassLoader();
        List<String> missing = new ArrayList<>();
        int packages = 0;
        for (Module module : ModuleLayer.boot().modules()) {
            ClassLoader loader = module.getClassLoader();
            if (loader != null && loader != platform) {
                continue; // the JDK's tool modules (jdk.compiler ...) are not the platform loader's
            }
            for (String pkg : module.getPackages()) {
                packages++;
                if (RULE.originOf(pkg + ".SomeClass") != JDK) {
                    missing.add(module.getName() + ": " + pkg);
                }
            }
        }
        assertThat(packages).as("packages of the platform modules").isGreaterThan(400);
        assertThat(missing)
                .as("packages of JDK %s not classified JDK", Runtime.version())
                .isEmpty();
    }
}

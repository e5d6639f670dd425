package io.sluice.runtime.plugin;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;

/**
 * Where a plugin's class loader takes a class or a resource from. This is the only place that
 * knows; {@link IsolatingPluginClassLoader} asks {@link #originOf} for every class and resource it
 * has not loaded yet and has one load path per {@link Origin}.
 *
 * <p>In order of precedence:
 * <ol>
 *   <li>{@link Origin#JDK}: {@code java.}, {@code jdk.}, {@code sun.}, the JDK's internal copy of
 *       Xerces and Xalan ({@code com.sun.org.apache.}), and the packages of the JDK's platform
 *       modules in namespaces the JDK shares with libraries, listed one by one: {@code javax.},
 *       {@code com.sun.}, {@code org.w3c.dom.}, {@code org.xml.sax.} ... Listed one by one because
 *       the same namespaces hold libraries that a plugin bundles and the JDK does not have:
 *       {@code javax.jdo} and {@code javax.servlet} (Hive), {@code javax.annotation} (JSR-250,
 *       JSR-305's {@code Nullable}), {@code javax.xml.bind} (JAXB, gone from the JDK since 11),
 *       {@code javax.transaction} (JTA; only {@code javax.transaction.xa} is the JDK's), {@code
 *       com.sun.jersey} (Hadoop) ...; those are a plugin's own like any other library.
 *   <li>{@link Origin#FRAMEWORK_ONLY}: the framework itself ({@code io.sluice.runtime.}). A plugin
 *       that bundles (a copy of) the framework by mistake still runs against the one framework of
 *       the JVM, and cannot add classes to its packages.
 *   <li>{@link Origin#PLUGIN_FIRST}: exceptions carved out of the shared prefixes: Flink's format
 *       and connector modules ({@code org.apache.flink.formats.}, {@code org.apache.flink.orc.},
 *       {@code org.apache.flink.connectors.hive.} ...). A plugin bundles them linked against its
 *       own Avro, Parquet, ORC, Hadoop or Hive; the copy in a cluster's {@code lib/} would link
 *       against the cluster's and fail with a {@link LinkageError} when handed the plugin's
 *       objects. Extra prefixes: {@value PluginSettings#PLUGIN_FIRST_ADDITIONAL}; each must lie
 *       under a shared prefix, since outside them there is nothing to fall back to.
 *   <li>{@link Origin#SHARED}: what plugins and the framework must see as the same classes: Scala,
 *       Flink ({@code org.apache.flink.}, including the {@code flink-shaded} libraries), the SPI
 *       ({@code io.sluice.spi.}), PF4J and the logging APIs (SLF4J, Log4j 2 and 1, Commons
 *       Logging). Extra prefixes: {@value PluginSettings#PARENT_FIRST_ADDITIONAL}.
 *   <li>{@link Origin#PLUGIN_ONLY}: everything else: Iceberg, Avro, Hadoop (and Hive's {@code
 *       org.apache.hadoop.hive.}), Parquet, ORC, Hive, Thrift, Jackson, Guava, Derby, DataNucleus,
 *       a third party's own packages. These are the libraries isolation exists for; taking a class
 *       missing from a plugin's copy from the cluster's would pair two versions of one library,
 *       so a missing class is a {@link ClassNotFoundException}.
 * </ol>
 *
 * <p>A name is a binary class name ({@code a.b.C$D}) or a resource path ({@code a/b/c.txt}, told
 * apart by its {@code /}). Prefixes are matched against the name with {@code /} read as {@code .};
 * the JDK's packages against the package of a class or the directory of a resource.
 */
public final class ClassLoadingRule {

    /** Where a class or resource comes from, from the JDK's end to the plugin's. */
    public enum Origin {
        /** The JDK's platform (and bootstrap) class loader only; a plugin's copy is never used. */
        JDK,
        /** The framework's class loader only; a plugin's copy is never used. */
        FRAMEWORK_ONLY,
        /** The framework's class loader first; the plugin's jars when the framework does not have it. */
        SHARED,
        /** The plugin's jars first; the framework's class loader when the plugin does not have it. */
        PLUGIN_FIRST,
        /** The plugin's jars only; the framework's or the cluster's copy is never used. */
        PLUGIN_ONLY
    }

    /** Namespaces only the JDK defines classes in. */
    private static final List<String> JDK_NAMESPACES = List.of("java.", "jdk.", "sun.", "com.sun.org.apache.");

    /**
     * The packages of JDK 17's platform and bootstrap modules (those the platform class loader
     * serves) in namespaces that libraries use too, by module; a test checks the list against the
     * running JDK. JDK 11, which Flink 1.20 also runs on, lacks a few of them and adds only
     * internals that nothing asks a plugin's loader for (Graal's {@code org.graalvm.compiler.},
     * Pack200's {@code com.sun.java.util.jar.pack}).
     */
    private static final Set<String> JDK_PACKAGES = Set.of(
            // java.base
            "com.sun.crypto.provider",
            "com.sun.security.ntlm",
            "javax.crypto",
            "javax.crypto.interfaces",
            "javax.crypto.spec",
            "javax.net",
            "javax.net.ssl",
            "javax.security.auth",
            "javax.security.auth.callback",
            "javax.security.auth.login",
            "javax.security.auth.spi",
            "javax.security.auth.x500",
            "javax.security.cert",
            // java.compiler
            "javax.annotation.processing",
            "javax.lang.model",
            "javax.lang.model.element",
            "javax.lang.model.type",
            "javax.lang.model.util",
            "javax.tools",
            // java.desktop
            "com.sun.accessibility.internal.resources",
            "com.sun.beans",
            "com.sun.beans.decoder",
            "com.sun.beans.editors",
            "com.sun.beans.finder",
            "com.sun.beans.infos",
            "com.sun.beans.introspect",
            "com.sun.beans.util",
            "com.sun.imageio.plugins.bmp",
            "com.sun.imageio.plugins.common",
            "com.sun.imageio.plugins.gif",
            "com.sun.imageio.plugins.jpeg",
            "com.sun.imageio.plugins.png",
            "com.sun.imageio.plugins.tiff",
            "com.sun.imageio.plugins.wbmp",
            "com.sun.imageio.spi",
            "com.sun.imageio.stream",
            "com.sun.java.swing",
            "com.sun.java.swing.plaf.gtk",
            "com.sun.java.swing.plaf.gtk.icons",
            "com.sun.java.swing.plaf.gtk.resources",
            "com.sun.java.swing.plaf.motif",
            "com.sun.java.swing.plaf.motif.icons",
            "com.sun.java.swing.plaf.motif.resources",
            "com.sun.media.sound",
            "com.sun.swing.internal.plaf.basic.resources",
            "com.sun.swing.internal.plaf.metal.resources",
            "com.sun.swing.internal.plaf.synth.resources",
            "javax.accessibility",
            "javax.imageio",
            "javax.imageio.event",
            "javax.imageio.metadata",
            "javax.imageio.plugins.bmp",
            "javax.imageio.plugins.jpeg",
            "javax.imageio.plugins.tiff",
            "javax.imageio.spi",
            "javax.imageio.stream",
            "javax.print",
            "javax.print.attribute",
            "javax.print.attribute.standard",
            "javax.print.event",
            "javax.sound.midi",
            "javax.sound.midi.spi",
            "javax.sound.sampled",
            "javax.sound.sampled.spi",
            "javax.swing",
            "javax.swing.beaninfo.images",
            "javax.swing.border",
            "javax.swing.colorchooser",
            "javax.swing.event",
            "javax.swing.filechooser",
            "javax.swing.plaf",
            "javax.swing.plaf.basic",
            "javax.swing.plaf.basic.icons",
            "javax.swing.plaf.metal",
            "javax.swing.plaf.metal.icons",
            "javax.swing.plaf.metal.icons.ocean",
            "javax.swing.plaf.metal.sounds",
            "javax.swing.plaf.multi",
            "javax.swing.plaf.nimbus",
            "javax.swing.plaf.synth",
            "javax.swing.table",
            "javax.swing.text",
            "javax.swing.text.html",
            "javax.swing.text.html.parser",
            "javax.swing.text.rtf",
            "javax.swing.text.rtf.charsets",
            "javax.swing.tree",
            "javax.swing.undo",
            // java.management, java.management.rmi
            "com.sun.jmx.defaults",
            "com.sun.jmx.interceptor",
            "com.sun.jmx.mbeanserver",
            "com.sun.jmx.remote.internal",
            "com.sun.jmx.remote.internal.rmi",
            "com.sun.jmx.remote.protocol.rmi",
            "com.sun.jmx.remote.security",
            "com.sun.jmx.remote.util",
            "javax.management",
            "javax.management.loading",
            "javax.management.modelmbean",
            "javax.management.monitor",
            "javax.management.openmbean",
            "javax.management.relation",
            "javax.management.remote",
            "javax.management.remote.rmi",
            "javax.management.timer",
            // java.naming, jdk.naming.dns, jdk.naming.rmi
            "com.sun.jndi.dns",
            "com.sun.jndi.ldap",
            "com.sun.jndi.ldap.ext",
            "com.sun.jndi.ldap.pool",
            "com.sun.jndi.ldap.sasl",
            "com.sun.jndi.rmi.registry",
            "com.sun.jndi.toolkit.ctx",
            "com.sun.jndi.toolkit.dir",
            "com.sun.jndi.toolkit.url",
            "com.sun.jndi.url.dns",
            "com.sun.jndi.url.ldap",
            "com.sun.jndi.url.ldaps",
            "com.sun.jndi.url.rmi",
            "com.sun.naming.internal",
            "javax.naming",
            "javax.naming.directory",
            "javax.naming.event",
            "javax.naming.ldap",
            "javax.naming.ldap.spi",
            "javax.naming.spi",
            // java.rmi
            "javax.rmi.ssl",
            // java.scripting
            "com.sun.tools.script.shell",
            "javax.script",
            // java.security.jgss, java.security.sasl, jdk.security.auth, jdk.security.jgss
            "com.sun.security.auth",
            "com.sun.security.auth.callback",
            "com.sun.security.auth.login",
            "com.sun.security.auth.module",
            "com.sun.security.jgss",
            "com.sun.security.sasl",
            "com.sun.security.sasl.digest",
            "com.sun.security.sasl.gsskerb",
            "com.sun.security.sasl.ntlm",
            "com.sun.security.sasl.util",
            "javax.security.auth.kerberos",
            "javax.security.sasl",
            "org.ietf.jgss",
            // java.smartcardio
            "javax.smartcardio",
            // java.sql, java.sql.rowset
            "com.sun.rowset",
            "com.sun.rowset.internal",
            "com.sun.rowset.providers",
            "javax.sql",
            "javax.sql.rowset",
            "javax.sql.rowset.serial",
            "javax.sql.rowset.spi",
            // java.transaction.xa
            "javax.transaction.xa",
            // java.xml, jdk.xml.dom
            "com.sun.java_cup.internal.runtime",
            "com.sun.xml.internal.stream",
            "com.sun.xml.internal.stream.dtd",
            "com.sun.xml.internal.stream.dtd.nonvalidating",
            "com.sun.xml.internal.stream.events",
            "com.sun.xml.internal.stream.util",
            "com.sun.xml.internal.stream.writers",
            "javax.xml",
            "javax.xml.catalog",
            "javax.xml.datatype",
            "javax.xml.namespace",
            "javax.xml.parsers",
            "javax.xml.stream",
            "javax.xml.stream.events",
            "javax.xml.stream.util",
            "javax.xml.transform",
            "javax.xml.transform.dom",
            "javax.xml.transform.sax",
            "javax.xml.transform.stax",
            "javax.xml.transform.stream",
            "javax.xml.validation",
            "javax.xml.xpath",
            "org.w3c.dom",
            "org.w3c.dom.bootstrap",
            "org.w3c.dom.css",
            "org.w3c.dom.events",
            "org.w3c.dom.html",
            "org.w3c.dom.ls",
            "org.w3c.dom.ranges",
            "org.w3c.dom.stylesheets",
            "org.w3c.dom.traversal",
            "org.w3c.dom.views",
            "org.w3c.dom.xpath",
            "org.xml.sax",
            "org.xml.sax.ext",
            "org.xml.sax.helpers",
            // java.xml.crypto
            "com.sun.org.slf4j.internal",
            "javax.xml.crypto",
            "javax.xml.crypto.dom",
            "javax.xml.crypto.dsig",
            "javax.xml.crypto.dsig.dom",
            "javax.xml.crypto.dsig.keyinfo",
            "javax.xml.crypto.dsig.spec",
            "org.jcp.xml.dsig.internal",
            "org.jcp.xml.dsig.internal.dom",
            // jdk.accessibility, jdk.httpserver, jdk.jsobject, jdk.management, jdk.sctp, jdk.unsupported
            "com.sun.java.accessibility.util",
            "com.sun.java.accessibility.util.internal",
            "com.sun.net.httpserver",
            "com.sun.net.httpserver.spi",
            "netscape.javascript",
            "com.sun.management",
            "com.sun.management.internal",
            "com.sun.nio.sctp",
            "com.sun.nio.file");

    /** The framework's own packages. */
    private static final String FRAMEWORK = "io.sluice.runtime.";

    /** Prefixes shared with the framework. */
    private static final List<String> SHARED = List.of(
            "scala.",
            "org.apache.flink.",
            "io.sluice.spi.",
            "org.pf4j.",
            "org.slf4j.",
            "org.apache.logging.log4j.",
            "org.apache.log4j.",
            "org.apache.commons.logging.");

    /** Flink modules a plugin bundles with the libraries they link against: under {@code org.apache.flink.}, plugin first. */
    private static final List<String> PLUGIN_FIRST = List.of(
            "org.apache.flink.formats.",
            "org.apache.flink.orc.",
            "org.apache.flink.connectors.hive.",
            "org.apache.flink.table.catalog.hive.",
            "org.apache.flink.table.functions.hive.",
            "org.apache.flink.table.module.hive.",
            "org.apache.flink.table.planner.delegation.hive.",
            // the Hive connector's own relocated Parquet and its HiveServer2 endpoint
            "org.apache.flink.hive.",
            "org.apache.flink.table.endpoint.hive.",
            // flink-hadoop-compatibility, which the Hive connector needs: linked against Hadoop's
            // mapred API, so a cluster's copy next to the plugin's Hadoop would not link
            "org.apache.flink.api.java.hadoop.",
            "org.apache.flink.hadoopcompatibility.",
            // flink-sql-parser, linked against the Calcite a plugin bundles (the hive plugin checks
            // view queries with it); a flat planner in lib/ has its own copy linked against its own
            "org.apache.flink.sql.parser.");

    private static final ClassLoadingRule DEFAULTS = new ClassLoadingRule(SHARED, PLUGIN_FIRST);

    private final List<String> shared;
    private final List<String> pluginFirst;

    private ClassLoadingRule(List<String> shared, List<String> pluginFirst) {
        this.shared = List.copyOf(shared);
        this.pluginFirst = List.copyOf(pluginFirst);
    }

    /** The rule without configured prefixes. */
    public static ClassLoadingRule defaults() {
        return DEFAULTS;
    }

    /**
     * The rule with extra shared and extra plugin-first prefixes ({@code ;}-separated, blank or
     * null for none).
     *
     * @throws IllegalArgumentException if a plugin-first prefix is not under a shared prefix
     */
    public static ClassLoadingRule withAdditional(String sharedPrefixes, String pluginFirstPrefixes) {
        List<String> shared = concat(SHARED, sharedPrefixes);
        List<String> pluginFirst = concat(PLUGIN_FIRST, pluginFirstPrefixes);
        for (String prefix : pluginFirst) {
            if (firstPrefixOf(prefix, shared) == null) {
                throw new IllegalArgumentException("'" + PluginSettings.PLUGIN_FIRST_ADDITIONAL + "' names '" + prefix
                        + "', which is not under a shared prefix " + shared + " (or one added with '"
                        + PluginSettings.PARENT_FIRST_ADDITIONAL + "'): a class outside them comes from the plugin"
                        + " only, so there is no framework copy to fall back to");
            }
        }
        return new ClassLoadingRule(shared, pluginFirst);
    }

    /** Where a plugin's class loader takes the class or resource {@code name} from. */
    public Origin originOf(String name) {
        int slash = name.lastIndexOf('/');
        String dotted = slash < 0 ? name : name.replace('/', '.');
        int end = slash < 0 ? name.lastIndexOf('.') : slash;
        String pkg = end < 0 ? "" : dotted.substring(0, end);
        if (JDK_PACKAGES.contains(pkg) || firstPrefixOf(dotted, JDK_NAMESPACES) != null) {
            return Origin.JDK;
        }
        if (dotted.startsWith(FRAMEWORK)) {
            return Origin.FRAMEWORK_ONLY;
        }
        if (firstPrefixOf(dotted, pluginFirst) != null) {
            return Origin.PLUGIN_FIRST;
        }
        if (firstPrefixOf(dotted, shared) != null) {
            return Origin.SHARED;
        }
        return Origin.PLUGIN_ONLY;
    }

    private static String firstPrefixOf(String name, List<String> prefixes) {
        for (String prefix : prefixes) {
            if (name.startsWith(prefix)) {
                return prefix;
            }
        }
        return null;
    }

    private static List<String> concat(List<String> defaults, String additional) {
        List<String> all = new ArrayList<>(defaults);
        if (additional != null) {
            for (String prefix : additional.split(";")) {
                if (!prefix.trim().isEmpty()) {
                    all.add(prefix.trim());
                }
            }
        }
        return Collections.unmodifiableList(all);
    }

    /** The shared and plugin-first prefixes, for error messages. */
    @Override
    public String toString() {
        return "ClassLoadingRule{shared=" + shared + ", pluginFirst=" + pluginFirst + "}";
    }
}

package io.sluice.testservers.readme;

import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.ToolProvider;

import java.io.File;
import java.io.IOException;
import java.io.StringWriter;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The README's Java examples for tests that run them as written: a block marked {@code <!--
 * java-example: name -->} is taken verbatim, wrapped in a class whose static {@code run(Map)} hands
 * it the variables it uses without declaring them, and compiled with the JDK's compiler against the
 * test's class path into a jar (the job's jar on a MiniCluster). Shared by every module whose tests
 * run an example, so that they all read the README the same way.
 *
 * <p>What the wrapper changes: its own imports go on top, a declaration {@code T x = ...;} takes the
 * test's value for {@code x}, and each literal of {@code replacements} (what the README names of an
 * installation, such as a host) is replaced; every other line is as the README has it.
 */
public final class ReadmeJavaExamples {

    /** The system property naming the reactor's root directory (where README.md is). */
    public static final String REACTOR = "sluice.test.reactor";

    /** The framework's system property of the plugins directory (its {@code PluginSettings}, not a dependency here). */
    private static final String PLUGINS_DIR = "sluice.plugins.dir";

    private static final Pattern PLACEHOLDER =
            Pattern.compile("^(\\s*)([\\w.<>, ?\\[\\]]+?)\\s+(\\w+)\\s*=\\s*\\.\\.\\.;(.*)$");

    private ReadmeJavaExamples() {}

    /** The text of the documentation's block {@code name}, between its fences. */
    public static String block(String name) throws IOException {
        String root = System.getProperty(REACTOR);
        if (root == null) {
            throw new IllegalStateException("set the system property " + REACTOR + " to the reactor's root");
        }
        String marker = "<!-- java-example: " + name + " -->";
        for (Path page : pages(Paths.get(root))) {
            List<String> lines = Files.readAllLines(page);
            int at = lines.indexOf(marker);
            if (at < 0) {
                continue;
            }
            if (!lines.get(at + 1).equals("```java")) {
                throw new AssertionError(page + ": the Java example " + name + " is not a java block");
            }
            int end = at + 2;
            while (!lines.get(end).equals("```")) {
                end++;
            }
            return String.join("\n", lines.subList(at + 2, end));
        }
        throw new AssertionError("no page of the documentation marks a Java example " + name);
    }

    /** The documentation's pages: the README, the pages under {@code docs/} and the benchmarks' page. */
    public static List<Path> pages(Path root) throws IOException {
        List<Path> pages = new ArrayList<>();
        pages.add(root.resolve("README.md"));
        try (Stream<Path> docs = Files.list(root.resolve("docs"))) {
            docs.filter(p -> p.getFileName().toString().endsWith(".md"))
                    .sorted()
                    .forEach(pages::add);
        }
        pages.add(root.resolve("benchmarks").resolve("README.md"));
        return pages;
    }

    /**
     * The block inside class {@code pkg.className}: {@code imports} and the block's own imports on
     * top, then {@code public static void run(Map<String, Object> in)} declaring each variable of
     * {@code given} (name to type, in order) that the block uses but does not assign, from {@code in}.
     */
    public static String source(
            String block,
            String pkg,
            String className,
            List<String> imports,
            Map<String, String> given,
            Map<String, String> replacements) {
        List<String> own = new ArrayList<>();
        List<String> body = new ArrayList<>();
        for (String line : block.split("\n")) {
            Matcher placeholder = PLACEHOLDER.matcher(line);
            if (line.startsWith("import ")) {
                own.add(line);
            } else if (placeholder.matches()) {
                body.add(placeholder.group(1) + placeholder.group(2) + " " + placeholder.group(3) + " = ("
                        + placeholder.group(2) + ") in.get(\"" + placeholder.group(3) + "\");"
                        + placeholder.group(4));
            } else {
                for (Map.Entry<String, String> r : replacements.entrySet()) {
                    line = line.replace(r.getKey(), r.getValue());
                }
                body.add(line);
            }
        }
        String declared = String.join("\n", body);
        StringBuilder handed = new StringBuilder();
        for (Map.Entry<String, String> variable : new LinkedHashMap<>(given).entrySet()) {
            String name = variable.getKey();
            String type = variable.getValue();
            if (Pattern.compile("\\b" + name + "\\b").matcher(declared).find()
                    && !Pattern.compile("\\b" + name + "\\s*=")
                            .matcher(declared)
                            .find()) {
                handed.append("        ")
                        .append(type)
                        .append(' ')
                        .append(name)
                        .append(" = (")
                        .append(type)
                        .append(") in.get(\"")
                        .append(name)
                        .append("\");\n");
            }
        }
        return "package " + pkg + ";\n\n"
                + String.join("\n", imports) + "\n" + String.join("\n", own) + "\n\n"
                + "public class " + className + " {\n"
                + "    @SuppressWarnings({\"unchecked\", \"rawtypes\"})\n"
                + "    public static void run(Map<String, Object> in) throws Exception {\n"
                + handed
                + declared + "\n"
                + "    }\n"
                + "}\n";
    }

    /**
     * Compiles {@code source} (class {@code pkg.className}) against this JVM's class path under
     * {@code work} and returns a jar of its classes; a compile error fails with the source and the
     * compiler's messages.
     */
    public static Path compile(Path work, String pkg, String className, String source) throws IOException {
        Path out = work.resolve("classes-" + className);
        javac(work, pkg, Map.of(className, source), List.of(), out);
        Path jar = work.resolve(className + ".jar");
        try (JarOutputStream jos = new JarOutputStream(Files.newOutputStream(jar));
                Stream<Path> classes = Files.walk(out)) {
            for (Path c : (Iterable<Path>) classes.filter(Files::isRegularFile)::iterator) {
                jos.putNextEntry(new JarEntry(out.relativize(c).toString().replace(File.separatorChar, '/')));
                Files.copy(c, jos);
                jos.closeEntry();
            }
        }
        return jar;
    }

    /** What runs after an example's statements, in their context: for a sink example, its job. */
    @FunctionalInterface
    public interface Then {
        void run() throws Exception;
    }

    /**
     * Runs the compiled example {@code qualifiedName} of {@code jar} ({@link #source}'s {@code
     * run(in)}), then {@code then}, as a user's job would run: the jar's classes in a loader below
     * {@code parent}, which is the thread's context class loader meanwhile. Unless {@code
     * pluginsDir} is null, the system property {@code sluice.plugins.dir} names it meanwhile (the
     * examples name no plugins directory, as a job on a cluster need not). Both are restored after.
     */
    public static void run(
            Path jar, String qualifiedName, ClassLoader parent, Path pluginsDir, Map<String, Object> in, Then then)
            throws Exception {
        String previous = pluginsDir == null ? null : System.setProperty(PLUGINS_DIR, pluginsDir.toString());
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        try (URLClassLoader loader = new URLClassLoader(new URL[] {jar.toUri().toURL()}, parent)) {
            Thread.currentThread().setContextClassLoader(loader);
            loader.loadClass(qualifiedName).getMethod("run", Map.class).invoke(null, in);
            then.run();
        } finally {
            Thread.currentThread().setContextClassLoader(context);
            if (pluginsDir != null) {
                if (previous == null) {
                    System.clearProperty(PLUGINS_DIR);
                } else {
                    System.setProperty(PLUGINS_DIR, previous);
                }
            }
        }
    }

    /**
     * A block that declares classes rather than running statements (what a plugin's author writes,
     * such as a conformance test), as a compilation unit of {@code pkg}: {@code imports} and the
     * block's own on top, then the block as it is.
     */
    public static String unit(String block, String pkg, List<String> imports) {
        List<String> own = new ArrayList<>();
        List<String> body = new ArrayList<>();
        for (String line : block.split("\n")) {
            (line.startsWith("import ") ? own : body).add(line);
        }
        return "package " + pkg + ";\n\n"
                + String.join("\n", imports) + "\n" + String.join("\n", own) + "\n\n"
                + String.join("\n", body) + "\n";
    }

    /**
     * Source of class {@code pkg.className} implementing {@code type}: every abstract method throws.
     * It stands for a class the README leaves to its reader ({@code MyTargetFactory}), so that a
     * block naming it compiles; it is never run.
     */
    public static String stub(String pkg, String className, Class<?> type) {
        StringBuilder methods = new StringBuilder();
        for (Method m : type.getMethods()) {
            if (!Modifier.isAbstract(m.getModifiers())) {
                continue;
            }
            StringBuilder params = new StringBuilder();
            Type[] types = m.getGenericParameterTypes();
            for (int i = 0; i < types.length; i++) {
                params.append(i == 0 ? "" : ", ")
                        .append(typeName(types[i]))
                        .append(" p")
                        .append(i);
            }
            methods.append("    @Override public ")
                    .append(typeName(m.getGenericReturnType()))
                    .append(' ')
                    .append(m.getName())
                    .append('(')
                    .append(params)
                    .append(") {\n        throw new UnsupportedOperationException(\"a stand-in\");\n    }\n");
        }
        return "package " + pkg + ";\n\n" + "public class " + className
                + (type.isInterface() ? " implements " : " extends ") + typeName(type) + " {\n" + methods + "}\n";
    }

    private static String typeName(Type type) {
        return type.getTypeName().replace('$', '.');
    }

    /**
     * Compiles {@code sources} (class name to source, all of {@code pkg}) together under {@code
     * work}, against this JVM's class path and {@code classPath}; a compile error fails with the
     * sources and the compiler's messages. The classes are written to {@code out}.
     */
    public static void javac(Path work, String pkg, Map<String, String> sources, List<Path> classPath, Path out)
            throws IOException {
        List<File> files = new ArrayList<>();
        for (Map.Entry<String, String> source : sources.entrySet()) {
            Path src = work.resolve("src/" + pkg.replace('.', '/') + "/" + source.getKey() + ".java");
            Files.createDirectories(src.getParent());
            Files.writeString(src, source.getValue());
            files.add(src.toFile());
        }
        Files.createDirectories(out);
        List<String> path = new ArrayList<>();
        path.add(System.getProperty("java.class.path"));
        classPath.forEach(p -> path.add(p.toString()));
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        try (var fileManager = javac.getStandardFileManager(diagnostics, null, StandardCharsets.UTF_8)) {
            StringWriter log = new StringWriter();
            Boolean ok = javac.getTask(
                            log,
                            fileManager,
                            diagnostics,
                            List.of(
                                    "-classpath",
                                    String.join(File.pathSeparator, path),
                                    "-d",
                                    out.toString(),
                                    "-proc:none",
                                    "--release",
                                    "17"),
                            null,
                            fileManager.getJavaFileObjectsFromFiles(files))
                    .call();
            if (!Boolean.TRUE.equals(ok)) {
                throw new AssertionError("the README's example does not compile:\n"
                        + String.join("\n", sources.values()) + "\n" + diagnostics.getDiagnostics() + "\n" + log);
            }
        }
    }
}

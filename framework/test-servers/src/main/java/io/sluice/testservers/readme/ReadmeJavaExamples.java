package io.sluice.testservers.readme;

import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.ToolProvider;

import java.io.File;
import java.io.IOException;
import java.io.StringWriter;
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

    private static final Pattern PLACEHOLDER =
            Pattern.compile("^(\\s*)([\\w.<>, ?\\[\\]]+?)\\s+(\\w+)\\s*=\\s*\\.\\.\\.;(.*)$");

    private ReadmeJavaExamples() {}

    /** The text of the README's block {@code name}, between its fences. */
    public static String block(String name) throws IOException {
        String root = System.getProperty(REACTOR);
        if (root == null) {
            throw new IllegalStateException("set the system property " + REACTOR + " to the reactor's root");
        }
        List<String> lines = Files.readAllLines(Paths.get(root).resolve("README.md"));
        int marker = lines.indexOf("<!-- java-example: " + name + " -->");
        if (marker < 0 || !lines.get(marker + 1).equals("```java")) {
            throw new AssertionError("the README marks no Java example " + name);
        }
        int end = marker + 2;
        while (!lines.get(end).equals("```")) {
            end++;
        }
        return String.join("\n", lines.subList(marker + 2, end));
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
        Path src = work.resolve("src/" + pkg.replace('.', '/') + "/" + className + ".java");
        Files.createDirectories(src.getParent());
        Files.writeString(src, source);
        Path out = work.resolve("classes-" + className);
        Files.createDirectories(out);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        try (var files = javac.getStandardFileManager(diagnostics, null, StandardCharsets.UTF_8)) {
            StringWriter log = new StringWriter();
            Boolean ok = javac.getTask(
                            log,
                            files,
                            diagnostics,
                            List.of(
                                    "-classpath",
                                    System.getProperty("java.class.path"),
                                    "-d",
                                    out.toString(),
                                    "-proc:none",
                                    "--release",
                                    "17"),
                            null,
                            files.getJavaFileObjects(src.toFile()))
                    .call();
            if (!Boolean.TRUE.equals(ok)) {
                throw new AssertionError("the README's example does not compile:\n" + source + "\n"
                        + diagnostics.getDiagnostics() + "\n" + log);
            }
        }
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
}

package io.sluice.plugin.hive;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.FieldVisitor;
import org.objectweb.asm.Handle;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * The byte-code links from the plugin's classes through the Flink jars its zip bundles (upstream's
 * Hive connector and what it needs) into the Flink of the running line: the check a JVM makes when
 * it first runs a method, made for every method of every class the plugin can reach, without
 * running any. A Flink line that removed or changed a class, method or field the bundled connector
 * calls shows here as a {@link Missing} naming the connector method that holds the reference.
 *
 * <p>Bundled classes are looked up before the line's, as the plugin's class loader does (its
 * plugin-first prefixes cover the bundled packages). Reachability is per class: a bundled class
 * named anywhere in a reached class's code, supertypes or called signatures is reached.
 */
final class ConnectorLinkage {

    /** A reference of {@code holder} (class and method, internal names) the line cannot resolve. */
    record Missing(String holderClass, String holderMethod, String reference) {

        String holder() {
            return holderClass.replace('/', '.') + "#" + holderMethod;
        }

        @Override
        public String toString() {
            return holder() + " -> " + reference;
        }
    }

    /** A call from one of the plugin's own classes into a bundled method. */
    record PluginCall(String caller, String declaringClass, String method, boolean virtual) {

        String target() {
            return declaringClass.replace('/', '.') + "#" + method;
        }
    }

    /** What the walk found. */
    record Result(Set<String> reachedBundled, List<Missing> missing, List<PluginCall> pluginCalls) {}

    private static final String FLINK = "org/apache/flink/";

    /** A call in a method's code: the class named, the method's name and descriptor. */
    private record Invocation(String owner, String method, boolean virtual) {}

    /** The calls of each bundled method reached, by {@code internal/Class#name(descriptor)}. */
    private final Map<String, List<Invocation>> invocations = new HashMap<>();

    /** Per method name and descriptor, the reached bundled classes that declare it. */
    private final Map<String, List<String>> declarers = new HashMap<>();

    private final Map<String, JarFile> bundled = new HashMap<>();
    private final Function<String, InputStream> line;
    private final Map<String, Shape> shapes = new HashMap<>();

    /**
     * @param bundledJars the Flink jars the plugin's zip carries
     * @param line the running line's class files by resource name ({@code a/b/C.class}), null when absent
     */
    ConnectorLinkage(List<Path> bundledJars, Function<String, InputStream> line) throws IOException {
        for (Path jar : bundledJars) {
            JarFile file = new JarFile(jar.toFile());
            file.stream()
                    .map(JarEntry::getName)
                    .filter(n -> n.endsWith(".class") && !n.startsWith("META-INF/"))
                    .forEach(n -> bundled.putIfAbsent(n.substring(0, n.length() - ".class".length()), file));
        }
        this.line = line;
    }

    /** Walks from every class file under {@code pluginClasses} (the plugin's compiled classes). */
    Result walk(Path pluginClasses) throws IOException {
        Set<String> plugin = new TreeSet<>();
        try (Stream<Path> files = Files.walk(pluginClasses)) {
            files.filter(f -> f.toString().endsWith(".class")).forEach(f -> {
                String name = pluginClasses.relativize(f).toString().replace('\\', '/');
                plugin.add(name.substring(0, name.length() - ".class".length()));
            });
        }
        Set<String> reached = new LinkedHashSet<>();
        Set<Missing> missing = new LinkedHashSet<>();
        List<PluginCall> calls = new ArrayList<>();
        Deque<String> queue = new ArrayDeque<>();
        for (String name : plugin) {
            byte[] bytes = Files.readAllBytes(pluginClasses.resolve(name + ".class"));
            visit(name, bytes, true, queue, missing, calls);
        }
        while (!queue.isEmpty()) {
            String name = queue.poll();
            if (reached.add(name)) {
                visit(name, read(bundled.get(name), name), false, queue, missing, calls);
            }
        }
        List<Missing> sorted = new ArrayList<>(missing);
        sorted.sort((a, b) -> a.toString().compareTo(b.toString()));
        return new Result(reached, sorted, calls);
    }

    private void visit(
            String className,
            byte[] bytes,
            boolean fromPlugin,
            Deque<String> queue,
            Set<Missing> missing,
            List<PluginCall> calls) {
        References refs = new References(className, fromPlugin, queue, missing, calls);
        new ClassReader(bytes).accept(refs, ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
    }

    /** Collects a class's references and checks each against the bundled jars, then the line. */
    private final class References extends ClassVisitor {

        private final String className;
        private final boolean fromPlugin;
        private final Deque<String> queue;
        private final Set<Missing> missing;
        private final List<PluginCall> calls;
        private String method = "<class>";

        References(
                String className,
                boolean fromPlugin,
                Deque<String> queue,
                Set<Missing> missing,
                List<PluginCall> calls) {
            super(Opcodes.ASM9);
            this.className = className;
            this.fromPlugin = fromPlugin;
            this.queue = queue;
            this.missing = missing;
            this.calls = calls;
        }

        @Override
        public void visit(
                int version, int access, String name, String signature, String superName, String[] interfaces) {
            if (superName != null) {
                type(superName);
            }
            for (String i : interfaces) {
                type(i);
            }
        }

        @Override
        public FieldVisitor visitField(int access, String name, String descriptor, String signature, Object value) {
            descriptor(Type.getType(descriptor));
            return null;
        }

        @Override
        public MethodVisitor visitMethod(
                int access, String name, String descriptor, String signature, String[] exceptions) {
            String holder = name + descriptor;
            method = holder; // ClassReader visits one method's code before the next method
            return new MethodVisitor(Opcodes.ASM9) {

                @Override
                public void visitTypeInsn(int opcode, String type) {
                    descriptor(Type.getObjectType(type));
                }

                @Override
                public void visitFieldInsn(int opcode, String owner, String name, String descriptor) {
                    descriptor(Type.getType(descriptor));
                    if (type(owner) && owner.startsWith(FLINK) && !hasField(owner, name, descriptor)) {
                        missing.add(new Missing(className, holder, "field " + owner + "." + name + ":" + descriptor));
                    }
                }

                @Override
                public void visitMethodInsn(
                        int opcode, String owner, String name, String descriptor, boolean isInterface) {
                    boolean virtual = opcode == Opcodes.INVOKEVIRTUAL || opcode == Opcodes.INVOKEINTERFACE;
                    member(owner, name, descriptor, virtual);
                    invoked(owner, name, descriptor, virtual);
                }

                @Override
                public void visitInvokeDynamicInsn(
                        String name, String descriptor, Handle bootstrap, Object... arguments) {
                    handle(bootstrap);
                    for (Object argument : arguments) {
                        constant(argument);
                    }
                }

                @Override
                public void visitLdcInsn(Object value) {
                    constant(value);
                }

                @Override
                public void visitMultiANewArrayInsn(String descriptor, int dimensions) {
                    descriptor(Type.getType(descriptor));
                }

                @Override
                public void visitTryCatchBlock(Label start, Label end, Label handler, String type) {
                    if (type != null) {
                        type(type);
                    }
                }
            };
        }

        private void constant(Object value) {
            if (value instanceof Type) {
                descriptor((Type) value);
            } else if (value instanceof Handle) {
                handle((Handle) value);
            }
        }

        private void handle(Handle h) {
            if (h.getTag() <= Opcodes.H_PUTSTATIC) {
                if (type(h.getOwner())
                        && h.getOwner().startsWith(FLINK)
                        && !hasField(h.getOwner(), h.getName(), h.getDesc())) {
                    missing.add(new Missing(className, method, "field " + h.getOwner() + "." + h.getName()));
                }
            } else {
                member(h.getOwner(), h.getName(), h.getDesc());
                invoked(
                        h.getOwner(),
                        h.getName(),
                        h.getDesc(),
                        h.getTag() == Opcodes.H_INVOKEVIRTUAL || h.getTag() == Opcodes.H_INVOKEINTERFACE);
            }
        }

        /** Keeps a bundled method's calls, for {@link #pathsFromPlugin}. */
        private void invoked(String owner, String name, String descriptor, boolean virtual) {
            if (!fromPlugin && !owner.startsWith("[")) {
                invocations
                        .computeIfAbsent(className + "#" + method, k -> new ArrayList<>())
                        .add(new Invocation(owner, name + descriptor, virtual));
            }
        }

        private void member(String owner, String name, String descriptor) {
            member(owner, name, descriptor, true);
        }

        private void member(String owner, String name, String descriptor, boolean virtual) {
            descriptor(Type.getMethodType(descriptor));
            if (owner.startsWith("[")) {
                return; // clone() of an array
            }
            boolean present = type(owner);
            if (fromPlugin) {
                String declaring = declaringClass(owner, name, descriptor);
                if (declaring != null && bundled.containsKey(declaring)) {
                    calls.add(new PluginCall(className, declaring, name + descriptor, virtual));
                }
            }
            if (present && owner.startsWith(FLINK) && declaringClass(owner, name, descriptor) == null) {
                missing.add(new Missing(className, method, "method " + owner + "." + name + descriptor));
            }
        }

        private void descriptor(Type type) {
            switch (type.getSort()) {
                case Type.ARRAY:
                    descriptor(type.getElementType());
                    break;
                case Type.OBJECT:
                    type(type.getInternalName());
                    break;
                case Type.METHOD:
                    descriptor(type.getReturnType());
                    for (Type argument : type.getArgumentTypes()) {
                        descriptor(argument);
                    }
                    break;
                default:
                    break;
            }
        }

        /** Reaches a bundled class; whether the class exists (anything outside Flink counts as present). */
        private boolean type(String name) {
            if (bundled.containsKey(name)) {
                queue.add(name);
                return true;
            }
            if (!name.startsWith(FLINK) || shape(name) != null) {
                return true;
            }
            missing.add(new Missing(className, method, "class " + name));
            return false;
        }
    }

    /**
     * The chains of calls from the plugin's own code into a bundled method {@code stop} accepts
     * ({@code pkg.Class#name(descriptor)}), each as the plugin's class followed by the bundled
     * methods called in turn; the first chain found per method stopped at. A virtual call may run
     * any reached bundled override of the method named, so each counts.
     */
    List<List<String>> pathsFromPlugin(Result result, java.util.function.Predicate<String> stop) {
        for (String c : result.reachedBundled()) {
            for (String m : shape(c).methods) {
                declarers.computeIfAbsent(m, k -> new ArrayList<>()).add(c);
            }
        }
        Map<String, List<String>> pathTo = new HashMap<>();
        Deque<String> todo = new ArrayDeque<>();
        for (PluginCall call : result.pluginCalls()) {
            for (String target : targets(call.declaringClass(), call.method(), call.virtual())) {
                if (pathTo.putIfAbsent(target, List.of(call.caller().replace('/', '.'), dotted(target))) == null) {
                    todo.add(target);
                }
            }
        }
        List<List<String>> found = new ArrayList<>();
        while (!todo.isEmpty()) {
            String node = todo.poll();
            List<String> path = pathTo.get(node);
            if (stop.test(dotted(node))) {
                found.add(path);
                continue;
            }
            for (Invocation i : invocations.getOrDefault(node, List.of())) {
                for (String target : targets(i.owner(), i.method(), i.virtual())) {
                    if (!pathTo.containsKey(target)) {
                        List<String> longer = new ArrayList<>(path);
                        longer.add(dotted(target));
                        pathTo.put(target, longer);
                        todo.add(target);
                    }
                }
            }
        }
        return found;
    }

    /** The bundled methods a call may run: the one it resolves to, and its overrides if virtual. */
    private List<String> targets(String owner, String method, boolean virtual) {
        List<String> targets = new ArrayList<>();
        int paren = method.indexOf('(');
        String declaring = declaringClass(owner, method.substring(0, paren), method.substring(paren));
        if (declaring != null && bundled.containsKey(declaring)) {
            targets.add(declaring + "#" + method);
        }
        if (virtual && bundled.containsKey(owner)) {
            // the connector's own types only: following every bundled Runnable from a call of
            // Runnable#run would reach far more than the code can run
            for (String c : declarers.getOrDefault(method, List.of())) {
                if (!c.equals(declaring) && isSubtype(c, owner)) {
                    targets.add(c + "#" + method);
                }
            }
        }
        return targets;
    }

    private boolean isSubtype(String c, String of) {
        if (c == null) {
            return false;
        }
        if (c.equals(of)) {
            return true;
        }
        Shape shape = shape(c);
        if (shape == null) {
            return false;
        }
        if (isSubtype(shape.superName, of)) {
            return true;
        }
        for (String i : shape.interfaces) {
            if (isSubtype(i, of)) {
                return true;
            }
        }
        return false;
    }

    private static String dotted(String method) {
        int hash = method.indexOf('#');
        return method.substring(0, hash).replace('/', '.') + method.substring(hash);
    }

    /** The class declaring {@code name descriptor} as {@code owner} or a supertype; null if none. */
    private String declaringClass(String owner, String name, String descriptor) {
        Deque<String> todo = new ArrayDeque<>();
        todo.add(owner);
        Set<String> seen = new LinkedHashSet<>();
        while (!todo.isEmpty()) {
            String c = todo.poll();
            if (!seen.add(c)) {
                continue;
            }
            Shape shape = shape(c);
            if (shape == null) {
                // a supertype outside Flink and the JDK (Hadoop, Hive: not on this class path)
                // may declare it: not a question for this check
                return c.startsWith(FLINK) ? null : c;
            }
            if (shape.methods.contains(name + descriptor)) {
                return c;
            }
            if (shape.superName != null) {
                todo.add(shape.superName);
            }
            todo.addAll(shape.interfaces);
        }
        return null;
    }

    private boolean hasField(String owner, String name, String descriptor) {
        for (String c = owner; c != null; ) {
            Shape shape = shape(c);
            if (shape == null) {
                return !c.startsWith(FLINK);
            }
            if (shape.fields.contains(name + ":" + descriptor)) {
                return true;
            }
            for (String i : shape.interfaces) {
                if (hasField(i, name, descriptor)) {
                    return true;
                }
            }
            c = shape.superName;
        }
        return false;
    }

    /** A class's supertypes and members, bundled first, then the line's; null if neither has it. */
    private Shape shape(String name) {
        if (shapes.containsKey(name)) {
            return shapes.get(name);
        }
        byte[] bytes;
        if (bundled.containsKey(name)) {
            bytes = read(bundled.get(name), name);
        } else {
            try (InputStream in = line.apply(name + ".class")) {
                bytes = in == null ? null : in.readAllBytes();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        Shape shape = bytes == null ? null : new Shape(bytes);
        shapes.put(name, shape);
        return shape;
    }

    private static byte[] read(JarFile jar, String name) {
        try (InputStream in = jar.getInputStream(jar.getEntry(name + ".class"))) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The parts of a class that resolve a reference to it. */
    private static final class Shape extends ClassVisitor {

        String superName;
        List<String> interfaces = List.of();
        final Set<String> methods = new LinkedHashSet<>();
        final Set<String> fields = new LinkedHashSet<>();

        Shape(byte[] bytes) {
            super(Opcodes.ASM9);
            new ClassReader(bytes).accept(this, ClassReader.SKIP_CODE | ClassReader.SKIP_DEBUG);
        }

        @Override
        public void visit(
                int version, int access, String name, String signature, String superName, String[] interfaces) {
            this.superName = superName;
            this.interfaces = List.of(interfaces);
        }

        @Override
        public MethodVisitor visitMethod(
                int access, String name, String descriptor, String signature, String[] exceptions) {
            methods.add(name + descriptor);
            return null;
        }

        @Override
        public FieldVisitor visitField(int access, String name, String descriptor, String signature, Object value) {
            fields.add(name + ":" + descriptor);
            return null;
        }
    }
}

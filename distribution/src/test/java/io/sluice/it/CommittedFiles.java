package io.sluice.it;

import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.hadoop.example.GroupReadSupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Reads what a sink made visible, without Sluice: lists files the way a reader of the table would
 * (names starting with {@code .} or {@code _} are hidden) and decodes them with independent
 * readers, plain text parsing for row formats and parquet-java's own reader for Parquet.
 */
public final class CommittedFiles {

    private CommittedFiles() {}

    /** Every visible data file under {@code base}, sorted. */
    public static List<Path> visible(Path base) {
        return list(base, name -> !name.startsWith(".") && !name.startsWith("_"));
    }

    /** Every file whose name marks it as in-progress or pending, hidden or not. */
    public static List<Path> inProgress(Path base) {
        return list(base, name -> name.contains(".inprogress") || name.contains(".pending"));
    }

    /** Every finished file still waiting for compaction (hidden, not in-progress). */
    public static List<Path> uncompacted(Path base) {
        return list(base, name -> name.startsWith(".uncompacted-") && !name.contains(".inprogress"));
    }

    /** Every file named {@code name}, e.g. {@code _SUCCESS}. */
    public static List<Path> named(Path base, String name) {
        return list(base, n -> n.equals(name));
    }

    private static List<Path> list(Path base, java.util.function.Predicate<String> filter) {
        if (!Files.isDirectory(base)) {
            return new ArrayList<>();
        }
        try (Stream<Path> files = Files.walk(base)) {
            return files.filter(Files::isRegularFile)
                    .filter(p -> filter.test(p.getFileName().toString()))
                    .filter(p -> base.relativize(p).toString().split("/").length == 1
                            || !hiddenDir(base.relativize(p.getParent())))
                    .sorted()
                    .collect(Collectors.toList());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static boolean hiddenDir(Path relative) {
        for (Path segment : relative) {
            String s = segment.toString();
            if (s.startsWith(".") || s.startsWith("_")) {
                return true;
            }
        }
        return false;
    }

    /** All lines of the visible files under {@code base}. */
    public static List<String> lines(Path base) {
        List<String> lines = new ArrayList<>();
        for (Path f : visible(base)) {
            try {
                lines.addAll(Files.readAllLines(f, StandardCharsets.UTF_8));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return lines;
    }

    /** Every record of the visible Parquet files under {@code base}, mapped by {@code f}. */
    public static <T> List<T> parquet(Path base, Function<Group, T> f) {
        List<T> out = new ArrayList<>();
        for (Path file : visible(base)) {
            out.addAll(parquetFile(file, f));
        }
        return out;
    }

    /** Every record of the Parquet file {@code file}, mapped by {@code f}. */
    public static <T> List<T> parquetFile(Path file, Function<Group, T> f) {
        List<T> out = new ArrayList<>();
        try (ParquetReader<Group> reader = ParquetReader.builder(
                        new GroupReadSupport(), new org.apache.hadoop.fs.Path(file.toUri()))
                .withConf(new Configuration())
                .build()) {
            for (Group g = reader.read(); g != null; g = reader.read()) {
                out.add(f.apply(g));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + file, e);
        }
        return out;
    }
}

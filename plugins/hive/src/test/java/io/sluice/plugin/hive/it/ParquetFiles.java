package io.sluice.plugin.hive.it;

import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.hadoop.example.GroupReadSupport;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.schema.Type;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** A partition directory's data files as a Hive reader lists them, read by parquet-java. */
final class ParquetFiles {

    private ParquetFiles() {}

    /** The files a Hive reader lists: no hidden names ({@code .} or {@code _}). */
    static List<Path> dataFiles(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(Files::isRegularFile)
                    .filter(p -> !p.getFileName().toString().startsWith(".")
                            && !p.getFileName().toString().startsWith("_"))
                    .sorted()
                    .collect(Collectors.toList());
        }
    }

    /** Every record of every data file of {@code dir}, as {@code row} prints it. */
    static List<String> rows(Path dir, Function<Group, String> row) throws IOException {
        List<String> rows = new ArrayList<>();
        for (Path file : dataFiles(dir)) {
            rows.addAll(rowsOf(file, row));
        }
        return rows;
    }

    /** Every record of one data file, as {@code row} prints it. */
    static List<String> rowsOf(Path file, Function<Group, String> row) throws IOException {
        List<String> rows = new ArrayList<>();
        try (ParquetReader<Group> reader = ParquetReader.builder(
                        new GroupReadSupport(), new org.apache.hadoop.fs.Path(file.toUri()))
                .withConf(new Configuration())
                .build()) {
            for (Group g = reader.read(); g != null; g = reader.read()) {
                rows.add(row.apply(g));
            }
        }
        return rows;
    }

    /** The top-level column names of a file's schema. */
    static List<String> columns(Path file) throws IOException {
        try (ParquetFileReader reader = ParquetFileReader.open(
                HadoopInputFile.fromPath(new org.apache.hadoop.fs.Path(file.toUri()), new Configuration()))) {
            return reader.getFooter().getFileMetaData().getSchema().getFields().stream()
                    .map(Type::getName)
                    .collect(Collectors.toList());
        }
    }
}

package io.sluice.plugin.iceberg;

import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.CombinedScanTask;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.RowDelta;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.flink.FlinkSchemaUtil;
import org.apache.iceberg.flink.sink.RowDataTaskWriterFactory;
import org.apache.iceberg.flink.source.DataIterator;
import org.apache.iceberg.flink.source.FileScanTaskReader;
import org.apache.iceberg.flink.source.RowDataFileScanTaskReader;
import org.apache.iceberg.hadoop.HadoopTables;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.TaskWriter;
import org.apache.iceberg.io.WriteResult;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link FlatParquetScanTaskReader} against Iceberg's own {@link RowDataFileScanTaskReader}, the
 * oracle: the same scan tasks (files split between row groups, of random rows from a printed seed
 * with nulls, NaNs, signed zeros, extremes, empty and non-ASCII strings) give the same rows in the
 * same order, whole and in a reordered projection; and the files it must leave to Iceberg's reader
 * (partition constants, a column added later, a promoted column, delete files) give the same rows
 * too, read by Iceberg's reader.
 */
class FlatParquetRowReaderTest {

    @TempDir
    java.nio.file.Path warehouse;

    @ParameterizedTest(name = "format v{0}")
    @ValueSource(ints = {2, 3})
    void readsTheRowsOfIcebergsOwnReader(int formatVersion) throws Exception {
        long seed = System.nanoTime();
        System.out.println("FlatParquetRowReaderTest seed: " + seed);
        boolean nanos = formatVersion >= 3;
        Table table = table(
                "t" + formatVersion,
                FlatParquetRowWriterTest.schema(nanos),
                PartitionSpec.unpartitioned(),
                formatVersion);
        append(
                table,
                FlatParquetRowWriterTest.randomRows(new Random(seed), FlatParquetRowWriterTest.rowType(nanos), nanos));

        Counts whole = assertSameRows(table, table.schema(), seed);
        assertThat(whole.rows).isEqualTo(FlatParquetRowWriterTest.ROWS);
        assertThat(whole.tasks).as("tasks split between row groups").isGreaterThan(3);
        assertThat(whole.flat).as("rows read by the flat reader").isEqualTo(whole.rows);

        Schema reordered = new Schema(
                table.schema().findField("s"),
                table.schema().findField("id"),
                table.schema().findField("tsz"),
                table.schema().findField("d"),
                table.schema().findField("b"));
        Counts projected = assertSameRows(table, reordered, seed);
        assertThat(projected.flat).isEqualTo(FlatParquetRowWriterTest.ROWS);
    }

    @Test
    void leavesPartitionConstantsToIcebergsReaderAndReadsTheOtherColumns() throws Exception {
        long seed = System.nanoTime();
        System.out.println("FlatParquetRowReaderTest seed: " + seed);
        Schema schema = FlatParquetRowWriterTest.schema(false);
        Table table = table(
                "p", schema, PartitionSpec.builderFor(schema).identity("flag").build(), 2);
        append(
                table,
                FlatParquetRowWriterTest.randomRows(new Random(seed), FlatParquetRowWriterTest.rowType(false), false));

        Counts withPartitionColumn = assertSameRows(table, table.schema(), seed);
        assertThat(withPartitionColumn.rows).isEqualTo(FlatParquetRowWriterTest.ROWS);
        assertThat(withPartitionColumn.flat).isZero();

        Counts without = assertSameRows(table, table.schema().select("id", "s", "ts"), seed);
        assertThat(without.flat).isEqualTo(FlatParquetRowWriterTest.ROWS);
    }

    @Test
    void leavesAddedAndPromotedColumnsToIcebergsReader() throws Exception {
        long seed = System.nanoTime();
        System.out.println("FlatParquetRowReaderTest seed: " + seed);
        Table table = table("e", FlatParquetRowWriterTest.schema(false), PartitionSpec.unpartitioned(), 2);
        append(
                table,
                FlatParquetRowWriterTest.randomRows(new Random(seed), FlatParquetRowWriterTest.rowType(false), false));
        table.updateSchema().addColumn("extra", Types.StringType.get()).commit();

        Counts added = assertSameRows(table, table.schema(), seed);
        assertThat(added.rows).isEqualTo(FlatParquetRowWriterTest.ROWS);
        assertThat(added.flat).isZero();
        assertThat(assertSameRows(table, table.schema().select("id", "s"), seed).flat)
                .isEqualTo(FlatParquetRowWriterTest.ROWS);

        table.updateSchema().updateColumn("i", Types.LongType.get()).commit();
        Counts promoted = assertSameRows(table, table.schema().select("id", "i"), seed);
        assertThat(promoted.flat).isZero();
    }

    @Test
    void leavesFilesWithDeletesToIcebergsReader() throws Exception {
        long seed = System.nanoTime();
        System.out.println("FlatParquetRowReaderTest seed: " + seed);
        Schema schema = FlatParquetRowWriterTest.schema(false);
        RowType rowType = FlatParquetRowWriterTest.rowType(false);
        Table table = table("d", schema, PartitionSpec.unpartitioned(), 2);
        List<RowData> rows = FlatParquetRowWriterTest.randomRows(new Random(seed), rowType, false);
        append(table, rows.subList(0, rows.size() / 2));

        // upserts of half of the keys again: equality deletes for the first files, position
        // deletes within the new one
        RowDataTaskWriterFactory upserts = new RowDataTaskWriterFactory(
                table, rowType, 256 * 1024, FileFormat.PARQUET, Map.of(), List.of(1), true);
        upserts.initialize(0, 0);
        WriteResult written;
        try (TaskWriter<RowData> writer = upserts.create()) {
            for (RowData row : rows.subList(0, rows.size() / 4)) {
                writer.write(row);
                writer.write(row);
            }
            written = writer.complete();
        }
        RowDelta delta = table.newRowDelta();
        List.of(written.dataFiles()).forEach(delta::addRows);
        List.of(written.deleteFiles()).forEach(delta::addDeletes);
        delta.commit();

        Counts read = assertSameRows(table, table.schema(), seed);
        assertThat(read.rows).isEqualTo(rows.size() / 2);
        assertThat(read.flat).as("rows of files without deletes").isLessThan(read.rows);
    }

    private Table table(String name, Schema schema, PartitionSpec spec, int formatVersion) {
        return new HadoopTables(new Configuration())
                .create(
                        schema,
                        spec,
                        Map.of(
                                TableProperties.FORMAT_VERSION, String.valueOf(formatVersion),
                                TableProperties.PARQUET_ROW_GROUP_SIZE_BYTES, "65536",
                                TableProperties.PARQUET_PAGE_SIZE_BYTES, "8192"),
                        warehouse.resolve(name).toUri().toString());
    }

    private static void append(Table table, List<RowData> rows) throws Exception {
        RowType rowType = FlatParquetRowWriterTest.rowType(table.schema().findField("tsn") != null);
        RowDataTaskWriterFactory writers =
                new RowDataTaskWriterFactory(table, rowType, 256 * 1024, FileFormat.PARQUET, Map.of(), null, false);
        List<DataFile> files = FlatParquetRowWriterTest.write(writers, rows);
        AppendFiles append = table.newAppend();
        files.forEach(append::appendFile);
        append.commit();
    }

    private static final class Counts {
        int tasks;
        int rows;
        int flat;
    }

    /** Reads every task of the scan both ways and asserts the same rows in the same order. */
    private static Counts assertSameRows(Table table, Schema projection, long seed) throws Exception {
        RowType readType = FlinkSchemaUtil.convert(projection);
        FileScanTaskReader<RowData> ours = new FlatParquetScanTaskReader(table.schema(), projection, null, true);
        FileScanTaskReader<RowData> iceberg =
                new RowDataFileScanTaskReader(table.schema(), projection, null, true, null);
        Counts counts = new Counts();
        try (CloseableIterable<CombinedScanTask> tasks = table.newScan()
                .project(projection)
                .option(TableProperties.SPLIT_SIZE, "65536")
                .option(TableProperties.SPLIT_OPEN_FILE_COST, "1")
                .planTasks()) {
            for (CombinedScanTask task : tasks) {
                counts.tasks++;
                List<List<Object>> expected = read(iceberg, task, table, readType, null);
                List<List<Object>> actual = read(ours, task, table, readType, counts);
                assertThat(actual).as("rows of %s (seed %s)", task, seed).isEqualTo(expected);
                counts.rows += actual.size();
            }
        }
        return counts;
    }

    private static List<List<Object>> read(
            FileScanTaskReader<RowData> reader, CombinedScanTask task, Table table, RowType type, Counts counts)
            throws Exception {
        List<List<Object>> rows = new ArrayList<>();
        RowData.FieldGetter[] getters = new RowData.FieldGetter[type.getFieldCount()];
        for (int i = 0; i < getters.length; i++) {
            getters[i] = RowData.createFieldGetter(type.getTypeAt(i), i);
        }
        try (DataIterator<RowData> iterator = new DataIterator<>(reader, task, table.io(), table.encryption())) {
            while (iterator.hasNext()) {
                RowData row = iterator.next();
                if (counts != null && row instanceof BinaryRowData) {
                    counts.flat++;
                }
                List<Object> values = new ArrayList<>(getters.length);
                for (RowData.FieldGetter getter : getters) {
                    values.add(comparable(getter.getFieldOrNull(row)));
                }
                rows.add(values);
            }
        }
        return rows;
    }

    /** A value that equals another of the same content: strings by text, bytes by content. */
    private static Object comparable(Object value) {
        if (value instanceof StringData) {
            return value.toString();
        }
        if (value instanceof byte[]) {
            return ByteBuffer.wrap((byte[]) value);
        }
        return value;
    }
}

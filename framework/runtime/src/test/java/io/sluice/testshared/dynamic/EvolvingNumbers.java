package io.sluice.testshared.dynamic;

import io.sluice.runtime.sink.dynamic.DynamicSinkFaults;

import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The numbered records of the dynamic sink's schema-evolution tests, in three schema versions by
 * thirds of the numbers 1..count: {@link #V1} (id, p, n INT NOT NULL), {@link #V2} (a column
 * {@code extra} added), {@link #V3} ({@code n} widened to BIGINT and optional). Each target's test
 * routes them to its tables and reads them back against {@link #expectedN} and {@link
 * #expectedExtra}, so every target is held to the same evolution.
 */
public final class EvolvingNumbers {

    public static final RowType V1 =
            row("id", new BigIntType(false), "p", new VarCharType(false, 8), "n", new IntType(false));
    public static final RowType V2 = row(
            "id", new BigIntType(false),
            "p", new VarCharType(false, 8),
            "n", new IntType(false),
            "extra", new VarCharType(true, 16));
    public static final RowType V3 = row(
            "id", new BigIntType(false),
            "p", new VarCharType(false, 8),
            "n", new BigIntType(true),
            "extra", new VarCharType(true, 16));

    private EvolvingNumbers() {}

    /** 1, 2 or 3: the third of 1..count that {@code id} is in. */
    public static int version(long id, long count) {
        return id <= count / 3 ? 1 : id <= 2 * count / 3 ? 2 : 3;
    }

    public static RowType schema(long id, long count) {
        int v = version(id, count);
        return v == 1 ? V1 : v == 2 ? V2 : V3;
    }

    /** The row of {@code id} in its version's schema, partition value {@code p}. */
    public static GenericRowData row(long id, long count, String p) {
        StringData partition = StringData.fromString(p);
        switch (version(id, count)) {
            case 1:
                return GenericRowData.of(id, partition, (int) (id % 100));
            case 2:
                return GenericRowData.of(id, partition, (int) (id % 100), StringData.fromString("e" + id));
            default:
                return GenericRowData.of(id, partition, id % 3 == 0 ? null : id * 1_000_000_000L, null);
        }
    }

    /** {@code n} as read back from a table evolved to V3 (a BIGINT), null where written null. */
    public static Long expectedN(long id, long count) {
        if (version(id, count) < 3) {
            return id % 100;
        }
        return id % 3 == 0 ? null : id * 1_000_000_000L;
    }

    /** {@code extra} as read back: only V2 rows have one. */
    public static String expectedExtra(long id, long count) {
        return version(id, count) == 2 ? "e" + id : null;
    }

    /**
     * Hooks that make the table updater fail once, at its {@code atUpdate}-th update (counted in
     * this JVM), with marker {@code updater-failed} in {@code markers} so that the restarted job
     * does not fail again: {@link DynamicSinkFaults#into} a sink's builder; {@link
     * DynamicSinkFaults#clear()} after the test.
     */
    public static DynamicSinkFaults failUpdaterOnce(Path markers, int atUpdate) {
        AtomicInteger updates = new AtomicInteger();
        return new DynamicSinkFaults().onUpdate(() -> {
            Path marker = markers.resolve("updater-failed");
            if (updates.incrementAndGet() == atUpdate && !Files.exists(marker)) {
                try {
                    Files.createDirectories(markers);
                    Files.createFile(marker);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                throw new IllegalStateException("chaos: injected failure in the table updater");
            }
        });
    }

    /** A nullable row type of names and types, in pairs. */
    public static RowType row(Object... namesAndTypes) {
        List<RowType.RowField> fields = new ArrayList<>();
        for (int i = 0; i < namesAndTypes.length; i += 2) {
            fields.add(new RowType.RowField((String) namesAndTypes[i], (LogicalType) namesAndTypes[i + 1]));
        }
        return new RowType(true, fields);
    }
}

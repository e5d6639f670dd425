package io.sluice.runtime.sink.dynamic;

import io.sluice.spi.distribution.DistributionMode;

import org.apache.flink.table.data.RowData;

import javax.annotation.Nullable;

import java.util.Objects;

/**
 * A row of a dynamic sink on its way to a writer: its write target and the writer subtask the
 * router chose. A row whose table must first be created or evolved by the table updater is {@link
 * #PENDING}: its target is then what the record asked for (its own schema and spec, ids {@link
 * #PENDING}), with the distribution mode and write parallelism the updater routes it by after.
 */
public final class RoutedRow {

    /** The writer of a row that goes over the forward edge to the writer chained to the router. */
    public static final int FORWARD = -1;

    /** The writer of a row whose table the updater must create or evolve first. */
    public static final int PENDING = -2;

    private final WriteTarget target;
    private final RowData row;
    private final int writer;

    @Nullable
    private final DistributionMode mode;

    private final int writeParallelism;

    /** A routed row, on its way to {@code writer}. */
    public RoutedRow(WriteTarget target, RowData row, int writer) {
        this(target, row, writer, null, 0);
    }

    private RoutedRow(
            WriteTarget target, RowData row, int writer, @Nullable DistributionMode mode, int writeParallelism) {
        this.target = Objects.requireNonNull(target);
        this.row = Objects.requireNonNull(row);
        this.writer = writer;
        this.mode = mode;
        this.writeParallelism = writeParallelism;
    }

    /** A row for the table updater: {@code requested} has the record's own schema and spec. */
    static RoutedRow pending(WriteTarget requested, RowData row, DistributionMode mode, int writeParallelism) {
        return new RoutedRow(requested, row, PENDING, Objects.requireNonNull(mode), writeParallelism);
    }

    public WriteTarget target() {
        return target;
    }

    public RowData row() {
        return row;
    }

    /** The writer subtask this row goes to, {@link #FORWARD} or {@link #PENDING}. */
    public int writer() {
        return writer;
    }

    public boolean isPending() {
        return writer == PENDING;
    }

    /** A pending row's distribution mode. */
    @Nullable
    public DistributionMode mode() {
        return mode;
    }

    /** A pending row's write parallelism ({@code 0}: the sink's). */
    public int writeParallelism() {
        return writeParallelism;
    }

    RoutedRow withRow(RowData other) {
        return new RoutedRow(target, other, writer, mode, writeParallelism);
    }

    @Override
    public String toString() {
        return "RoutedRow{" + target + " -> " + (isPending() ? "pending " + mode : String.valueOf(writer)) + "}";
    }
}

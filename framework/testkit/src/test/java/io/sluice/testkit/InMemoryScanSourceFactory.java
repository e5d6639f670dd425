package io.sluice.testkit;

import io.sluice.spi.Payload;
import io.sluice.spi.source.PlannedSplit;
import io.sluice.spi.source.ScanPlan;
import io.sluice.spi.source.ScanPlanner;
import io.sluice.spi.source.ScanSourceFactory;
import io.sluice.spi.source.ScanSplitReader;
import io.sluice.spi.source.SourceContext;
import io.sluice.spi.source.SplitRows;

import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.RowType;

import javax.annotation.Nullable;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A test scan source over tables kept in memory: a table is a list of commits, each a list of
 * {@code (id, name)} rows. A plan's position is the number of commits planned; a split is the rows
 * of one commit, serialized; the position in a split is the number of its rows read. With a {@link
 * Defect} it breaks one rule on purpose, to show that the kit notices.
 *
 * <p>Options: {@code table} (required, made by {@link #createTable()}), {@code continuous} ({@code
 * false} by default) and {@code start} ({@code earliest}, the default: a continuous read's first
 * plan reads the commits already there; {@code latest}: it reads only later ones).
 */
final class InMemoryScanSourceFactory implements ScanSourceFactory {

    static final String TABLE = "table";
    static final String CONTINUOUS = "continuous";
    static final String START = "start";

    /** One rule broken on purpose. */
    enum Defect {
        NONE,
        /** The planner plans every commit from the first, whatever the position says. */
        IGNORES_POSITION,
        /** A plan that finds nothing new returns a new position (it counts the plans). */
        NEW_POSITION_WHEN_NOTHING_IS_NEW,
        /** Reopening a split starts from its first row, whatever {@code recordsToSkip} says. */
        IGNORES_RECORDS_TO_SKIP,
        /** The position reported after a row is the one before it. */
        POSITION_OFF_BY_ONE,
        /** Returns one row object for all rows, changed for each: allowed, the kit must still pass. */
        REUSES_ROW_OBJECT,
        /** Splits carry no rows: the reader looks the payload object up in memory. */
        SPLITS_BY_IDENTITY,
        /** The reader takes a new split only after the previous one was read to its end. */
        SPLIT_CLOSED_EARLY_BLOCKS_READER,
        /** {@code validate} takes any {@code start}. */
        ACCEPTS_ANY_OPTIONS,
        /** {@code tableRowType} has the columns the other way round. */
        WRONG_TABLE_ROW_TYPE,
        /** A first plan of an empty table returns a null position (harmless only with {@code start} earliest). */
        NULL_POSITION_FOR_EMPTY_TABLE
    }

    /** The tables of all tests, by name: a list of commits, each a list of rows. */
    private static final Map<String, List<List<Row>>> TABLES = new ConcurrentHashMap<>();

    /** The rows of the split payloads of {@link Defect#SPLITS_BY_IDENTITY}, by payload object. */
    private static final Map<Payload, List<Row>> SPLITS_BY_IDENTITY =
            Collections.synchronizedMap(new IdentityHashMap<>());

    private static final RowType ROW_TYPE = ScanSourceConformance.ROW_TYPE;

    private final Defect defect;

    InMemoryScanSourceFactory(Defect defect) {
        this.defect = defect;
    }

    /** Creates an empty table; returns its options. */
    static Map<String, String> createTable() {
        String name = UUID.randomUUID().toString();
        TABLES.put(name, Collections.synchronizedList(new ArrayList<>()));
        return Collections.singletonMap(TABLE, name);
    }

    /** Commits the rows to the table the options name, as one commit. */
    static void append(Map<String, String> options, List<RowData> rows) {
        List<Row> commit = new ArrayList<>();
        for (RowData row : rows) {
            commit.add(new Row(row.getLong(0), row.getString(1).toString()));
        }
        table(options.get(TABLE)).add(Collections.unmodifiableList(commit));
    }

    private static List<List<Row>> table(@Nullable String name) {
        List<List<Row>> table = name == null ? null : TABLES.get(name);
        if (table == null) {
            throw new IllegalArgumentException("Invalid '" + TABLE + "' '" + name + "': no such table");
        }
        return table;
    }

    @Override
    public String identifier() {
        return "in-memory";
    }

    @Override
    public void validate(SourceContext context) {
        table(context.rawOptions().get(TABLE));
        continuous(context);
        if (defect != Defect.ACCEPTS_ANY_OPTIONS) {
            startsLatest(context);
        }
    }

    @Override
    public Optional<RowType> tableRowType(ReadableConfig options) {
        if (defect == Defect.WRONG_TABLE_ROW_TYPE) {
            return Optional.of((RowType) DataTypes.ROW(
                            DataTypes.FIELD("name", DataTypes.STRING()), DataTypes.FIELD("id", DataTypes.BIGINT()))
                    .getLogicalType());
        }
        return Optional.of(ROW_TYPE);
    }

    @Override
    public Optional<Duration> monitorInterval(SourceContext context) {
        return continuous(context) ? Optional.of(Duration.ofSeconds(1)) : Optional.empty();
    }

    private static boolean continuous(SourceContext context) {
        String value = context.rawOptions().getOrDefault(CONTINUOUS, "false");
        if (!value.equals("true") && !value.equals("false")) {
            throw new IllegalArgumentException("Invalid '" + CONTINUOUS + "' '" + value + "': true or false");
        }
        return value.equals("true");
    }

    private static boolean startsLatest(SourceContext context) {
        String value = context.rawOptions().getOrDefault(START, "earliest");
        if (!value.equals("earliest") && !value.equals("latest")) {
            throw new IllegalArgumentException("Invalid '" + START + "' '" + value + "': earliest or latest");
        }
        return value.equals("latest");
    }

    @Override
    public ScanPlanner createPlanner(SourceContext context) {
        List<List<Row>> table = table(context.rawOptions().get(TABLE));
        boolean latest = "latest".equals(context.rawOptions().get(START));
        return continuous(context) ? new ContinuousPlanner(table, latest) : new BoundedPlanner(table);
    }

    @Override
    public ScanSplitReader createReader(SourceContext context) {
        return new Reader();
    }

    /** The splits of commits {@code from} (inclusive) to {@code to} (exclusive). */
    private List<PlannedSplit> splits(List<List<Row>> table, int from, int to) throws IOException {
        List<PlannedSplit> splits = new ArrayList<>();
        for (int i = from; i < to; i++) {
            List<Row> rows = table.get(i);
            Payload payload;
            if (defect == Defect.SPLITS_BY_IDENTITY) {
                payload = new Payload(1, new byte[0]);
                SPLITS_BY_IDENTITY.put(payload, rows);
            } else {
                payload = new Payload(1, serialize(rows));
            }
            splits.add(new PlannedSplit("commit " + i, payload));
        }
        return splits;
    }

    private static byte[] serialize(List<Row> rows) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(rows.size());
            for (Row row : rows) {
                out.writeLong(row.id);
                out.writeUTF(row.name);
            }
        }
        return bytes.toByteArray();
    }

    private static List<Row> deserialize(byte[] bytes) throws IOException {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
            int n = in.readInt();
            List<Row> rows = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                rows.add(new Row(in.readLong(), in.readUTF()));
            }
            return rows;
        }
    }

    private static Payload position(int commits) {
        return new Payload(1, ByteBuffer.allocate(4).putInt(commits).array());
    }

    private static int commits(Payload position) {
        return ByteBuffer.wrap(position.bytes()).getInt();
    }

    /** One plan of every commit; its position given back plans nothing. */
    private final class BoundedPlanner implements ScanPlanner {
        private final List<List<Row>> table;

        BoundedPlanner(List<List<Row>> table) {
            this.table = table;
        }

        @Override
        public ScanPlan plan(@Nullable Payload position) throws IOException {
            if (position != null) {
                return new ScanPlan(Collections.emptyList(), position);
            }
            int commits = table.size();
            return new ScanPlan(splits(table, 0, commits), position(commits));
        }

        @Override
        public void close() {}
    }

    /** The commits after the position, which is the number of commits planned. */
    private final class ContinuousPlanner implements ScanPlanner {
        private final List<List<Row>> table;
        private final boolean latest;
        private int plans;

        ContinuousPlanner(List<List<Row>> table, boolean latest) {
            this.table = table;
            this.latest = latest;
        }

        @Override
        public ScanPlan plan(@Nullable Payload position) throws IOException {
            plans++;
            int commits = table.size();
            int from;
            if (position == null) {
                from = latest ? commits : 0;
            } else {
                from = defect == Defect.IGNORES_POSITION ? 0 : commits(position);
            }
            Payload after;
            if (position == null && commits == 0 && defect == Defect.NULL_POSITION_FOR_EMPTY_TABLE) {
                after = null;
            } else if (from == commits && defect == Defect.NEW_POSITION_WHEN_NOTHING_IS_NEW) {
                // a plan counter next to the commits: the same commits, different bytes
                after = new Payload(
                        1, ByteBuffer.allocate(8).putInt(commits).putInt(plans).array());
            } else {
                after = position(commits);
            }
            return new ScanPlan(splits(table, from, commits), after);
        }

        @Override
        public void close() {}
    }

    /** Reads the rows of one commit, a row index as its position. */
    private final class Reader implements ScanSplitReader {
        private final GenericRowData reused = new GenericRowData(2);
        private boolean splitUnfinished;

        @Override
        public SplitRows open(Payload split, long offset, long recordsToSkip) throws IOException {
            if (defect == Defect.SPLIT_CLOSED_EARLY_BLOCKS_READER && splitUnfinished) {
                throw new IllegalStateException("A split is still being read");
            }
            List<Row> rows;
            if (defect == Defect.SPLITS_BY_IDENTITY) {
                rows = SPLITS_BY_IDENTITY.get(split);
                if (rows == null) {
                    throw new IOException("Unknown split " + split);
                }
            } else {
                rows = deserialize(split.bytes());
            }
            if (offset != 0 || recordsToSkip < 0 || recordsToSkip > rows.size()) {
                throw new IOException(
                        "No position (" + offset + ", " + recordsToSkip + ") in a split of " + rows.size() + " rows");
            }
            int start = defect == Defect.IGNORES_RECORDS_TO_SKIP ? 0 : (int) recordsToSkip;
            splitUnfinished = true;
            return new Rows(rows, start);
        }

        @Override
        public void close() {}

        private final class Rows implements SplitRows {
            private final List<Row> rows;
            private int next;

            Rows(List<Row> rows, int next) {
                this.rows = rows;
                this.next = next;
            }

            @Nullable
            @Override
            public RowData next() {
                if (next == rows.size()) {
                    splitUnfinished = false;
                    return null;
                }
                Row row = rows.get(next++);
                GenericRowData out = defect == Defect.REUSES_ROW_OBJECT ? reused : new GenericRowData(2);
                out.setField(0, row.id);
                out.setField(1, StringData.fromString(row.name));
                return out;
            }

            @Override
            public long offset() {
                return 0;
            }

            @Override
            public long recordsToSkip() {
                return defect == Defect.POSITION_OFF_BY_ONE ? Math.max(0, next - 1) : next;
            }

            @Override
            public void close() {}
        }
    }

    /** A row of a table. */
    private static final class Row {
        final long id;
        final String name;

        Row(long id, String name) {
            this.id = id;
            this.name = name;
        }
    }
}

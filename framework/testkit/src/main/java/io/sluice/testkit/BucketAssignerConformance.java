package io.sluice.testkit;

import io.sluice.spi.PathNames;
import io.sluice.spi.sink.BucketAssigner;
import io.sluice.spi.sink.BucketAssignerFactory;
import io.sluice.spi.sink.RecordContext;

import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Conformance tests for a {@link BucketAssignerFactory}: extend this class in a plugin's tests,
 * return the factory from {@link #assignerFactory()}, and JUnit 5 runs every check below against
 * it. The kit writes no files: it asks the assigner for bucket ids of rows of {@link #rowType()}
 * (by default {@code id INT, name STRING, city STRING, amount DECIMAL(10, 2), ts TIMESTAMP(3)}),
 * partitioned by {@link #partitionKeys()}, under {@link #options()}. Besides the rows of {@link
 * #rows()} it makes hostile ones: every string column holding {@code /}, {@code ..}, {@code .},
 * {@code %2F}, {@code \}, {@code :}, a line break, unicode, a leading {@code .} or {@code _}, an
 * empty string or null, every other nullable column null.
 *
 * <p>The checks:
 *
 * <ul>
 *   <li>the same row, asked again with the same record context, gets the same bucket id, also as
 *       an equal copy of the row;
 *   <li>assigners created from the same options (for other subtasks too) give every row the same
 *       bucket id: a row's bucket does not depend on which writer writes it;
 *   <li>a row object the framework reuses with new values gets the bucket of its new values (the
 *       SPI says an assigner must not keep the row);
 *   <li>every bucket id, for every row and record context, is {@code ""} or a relative path that
 *       cannot leave the table: no leading or trailing {@code /}, no empty segment, no {@code .}
 *       or {@code ..} segment, every segment a name {@link PathNames#nameProblem} accepts, and no
 *       segment starting with {@code .} or {@code _} (readers skip those directories) unless
 *       {@link #allowsHiddenSegments()} says the assigner documents them;
 *   <li>each option set of {@link #invalidOptions()} fails {@code create} with an {@link
 *       IllegalArgumentException} naming one of its options.
 * </ul>
 */
public abstract class BucketAssignerConformance {

    /** Sub-classes are JUnit test classes. */
    protected BucketAssignerConformance() {}

    // ---------------------------------------------------------------- what a plugin author supplies

    /** The factory under test, created directly (a new instance each call is fine). */
    protected abstract BucketAssignerFactory assignerFactory();

    /** The type of the rows; every check uses it. */
    protected RowType rowType() {
        return RowType.of(
                new LogicalType[] {
                    new IntType(),
                    new VarCharType(VarCharType.MAX_LENGTH),
                    new VarCharType(VarCharType.MAX_LENGTH),
                    new DecimalType(10, 2),
                    new TimestampType(3)
                },
                new String[] {"id", "name", "city", "amount", "ts"});
    }

    /** The sink's partition keys (columns of {@link #rowType()}); none by default. */
    protected List<String> partitionKeys() {
        return Collections.emptyList();
    }

    /** The options the factory gets in every check but the invalid-options one. */
    protected Map<String, String> options() {
        return Collections.emptyMap();
    }

    /** Option sets the factory must each reject; empty (the default) skips that check, reported as skipped. */
    protected List<Map<String, String>> invalidOptions() {
        return Collections.emptyList();
    }

    /** Rows of {@link #rowType()} the kit assigns besides its own hostile ones. */
    protected List<RowData> rows() {
        return Collections.emptyList();
    }

    /** Whether the assigner documents buckets whose segments start with {@code .} or {@code _}. */
    protected boolean allowsHiddenSegments() {
        return false;
    }

    // ---------------------------------------------------------------- the checks

    @Test
    void theSameRowGetsTheSameBucketEveryTime() {
        BucketAssigner assigner = create(context().build());
        for (RecordContext record : RECORD_CONTEXTS) {
            for (RowData row : allRows()) {
                String first = assigner.bucketId(row, record);
                assertThat(assigner.bucketId(row, record))
                        .as("bucket of %s asked again", row)
                        .isEqualTo(first);
                assertThat(assigner.bucketId(copy(row), record))
                        .as("bucket of a copy of %s", row)
                        .isEqualTo(first);
            }
        }
    }

    @Test
    void assignersFromTheSameOptionsAgree() {
        TestSinkContext sink = context().build();
        BucketAssigner one = create(sink);
        BucketAssigner other = create(sink);
        BucketAssigner otherSubtask = create(sink.forSubtask(2, 3));
        for (RecordContext record : RECORD_CONTEXTS) {
            for (RowData row : allRows()) {
                String expected = one.bucketId(row, record);
                assertThat(other.bucketId(row, record))
                        .as("bucket of %s by a second assigner", row)
                        .isEqualTo(expected);
                assertThat(otherSubtask.bucketId(row, record))
                        .as("bucket of %s by subtask 2 of 3", row)
                        .isEqualTo(expected);
            }
        }
    }

    @Test
    void aReusedRowGetsTheBucketOfItsNewValues() {
        RecordContext record = RECORD_CONTEXTS.get(1);
        List<RowData> rows = allRows();
        BucketAssigner fresh = create(context().build());
        List<String> expected = new ArrayList<>();
        for (RowData row : rows) {
            expected.add(fresh.bucketId(copy(row), record));
        }
        BucketAssigner assigner = create(context().build());
        GenericRowData reused = new GenericRowData(rowType().getFieldCount());
        for (int i = 0; i < rows.size(); i++) {
            RowData row = rows.get(i);
            for (int f = 0; f < reused.getArity(); f++) {
                reused.setField(f, ((GenericRowData) copy(row)).getField(f));
            }
            assertThat(assigner.bucketId(reused, record))
                    .as("bucket of the reused row holding %s", row)
                    .isEqualTo(expected.get(i));
        }
    }

    @Test
    void bucketIdsStayInsideTheTable() {
        BucketAssigner assigner = create(context().build());
        for (RecordContext record : RECORD_CONTEXTS) {
            for (RowData row : allRows()) {
                String id = assigner.bucketId(row, record);
                assertThat(id).as("bucket of %s", row).isNotNull();
                String problem = problem(id);
                assertThat(problem)
                        .as(
                                "bucket '%s' of %s at processing time %s",
                                PathNames.escape(id), row, record.currentProcessingTime())
                        .isNull();
            }
        }
    }

    @Test
    void rejectsInvalidOptions() {
        List<Map<String, String>> all = invalidOptions();
        assumeTrue(
                all != null && !all.isEmpty(),
                "invalidOptions() is empty: the factory has no options to get wrong, nothing to check");
        for (Map<String, String> invalid : all) {
            Throwable t = catchThrowable(() -> create(context().options(invalid).build()));
            assertThat(t).as("create with invalid options %s", invalid).isInstanceOf(IllegalArgumentException.class);
            assertThat(invalid.keySet())
                    .as("options named by: %s", t.getMessage())
                    .anySatisfy(key -> assertThat(t.getMessage()).contains(key));
        }
    }

    // ---------------------------------------------------------------- machinery

    /** The sink context of every check: {@link #rowType()}, {@link #partitionKeys()}, {@link #options()}. */
    private TestSinkContext.Builder context() {
        return TestSinkContext.builder(rowType()).partitionKeys(partitionKeys()).options(options());
    }

    private BucketAssigner create(TestSinkContext context) {
        return assignerFactory().create(context);
    }

    /** What is wrong with a bucket id as a directory below the table, or null. */
    private String problem(String id) {
        if (id.isEmpty()) {
            return null;
        }
        if (id.startsWith("/")) {
            return "starts with '/': an absolute path";
        }
        if (id.endsWith("/")) {
            return "ends with '/'";
        }
        for (String segment : id.split("/", -1)) {
            String problem = PathNames.nameProblem(segment);
            if (problem != null) {
                return "segment '" + PathNames.escape(segment) + "' " + problem;
            }
            if (!allowsHiddenSegments() && (segment.startsWith(".") || segment.startsWith("_"))) {
                return "segment '" + segment + "' starts with '.' or '_' and hides the bucket from readers";
            }
        }
        return null;
    }

    /** Strings that would change a path's meaning if an assigner put them in a bucket id as they are. */
    private static final List<String> HOSTILE_STRINGS = Arrays.asList(
            "plain",
            "/",
            "..",
            ".",
            "../../outside",
            "a/../b",
            "/absolute",
            "trailing/",
            "a//b",
            "%2F",
            "%2E%2E",
            "100%",
            "back\\slash",
            "c:\\windows",
            "scheme:rest",
            "line\nbreak",
            "tab\there",
            "k=v",
            "ünïcødé/日本",
            "😀",
            "_hidden",
            ".hidden",
            "",
            " ",
            null);

    /** Processing times: the epoch, a plain day, the last millisecond of a year, the year 9999. */
    private static final List<RecordContext> RECORD_CONTEXTS = Arrays.asList(
            record(0L, null),
            record(1_700_000_000_000L, 1_699_999_999_000L),
            record(1_735_689_599_999L, 1L),
            record(253_402_300_799_000L, null));

    private static RecordContext record(long processingTime, Long timestamp) {
        return new RecordContext() {
            @Override
            public long currentProcessingTime() {
                return processingTime;
            }

            @Override
            public long currentWatermark() {
                return timestamp == null ? Long.MIN_VALUE : timestamp;
            }

            @Override
            public Long timestamp() {
                return timestamp;
            }

            @Override
            public String toString() {
                return "processing time " + processingTime;
            }
        };
    }

    /** The author's rows, then one hostile row per hostile string, then one with every nullable column null. */
    private List<RowData> allRows() {
        List<RowData> rows = new ArrayList<>(rows());
        RowType type = rowType();
        for (int s = 0; s < HOSTILE_STRINGS.size(); s++) {
            GenericRowData row = new GenericRowData(type.getFieldCount());
            for (int f = 0; f < type.getFieldCount(); f++) {
                row.setField(f, value(type.getTypeAt(f), s, HOSTILE_STRINGS.get(s)));
            }
            rows.add(row);
        }
        GenericRowData nulls = new GenericRowData(type.getFieldCount());
        for (int f = 0; f < type.getFieldCount(); f++) {
            nulls.setField(f, type.getTypeAt(f).isNullable() ? null : value(type.getTypeAt(f), 0, "plain"));
        }
        rows.add(nulls);
        return rows;
    }

    /** A value of {@code type} for hostile row {@code n}; strings are the hostile string. */
    private static Object value(LogicalType type, int n, String hostile) {
        switch (type.getTypeRoot()) {
            case CHAR:
            case VARCHAR:
                if (hostile == null && !type.isNullable()) {
                    return StringData.fromString("");
                }
                return hostile == null ? null : StringData.fromString(hostile);
            case BOOLEAN:
                return n % 2 == 0;
            case TINYINT:
                return (byte) (n - 5);
            case SMALLINT:
                return (short) (n * 100 - 1);
            case INTEGER:
            case DATE:
            case TIME_WITHOUT_TIME_ZONE:
                return n % 3 == 0 ? -n : n * 1000;
            case BIGINT:
                return n % 2 == 0 ? Long.MIN_VALUE + n : (long) n;
            case FLOAT:
                return n % 4 == 0 ? Float.NaN : -n / 3f;
            case DOUBLE:
                return n % 4 == 0 ? Double.NEGATIVE_INFINITY : -n / 7d;
            case DECIMAL:
                DecimalType decimal = (DecimalType) type;
                BigDecimal unscaled = BigDecimal.valueOf(n % 2 == 0 ? -n : n).movePointLeft(decimal.getScale());
                return DecimalData.fromBigDecimal(unscaled, decimal.getPrecision(), decimal.getScale());
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return TimestampData.fromLocalDateTime(LocalDateTime.of(1969 + n * 3, 12, 31, 23, 59, 59, 999_000_000));
            default:
                if (!type.isNullable()) {
                    throw new IllegalStateException("The bucket assigner kit has no values of the NOT NULL type " + type
                            + ": make the column nullable or give rows()");
                }
                return null;
        }
    }

    /** An equal row in a new object, so an assigner cannot tell it from the original by identity. */
    private RowData copy(RowData row) {
        RowType type = rowType();
        GenericRowData copy = new GenericRowData(row.getRowKind(), type.getFieldCount());
        for (int f = 0; f < type.getFieldCount(); f++) {
            Object value = RowData.createFieldGetter(type.getTypeAt(f), f).getFieldOrNull(row);
            copy.setField(f, value instanceof StringData ? StringData.fromString(value.toString()) : value);
        }
        return copy;
    }
}

package io.sluice.plugin.hive;

import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.BooleanType;
import org.apache.flink.table.types.logical.DateType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Hive partition directories of rows: key order, escaping, the default partition. */
class HivePartitionBucketAssignerTest {

    private static final RowType ROW = RowType.of(
            new org.apache.flink.table.types.logical.LogicalType[] {
                new BigIntType(), new VarCharType(VarCharType.MAX_LENGTH), new IntType(), new BooleanType()
            },
            new String[] {"id", "dt", "hr", "late"});

    private static String bucket(List<String> keys, Object... values) {
        return new HivePartitionBucketAssigner(ROW, keys).bucketId(GenericRowData.of(values), null);
    }

    @Test
    void directoriesFollowThePartitionKeysInTheirOrder() {
        assertThat(bucket(List.of("dt", "hr"), 1L, StringData.fromString("2026-12-01"), 7, true))
                .isEqualTo("dt=2026-12-01/hr=7");
        assertThat(bucket(List.of("hr", "late", "dt"), 1L, StringData.fromString("x"), 7, false))
                .isEqualTo("hr=7/late=false/dt=x");
    }

    @Test
    void valuesAreEscapedAsHiveEscapesThem() {
        assertThat(bucket(List.of("dt"), 1L, StringData.fromString("a/b=c:d"), 0, true))
                .isEqualTo("dt=a%2Fb%3Dc%3Ad");
    }

    @Test
    void nullAndEmptyValuesGoToHivesDefaultPartition() {
        assertThat(bucket(List.of("dt", "hr"), 1L, null, null, true))
                .isEqualTo("dt=__HIVE_DEFAULT_PARTITION__/hr=__HIVE_DEFAULT_PARTITION__");
        assertThat(bucket(List.of("dt"), 1L, StringData.fromString(""), 0, true))
                .isEqualTo("dt=__HIVE_DEFAULT_PARTITION__");
    }

    @Test
    void typesWhoseHiveTextIsNotDoneYetAndUnknownKeysAreRefused() {
        RowType withDate = RowType.of(
                new org.apache.flink.table.types.logical.LogicalType[] {new DateType()}, new String[] {"day"});
        assertThatThrownBy(() -> new HivePartitionBucketAssigner(withDate, List.of("day")))
                .hasMessageContaining("Partition key 'day' has type DATE");
        assertThatThrownBy(() -> new HivePartitionBucketAssigner(ROW, List.of("nope")))
                .hasMessageContaining("Partition key 'nope' is not a column");
    }
}

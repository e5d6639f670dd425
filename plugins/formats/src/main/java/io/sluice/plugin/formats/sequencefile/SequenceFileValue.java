package io.sluice.plugin.formats.sequencefile;

import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeFamily;
import org.apache.flink.table.types.logical.RowType;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;

import java.util.Arrays;

/**
 * What the value of a SequenceFile record holds, by the type of the row's only column: a string
 * column as Hadoop {@link Text} (UTF-8, as Hive's text-based SerDes write it), a binary column as
 * {@link BytesWritable}. Null has no representation in either; it is written as an empty value.
 */
enum SequenceFileValue {

    /** A STRING, VARCHAR or CHAR column. */
    TEXT(Text.class) {
        @Override
        Writable toWritable(RowData row) {
            return row.isNullAt(0) ? new Text() : new Text(row.getString(0).toBytes());
        }

        @Override
        RowData toRow(Writable value) {
            Text text = (Text) value;
            return GenericRowData.of(StringData.fromBytes(Arrays.copyOf(text.getBytes(), text.getLength())));
        }
    },

    /** A BYTES, VARBINARY or BINARY column. */
    BYTES(BytesWritable.class) {
        @Override
        Writable toWritable(RowData row) {
            return row.isNullAt(0) ? new BytesWritable() : new BytesWritable(row.getBinary(0));
        }

        @Override
        RowData toRow(Writable value) {
            return GenericRowData.of(((BytesWritable) value).copyBytes());
        }
    };

    private final Class<? extends Writable> writableClass;

    SequenceFileValue(Class<? extends Writable> writableClass) {
        this.writableClass = writableClass;
    }

    /** The Writable class of the values. */
    Class<? extends Writable> writableClass() {
        return writableClass;
    }

    /** The value of a row. */
    abstract Writable toWritable(RowData row);

    /** The row of a value, copied out of the reused Writable. */
    abstract RowData toRow(Writable value);

    /** The value kind for a row type, or an error naming the row type the format cannot hold. */
    static SequenceFileValue of(String format, RowType rowType) {
        if (rowType.getFieldCount() == 1) {
            LogicalType type = rowType.getTypeAt(0);
            if (type.is(LogicalTypeFamily.CHARACTER_STRING)) {
                return TEXT;
            }
            if (type.is(LogicalTypeFamily.BINARY_STRING)) {
                return BYTES;
            }
        }
        throw new IllegalArgumentException(String.format(
                "Format '%s' holds rows of exactly one STRING or BYTES column, but the row" + " type is %s",
                format, rowType.asSummaryString()));
    }
}

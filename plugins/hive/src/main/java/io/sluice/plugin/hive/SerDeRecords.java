package io.sluice.plugin.hive;

import io.sluice.spi.NonRecoverableException;

import org.apache.flink.table.catalog.hive.client.HiveShim;
import org.apache.flink.table.catalog.hive.client.HiveShimLoader;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.util.DataFormatConverters;
import org.apache.flink.table.functions.hive.conversion.HiveInspectors;
import org.apache.flink.table.functions.hive.conversion.HiveObjectConversion;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeFamily;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.MultisetType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.utils.TypeConversions;
import org.apache.hadoop.hive.serde2.Deserializer;
import org.apache.hadoop.hive.serde2.SerDeException;
import org.apache.hadoop.hive.serde2.SerDeUtils;
import org.apache.hadoop.hive.serde2.Serializer;
import org.apache.hadoop.hive.serde2.lazy.LazySerDeParameters;
import org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe;
import org.apache.hadoop.hive.serde2.objectinspector.ObjectInspector;
import org.apache.hadoop.hive.serde2.objectinspector.ObjectInspectorFactory;
import org.apache.hadoop.hive.serde2.objectinspector.StructObjectInspector;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.util.ReflectionUtils;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The records of a text or SequenceFile Hive table: each row serialized by the table's own SerDe
 * (for a TextFile table usually {@code LazySimpleSerDe}), initialized with what Hive gives it (the
 * table's columns, SerDe parameters such as {@code field.delim} / {@code serialization.format},
 * {@code serialization.null.format}, {@code escape.delim}, and table parameters). Flink's values
 * become the SerDe's objects through upstream's {@link HiveInspectors} conversions.
 *
 * <p>{@code LazySimpleSerDe} escapes nothing unless the table has an {@code escape.delim}, and a
 * line break only with {@code serialization.escape.crlf} as well; a value Hive would write so
 * that it reads back as something else (a separator or line break that is not escaped, or a string
 * equal to the null format) fails the job with an error that names the table and the column
 * instead of writing a different row.
 */
final class SerDeRecords {

    /** Hive reads text files line by line, whatever a table's {@code line.delim} says. */
    static final String LINE_DELIMITER = "\n";

    private final String table;
    private final Serializer serializer;
    private final HiveObjectConversion[] conversions;
    private final DataFormatConverters.DataFormatConverter[] converters;
    private final StructObjectInspector inspector;
    private final LazySerDeParameters lazy; // null for other SerDes: nothing to check
    private final RowType fileType;
    private final boolean lines; // records end at a line break (text files), not in a SequenceFile
    private final RowData.FieldGetter[] getters;

    private SerDeRecords(HiveTableInfo info, RowType fileType, boolean lines) {
        this.table = info.path.getFullName();
        this.lines = lines;
        this.fileType = fileType;
        String lineDelimiter = info.serdeProperties.getProperty("line.delim", LINE_DELIMITER);
        if (!LINE_DELIMITER.equals(lineDelimiter)) {
            throw new IllegalArgumentException("Hive table " + table + " has 'line.delim' = '"
                    + printable(lineDelimiter) + "': Hive reads text tables line by line, so only '\\n' works");
        }
        JobConf conf = new JobConf(false);
        for (Map.Entry<String, String> e : info.hiveSettings.entrySet()) {
            conf.set(e.getKey(), e.getValue());
        }
        try {
            Object instance = Class.forName(info.serde, true, SerDeRecords.class.getClassLoader())
                    .getConstructor()
                    .newInstance();
            if (!(instance instanceof Serializer) || !(instance instanceof Deserializer)) {
                throw new SerDeMismatch("its SerDe " + info.serde + " is no SerDe (Serializer and Deserializer)");
            }
            ReflectionUtils.setConf(instance, conf);
            SerDeUtils.initializeSerDe((Deserializer) instance, conf, info.serdeProperties, null);
            this.serializer = (Serializer) instance;
            Class<?> records = serializer.getSerializedClass();
            if (records == null
                    || !(Text.class.isAssignableFrom(records) || BytesWritable.class.isAssignableFrom(records))) {
                // e.g. ParquetHiveSerDe or OrcSerde named for a text table: caught before the job starts
                throw new SerDeMismatch("its SerDe " + info.serde + " writes "
                        + (records == null ? "no declared" : records.getName())
                        + " records, but a " + info.format() + " table holds Text records: name a text SerDe"
                        + " (such as LazySimpleSerDe or OpenCSVSerde), or store the table as the format of its SerDe");
            }
            HiveShim shim = HiveShimLoader.loadHiveShim(HiveShimLoader.getHiveVersion());
            int n = fileType.getFieldCount();
            List<ObjectInspector> inspectors = new ArrayList<>(n);
            this.conversions = new HiveObjectConversion[n];
            this.converters = new DataFormatConverters.DataFormatConverter[n];
            for (int i = 0; i < n; i++) {
                DataType type = TypeConversions.fromLogicalToDataType(fileType.getTypeAt(i));
                ObjectInspector inspector = HiveInspectors.getObjectInspector(type);
                inspectors.add(inspector);
                conversions[i] = HiveInspectors.getConversion(inspector, type.getLogicalType(), shim);
                converters[i] = DataFormatConverters.getConverterForDataType(type);
            }
            this.inspector =
                    ObjectInspectorFactory.getStandardStructObjectInspector(fileType.getFieldNames(), inspectors);
        } catch (SerDeMismatch e) {
            throw new IllegalArgumentException("Hive table " + table + ": " + e.getMessage(), e);
        } catch (Exception e) {
            throw new IllegalArgumentException(
                    "Hive table " + table + ": its SerDe " + info.serde + " cannot write rows of " + fileType + ": "
                            + e.getMessage(),
                    e);
        }
        if (LazySimpleSerDe.class.getName().equals(info.serde)) {
            try {
                this.lazy = new LazySerDeParameters(conf, info.serdeProperties, info.serde);
            } catch (SerDeException e) {
                throw new IllegalArgumentException("Hive table " + table + ": " + e.getMessage(), e);
            }
        } else {
            this.lazy = null;
        }
        this.getters = new RowData.FieldGetter[fileType.getFieldCount()];
        for (int i = 0; i < getters.length; i++) {
            getters[i] = RowData.createFieldGetter(fileType.getTypeAt(i), i);
        }
    }

    /**
     * The records of rows of {@code fileType} (the table's columns without the partition keys).
     *
     * @param lines whether the records are lines of a text file, so that a line break inside one
     *     would split it (a SequenceFile's records can hold any bytes)
     */
    static SerDeRecords of(HiveTableInfo info, RowType fileType, boolean lines) {
        return new SerDeRecords(info, fileType, lines);
    }

    /** A row's record: the bytes the SerDe serialized. */
    byte[] serialize(RowData row) throws IOException {
        if (lazy != null) {
            for (int i = 0; i < getters.length; i++) {
                check(
                        getters[i].getFieldOrNull(row),
                        fileType.getTypeAt(i),
                        true,
                        fileType.getFieldNames().get(i));
            }
        }
        Writable record;
        try {
            List<Object> fields = new ArrayList<>(converters.length);
            for (int i = 0; i < converters.length; i++) {
                @SuppressWarnings("unchecked")
                Object external =
                        ((DataFormatConverters.DataFormatConverter<Object, Object>) converters[i]).toExternal(row, i);
                fields.add(conversions[i].toHiveObject(external));
            }
            record = serializer.serialize(fields, inspector);
        } catch (SerDeException | RuntimeException e) {
            throw new NonRecoverableException("Hive table " + table + ": its SerDe cannot write a row: " + e, e);
        }
        byte[] bytes;
        if (record instanceof Text) {
            Text text = (Text) record;
            bytes = Arrays.copyOf(text.getBytes(), text.getLength());
        } else if (record instanceof BytesWritable) {
            bytes = ((BytesWritable) record).copyBytes();
        } else {
            bytes = null;
        }
        if (bytes != null) {
            if (lines) {
                // whatever the SerDe: Hive's text reader ends a record at \n, \r and \r\n
                for (byte b : bytes) {
                    if (b == '\n' || b == '\r') {
                        throw new NonRecoverableException("Hive table " + table + ": its SerDe "
                                + serializer.getClass().getName()
                                + " wrote a record with a line break, which Hive's text reader would split;"
                                + " store the table as sequencefile, or remove the line breaks");
                    }
                }
            }
            return bytes;
        }
        throw new NonRecoverableException("Hive table " + table + ": its SerDe writes "
                + record.getClass().getName() + " records; the hive target writes text ones (Text) only");
    }

    private void check(Object value, LogicalType type, boolean topLevel, String column) throws IOException {
        if (value == null) {
            return;
        }
        if (type.is(LogicalTypeFamily.CHARACTER_STRING)) {
            checkString(value.toString(), topLevel, column);
        } else if (type instanceof ArrayType) {
            checkArray((ArrayData) value, ((ArrayType) type).getElementType(), column);
        } else if (type instanceof MultisetType) {
            checkArray(((MapData) value).keyArray(), ((MultisetType) type).getElementType(), column);
        } else if (type instanceof MapType) {
            MapData map = (MapData) value;
            checkArray(map.keyArray(), ((MapType) type).getKeyType(), column);
            checkArray(map.valueArray(), ((MapType) type).getValueType(), column);
        } else if (type instanceof RowType) {
            RowType rowType = (RowType) type;
            RowData nested = (RowData) value;
            for (int i = 0; i < rowType.getFieldCount(); i++) {
                check(
                        RowData.createFieldGetter(rowType.getTypeAt(i), i).getFieldOrNull(nested),
                        rowType.getTypeAt(i),
                        false,
                        column);
            }
        }
    }

    private void checkArray(ArrayData array, LogicalType elementType, String column) throws IOException {
        ArrayData.ElementGetter getter = ArrayData.createElementGetter(elementType);
        for (int i = 0; i < array.size(); i++) {
            check(getter.getElementOrNull(array, i), elementType, false, column);
        }
    }

    private void checkString(String value, boolean topLevel, String column) throws IOException {
        boolean[] escaped = lazy.isEscaped() ? lazy.getNeedsEscape() : new boolean[256];
        byte[] separators = lazy.getSeparators();
        // a top-level value is cut at the field separator only; a nested one at any level's
        int checked = topLevel ? 1 : separators.length;
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c >= 256 || escaped[c]) {
                continue;
            }
            if (lines && (c == '\n' || c == '\r')) {
                throw unwritable(
                        column,
                        "holds a line break, which ends the record in a text file"
                                + (lazy.isEscaped()
                                        ? " ('serialization.escape.crlf' = 'true' escapes it)"
                                        : " (give the table an 'escape.delim' and 'serialization.escape.crlf' = 'true')"));
            }
            for (int s = 0; s < checked; s++) {
                if (c == (char) (separators[s] & 0xff)) {
                    throw unwritable(
                            column,
                            "holds the separator '" + printable(String.valueOf(c))
                                    + "', which Hive writes unescaped (give the table an 'escape.delim')");
                }
            }
        }
        Text nullSequence = lazy.getNullSequence();
        if (value.equals(nullSequence.toString()) && !anyEscaped(value, escaped)) {
            throw unwritable(
                    column,
                    "equals the table's 'serialization.null.format' '" + printable(value)
                            + "' and would read back as null");
        }
    }

    private static boolean anyEscaped(String value, boolean[] escaped) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < 256 && escaped[c]) {
                return true;
            }
        }
        return false;
    }

    private NonRecoverableException unwritable(String column, String why) {
        return new NonRecoverableException("Hive table " + table + " (SerDe " + LazySimpleSerDe.class.getSimpleName()
                + "): a value of column '" + column + "' " + why + "; Hive would read back another row");
    }

    static String printable(String s) {
        StringBuilder out = new StringBuilder();
        for (char c : s.toCharArray()) {
            if (c < 0x20 || c == 0x7f) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    /** The table names a class that cannot write its records, told apart from the SerDe's own errors. */
    private static final class SerDeMismatch extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        SerDeMismatch(String message) {
            super(message);
        }
    }
}

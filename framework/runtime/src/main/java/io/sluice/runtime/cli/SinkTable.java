package io.sluice.runtime.cli;

import io.sluice.runtime.table.SluiceCatalog;
import io.sluice.spi.FileOptions;

import org.apache.flink.table.catalog.ContextResolvedTable;
import org.apache.flink.table.operations.ModifyOperation;
import org.apache.flink.table.operations.Operation;
import org.apache.flink.table.operations.SinkModifyOperation;
import org.apache.flink.table.operations.StatementSetOperation;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A table an INSERT writes to that has a {@code path} option, or whose Sluice catalog reports
 * where its files are (a Hive table's location): where to look for what the job committed. Taken from the planned operation, so that {@code /*+ OPTIONS(...) *&#47;} hints count.
 */
final class SinkTable {

    static final String PATH = FileOptions.PATH.key();
    static final String FORMAT = "format";
    static final String SUCCESS_FILE_NAME = "sink.partition-commit.success-file.name";
    static final String DEFAULT_SUCCESS_FILE_NAME = "_SUCCESS";

    private final String name;
    private final String path;
    private final String format;
    private final String successFileName;

    private SinkTable(String name, String path, String format, String successFileName) {
        this.name = name;
        this.path = path;
        this.format = format;
        this.successFileName = successFileName;
    }

    /** The file-based sink tables of an INSERT or a statement set; others are left out. */
    static List<SinkTable> of(Operation operation) {
        if (operation instanceof StatementSetOperation) {
            return of(((StatementSetOperation) operation).getOperations());
        }
        if (operation instanceof ModifyOperation) {
            return of(Collections.singletonList((ModifyOperation) operation));
        }
        return Collections.emptyList();
    }

    /** The file-based sink tables of several INSERTs. */
    static List<SinkTable> of(List<ModifyOperation> operations) {
        Map<String, SinkTable> tables = new LinkedHashMap<>();
        for (ModifyOperation op : operations) {
            if (!(op instanceof SinkModifyOperation)) {
                continue;
            }
            SinkModifyOperation sink = (SinkModifyOperation) op;
            ContextResolvedTable table = sink.getContextResolvedTable();
            Map<String, String> options = new HashMap<>(table.getResolvedTable().getOptions());
            options.putAll(sink.getDynamicOptions());
            String path = options.get(PATH);
            if (path == null || path.trim().isEmpty()) {
                // a catalog's table (a Hive table): its location, from the catalog
                path = SluiceCatalog.of(table.getCatalog().orElse(null))
                        .flatMap(catalog ->
                                catalog.filesLocation(table.getIdentifier().toObjectPath()))
                        .orElse(null);
            }
            if (path != null && !path.trim().isEmpty()) {
                String name = table.getIdentifier().asSummaryString();
                // two INSERTs into one table of a statement set: one report
                tables.putIfAbsent(
                        name + "\n" + path.trim(),
                        new SinkTable(
                                name,
                                path.trim(),
                                options.get(FORMAT),
                                options.getOrDefault(SUCCESS_FILE_NAME, DEFAULT_SUCCESS_FILE_NAME)));
            }
        }
        return new ArrayList<>(tables.values());
    }

    /** The table's full name. */
    String name() {
        return name;
    }

    /** The {@code path} option as given. */
    String path() {
        return path;
    }

    /** The {@code format} option, or {@code null}. */
    String format() {
        return format;
    }

    /** The name of the partition commit success files. */
    String successFileName() {
        return successFileName;
    }

    /** Whether the format writes one record per line, so that a line count is a record count. */
    boolean isLineFormat() {
        return "csv".equals(format) || "json".equals(format) || "text".equals(format);
    }
}

package io.sluice.plugin.filesystem;

import io.sluice.spi.FileOptions;
import io.sluice.spi.PathNames;
import io.sluice.spi.dynamic.DynamicTables;
import io.sluice.spi.dynamic.TableRequest;
import io.sluice.spi.dynamic.TableState;

import javax.annotation.Nullable;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The "tables" of a dynamic sink of the filesystem target: directories below the sink's {@code
 * path}, one per identifier, which is a relative path of one or more names joined by {@code /}.
 * They keep no metadata: every table is schemaless (each record writes with its own schema and
 * its own spec) and exists as soon as a file lands in it; a spec may hold only {@code
 * identity(column)} transforms, the partition columns of the table's {@code column=value}
 * directories. An identifier that could leave the base path ({@code ..}, an absolute path, a
 * scheme) is refused, as the single-table sink refuses such a {@code path}.
 */
final class FileSystemDynamicTables implements DynamicTables {

    private final String basePath;

    FileSystemDynamicTables(String basePath) {
        this.basePath = basePath.endsWith("/") ? basePath.substring(0, basePath.length() - 1) : basePath;
    }

    @Override
    public Optional<TableState> load(String identifier) {
        check(identifier);
        return Optional.of(TableState.schemaless(identifier, List.of()));
    }

    @Override
    public TableState create(TableRequest request) {
        check(request.identifier());
        checkSpec(request.identifier(), request.spec());
        return TableState.schemaless(request.identifier(), request.spec());
    }

    @Override
    public TableState update(TableRequest request) {
        return create(request);
    }

    @Override
    public Map<String, String> sinkOptions(
            String identifier,
            @Nullable String branch,
            List<String> spec,
            @Nullable Boolean upsert,
            List<String> equalityFields) {
        check(identifier);
        if (branch != null) {
            throw new IllegalArgumentException("Table '" + identifier + "' of the filesystem target has no branches;"
                    + " a record names branch '" + branch + "'");
        }
        if (Boolean.TRUE.equals(upsert)) {
            throw new IllegalArgumentException(
                    "Table '" + identifier + "' of the filesystem target takes appends only, not upserts");
        }
        checkSpec(identifier, spec);
        return Map.of(FileOptions.PATH.key(), basePath + "/" + identifier);
    }

    /** Each name of the identifier is one path segment that no path parser splits or climbs out of. */
    private static void check(String identifier) {
        String problem = identifier.isEmpty() ? "must not be empty" : null;
        if (problem == null) {
            for (String name : identifier.split("/", -1)) {
                problem = PathNames.nameProblem(name);
                if (problem != null) {
                    problem = "has the name '" + name + "', which " + problem;
                    break;
                }
            }
        }
        if (problem != null) {
            throw new IllegalArgumentException("Invalid table identifier '" + PathNames.escape(identifier)
                    + "' of the filesystem target: a relative path of names joined by '/' below the sink's 'path';"
                    + " it " + problem);
        }
    }

    private static void checkSpec(String identifier, List<String> spec) {
        for (String transform : spec) {
            String t = transform.replace(" ", "");
            if (!(t.regionMatches(true, 0, "identity(", 0, "identity(".length())
                    && t.endsWith(")")
                    && t.length() > "identity()".length())) {
                throw new IllegalArgumentException("Table '" + identifier + "' of the filesystem target cannot be"
                        + " partitioned by '" + transform + "': its partitions are directories of column values,"
                        + " so a spec holds identity(column) transforms only");
            }
        }
    }
}

package io.sluice.plugin.iceberg;

import io.sluice.spi.PathNames;
import io.sluice.spi.dynamic.DynamicTables;
import io.sluice.spi.dynamic.TableRequest;
import io.sluice.spi.dynamic.TableState;

import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.UpdatePartitionSpec;
import org.apache.iceberg.UpdateSchema;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.expressions.Term;
import org.apache.iceberg.flink.FlinkSchemaUtil;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

import javax.annotation.Nullable;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The Iceberg tables of a dynamic sink, in the catalog of the sink's options; an identifier is
 * {@code database.table}, each one path segment (as {@code catalog-database} and {@code
 * catalog-table}: a Hadoop catalog makes directories of them). A table's state shows its current
 * schema only, because the iceberg target writes every row with the table's current schema: a
 * record of an older schema is padded to it (its missing columns are optional), never written
 * with the older one. Its partition specs are all of its specs, as Iceberg's transforms in the
 * dynamic record's syntax ({@code identity(c)}, {@code bucket(16, c)}, {@code truncate(4, c)},
 * {@code years(c)}, {@code months(c)}, {@code days(c)}, {@code hours(c)}); rows are written with the
 * current one. Changes to a table commit with retries against the refreshed table, since several
 * subtasks may change it at once.
 */
final class IcebergDynamicTables implements DynamicTables {

    private static final int COMMIT_ATTEMPTS = 10;

    /**
     * Set in the options of a dynamic sink's table: its writer pads rows to the table's current
     * columns ({@code WriteSchemas#padding}), since the table may evolve between routing and
     * writing. The framework's, never a user's: it reaches no SQL table.
     */
    static final org.apache.flink.configuration.ConfigOption<Boolean> DYNAMIC_TABLE =
            org.apache.flink.configuration.ConfigOptions.key("sluice.dynamic-table")
                    .booleanType()
                    .defaultValue(false)
                    .withDescription("Internal: the table is written by a dynamic sink.");

    private final Catalog catalog;

    IcebergDynamicTables(ReadableConfig options) {
        this.catalog = IcebergCatalogs.open(options);
    }

    /** {@code database.table}, each name one path segment. */
    static TableIdentifier identifier(String identifier) {
        int dot = identifier.indexOf('.');
        if (dot <= 0 || dot == identifier.length() - 1 || identifier.indexOf('.', dot + 1) >= 0) {
            throw new IllegalArgumentException("Invalid Iceberg table identifier '" + PathNames.escape(identifier)
                    + "': a dynamic sink names a table as database.table");
        }
        String database = identifier.substring(0, dot);
        String table = identifier.substring(dot + 1);
        for (String name : List.of(database, table)) {
            String problem = PathNames.nameProblem(name);
            if (problem != null) {
                throw new IllegalArgumentException("Invalid Iceberg table identifier '" + PathNames.escape(identifier)
                        + "': '" + PathNames.escape(name) + "' " + problem);
            }
        }
        return TableIdentifier.of(Namespace.of(database), table);
    }

    @Override
    public Optional<TableState> load(String identifier) {
        TableIdentifier id = identifier(identifier);
        try {
            return Optional.of(state(identifier, catalog.loadTable(id)));
        } catch (NoSuchTableException missing) {
            return Optional.empty();
        }
    }

    @Override
    public TableState create(TableRequest request) {
        TableIdentifier id = identifier(request.identifier());
        Schema schema = CatalogTable.schema(id, request.schema(), request.equalityFields());
        PartitionSpec spec = spec(request.identifier(), schema, request.spec());
        CatalogTable.createNamespace(catalog, id);
        try {
            Catalog.TableBuilder builder =
                    catalog.buildTable(id, schema).withPartitionSpec(spec).withProperties(request.properties());
            if (request.location().isPresent()) {
                builder = builder.withLocation(request.location().get());
            }
            return state(request.identifier(), builder.create());
        } catch (AlreadyExistsException concurrentlyCreated) {
            return state(request.identifier(), catalog.loadTable(id));
        }
    }

    @Override
    public TableState update(TableRequest request) {
        TableIdentifier id = identifier(request.identifier());
        CommitFailedException last = null;
        for (int attempt = 0; attempt < COMMIT_ATTEMPTS; attempt++) {
            Table table = catalog.loadTable(id);
            try {
                evolveSchema(request, table);
                table.refresh();
                evolveSpec(request, table);
                table.refresh();
                return state(request.identifier(), table);
            } catch (CommitFailedException conflict) {
                last = conflict; // another subtask changed the table meanwhile: again, against it
            }
        }
        throw new IllegalStateException(
                "Table " + request.identifier() + " could not be changed in " + COMMIT_ATTEMPTS + " attempts: "
                        + last.getMessage(),
                last);
    }

    /** Adds, widens, makes optional and drops columns by name so the table takes the request's schema. */
    private static void evolveSchema(TableRequest request, Table table) {
        Schema current = table.schema();
        Schema wanted = FlinkSchemaUtil.convert(FlinkSchemaUtil.toResolvedSchema(request.schema()));
        UpdateSchema update = table.updateSchema();
        boolean changed = false;
        for (Types.NestedField field : wanted.columns()) {
            Types.NestedField existing = current.findField(field.name());
            if (existing == null) {
                update.addColumn(field.name(), field.type(), field.doc());
                changed = true;
                continue;
            }
            if (!existing.type().equals(field.type())) {
                if (!existing.type().isPrimitiveType() || !field.type().isPrimitiveType()) {
                    throw new IllegalArgumentException(
                            "Table " + request.identifier() + " cannot change nested column '" + field.name()
                                    + "' from " + existing.type() + " to " + field.type());
                }
                update.updateColumn(field.name(), (Type.PrimitiveType) field.type());
                changed = true;
            }
            if (existing.isRequired() && field.isOptional()) {
                update.makeColumnOptional(field.name());
                changed = true;
            }
        }
        for (Types.NestedField field : current.columns()) {
            if (wanted.findField(field.name()) == null) {
                update.deleteColumn(field.name());
                changed = true;
            }
        }
        if (changed) {
            try {
                update.commit();
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(
                        "Table " + request.identifier() + " cannot take schema " + request.schema() + ": "
                                + e.getMessage(),
                        e);
            }
        }
    }

    /** Makes the current spec's fields the request's: those it lacks removed, the new ones added. */
    private static void evolveSpec(TableRequest request, Table table) {
        String identifier = request.identifier();
        List<String> wanted = normalized(identifier, request.spec());
        spec(identifier, table.schema(), request.spec()); // checks every transform first
        UpdatePartitionSpec update = table.updateSpec();
        boolean changed = false;
        List<String> kept = new ArrayList<>();
        for (PartitionField field : table.spec().fields()) {
            Optional<String> one = transform(table.schema(), field);
            if (one.isEmpty()) {
                continue;
            }
            String existing = normalized(identifier, List.of(one.get())).get(0);
            if (wanted.contains(existing)) {
                kept.add(existing);
            } else {
                update.removeField(field.name());
                changed = true;
            }
        }
        for (int i = 0; i < request.spec().size(); i++) {
            if (!kept.contains(wanted.get(i))) {
                update.addField(term(identifier, request.spec().get(i)));
                changed = true;
            }
        }
        if (changed) {
            update.commit();
        }
    }

    private static TableState state(String identifier, Table table) {
        Schema schema = table.schema();
        RowType rowType = FlinkSchemaUtil.convert(schema);
        Map<Integer, List<String>> specs = new HashMap<>();
        for (Map.Entry<Integer, PartitionSpec> spec : table.specs().entrySet()) {
            specs.put(spec.getKey(), transforms(schema, spec.getValue()));
        }
        return new TableState(
                identifier,
                Map.of(schema.schemaId(), rowType),
                schema.schemaId(),
                specs,
                table.spec().specId());
    }

    /** A spec's fields in the dynamic record's syntax. */
    static List<String> transforms(Schema schema, PartitionSpec spec) {
        List<String> transforms = new ArrayList<>();
        for (PartitionField field : spec.fields()) {
            transform(schema, field).ifPresent(transforms::add);
        }
        return transforms;
    }

    /**
     * One field in the dynamic record's syntax; none for a removed field (format v1 keeps it as
     * void) or one whose column was dropped.
     */
    private static Optional<String> transform(Schema schema, PartitionField field) {
        String column = schema.findColumnName(field.sourceId());
        if (column == null || field.transform().isVoid()) {
            return Optional.empty();
        }
        String transform = field.transform().toString();
        if (transform.startsWith("bucket[") || transform.startsWith("truncate[")) {
            int open = transform.indexOf('[');
            return Optional.of(transform.substring(0, open) + "("
                    + transform.substring(open + 1, transform.length() - 1) + ", " + column + ")");
        }
        if (transform.equals("year")
                || transform.equals("month")
                || transform.equals("day")
                || transform.equals("hour")) {
            return Optional.of(transform + "s(" + column + ")");
        }
        return Optional.of(transform + "(" + column + ")");
    }

    private static PartitionSpec spec(String identifier, Schema schema, List<String> transforms) {
        PartitionSpec.Builder builder = PartitionSpec.builderFor(schema);
        for (String transform : transforms) {
            Parsed p = parse(identifier, transform);
            try {
                switch (p.name) {
                    case "identity":
                        builder.identity(p.column);
                        break;
                    case "bucket":
                        builder.bucket(p.column, p.argument);
                        break;
                    case "truncate":
                        builder.truncate(p.column, p.argument);
                        break;
                    case "years":
                        builder.year(p.column);
                        break;
                    case "months":
                        builder.month(p.column);
                        break;
                    case "days":
                        builder.day(p.column);
                        break;
                    default:
                        builder.hour(p.column);
                }
            } catch (IllegalArgumentException | org.apache.iceberg.exceptions.ValidationException e) {
                throw new IllegalArgumentException(
                        "Table " + identifier + " cannot be partitioned by '" + transform + "': " + e.getMessage(), e);
            }
        }
        return builder.build();
    }

    private static Term term(String identifier, String transform) {
        Parsed p = parse(identifier, transform);
        switch (p.name) {
            case "identity":
                return Expressions.ref(p.column);
            case "bucket":
                return Expressions.bucket(p.column, p.argument);
            case "truncate":
                return Expressions.truncate(p.column, p.argument);
            case "years":
                return Expressions.year(p.column);
            case "months":
                return Expressions.month(p.column);
            case "days":
                return Expressions.day(p.column);
            default:
                return Expressions.hour(p.column);
        }
    }

    /** A transform of the dynamic record's syntax, checked. */
    private static final class Parsed {
        final String name;
        final String column;
        final int argument;

        Parsed(String name, String column, int argument) {
            this.name = name;
            this.column = column;
            this.argument = argument;
        }
    }

    private static Parsed parse(String identifier, String transform) {
        String t = transform.replace(" ", "");
        int open = t.indexOf('(');
        if (open <= 0 || !t.endsWith(")")) {
            throw unknown(identifier, transform);
        }
        String name = t.substring(0, open).toLowerCase(Locale.ROOT);
        String[] args = t.substring(open + 1, t.length() - 1).split(",");
        name = name.equals("year") || name.equals("month") || name.equals("day") || name.equals("hour")
                ? name + "s"
                : name;
        switch (name) {
            case "identity":
            case "years":
            case "months":
            case "days":
            case "hours":
                if (args.length != 1) {
                    throw unknown(identifier, transform);
                }
                return new Parsed(name, args[0], 0);
            case "bucket":
            case "truncate":
                if (args.length != 2) {
                    throw unknown(identifier, transform);
                }
                try {
                    int argument = Integer.parseInt(args[0]);
                    if (argument <= 0) {
                        throw unknown(identifier, transform);
                    }
                    return new Parsed(name, args[1], argument);
                } catch (NumberFormatException e) {
                    throw unknown(identifier, transform);
                }
            default:
                throw unknown(identifier, transform);
        }
    }

    private static IllegalArgumentException unknown(String identifier, String transform) {
        return new IllegalArgumentException("Table " + identifier + " has partition transform '" + transform
                + "', which Iceberg does not know: identity(c), bucket(n, c), truncate(w, c), years(c), months(c),"
                + " days(c) or hours(c)");
    }

    private static List<String> normalized(String identifier, List<String> spec) {
        List<String> out = new ArrayList<>();
        for (String t : spec) {
            Parsed p = parse(identifier, t);
            out.add(p.name + "(" + p.argument + "," + p.column + ")");
        }
        return out;
    }

    @Override
    public Map<String, String> sinkOptions(
            String identifier,
            @Nullable String branch,
            List<String> spec,
            @Nullable Boolean upsert,
            List<String> equalityFields) {
        TableIdentifier id = identifier(identifier);
        Map<String, String> options = new HashMap<>();
        options.put(IcebergOptions.CATALOG_DATABASE.key(), id.namespace().level(0));
        options.put(IcebergOptions.CATALOG_TABLE.key(), id.name());
        options.put(DYNAMIC_TABLE.key(), "true");
        if (branch != null) {
            options.put(IcebergOptions.BRANCH.key(), branch);
        }
        if (upsert != null) {
            options.put(IcebergOptions.UPSERT_ENABLED.key(), upsert.toString());
        }
        return options;
    }

    @Override
    public void close() {
        CatalogTable.closeQuietly(catalog);
    }
}

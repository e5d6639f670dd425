package io.sluice.plugin.iceberg;

import io.sluice.spi.Payload;

import org.apache.flink.table.expressions.ResolvedExpression;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.ExpressionParser;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.flink.FlinkFilters;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

/**
 * The query filters an Iceberg read uses to skip files: those of a {@code WHERE} clause that
 * upstream's {@link FlinkFilters} can express in Iceberg, joined by {@code and}, travelling as
 * Iceberg's own JSON form of an expression (version 1). The scan prunes partitions and files by
 * them; Flink still filters the rows.
 */
final class PushedFilters {

    static final int VERSION = 1;

    private PushedFilters() {}

    /** The filters Iceberg can express, as one payload; empty when it can express none. */
    static Optional<Payload> of(List<ResolvedExpression> filters) {
        Expression all = Expressions.alwaysTrue();
        boolean any = false;
        for (ResolvedExpression filter : filters) {
            Optional<Expression> converted = FlinkFilters.convert(filter);
            if (converted.isPresent()) {
                all = Expressions.and(all, converted.get());
                any = true;
            }
        }
        return any
                ? Optional.of(new Payload(VERSION, ExpressionParser.toJson(all).getBytes(StandardCharsets.UTF_8)))
                : Optional.empty();
    }

    /**
     * The expression of a payload {@link #of} made.
     *
     * @throws IllegalArgumentException for a payload of another version
     */
    static Expression expression(Payload payload) {
        // not state: the payload goes from the planner to the tasks of the same job in its job graph
        switch (payload.version()) {
            case 1:
                return ExpressionParser.fromJson(new String(payload.bytes(), StandardCharsets.UTF_8));
            default:
                throw new IllegalArgumentException("Cannot read pushed Iceberg filters of version " + payload.version()
                        + ": this plugin reads version 1");
        }
    }
}

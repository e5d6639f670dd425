/**
 * Tables a dynamic sink creates, evolves and writes as its records name them: one sink, any
 * number of tables of one target. The framework routes the records, matches their schemas to the
 * tables' and writes and commits each table with the target's single-table writer and committer;
 * a target says here how its tables are found, created and changed ({@link
 * io.sluice.spi.dynamic.DynamicTables}).
 *
 * <p>Every type here is {@link io.sluice.spi.Experimental}.
 *
 * @since 2.3.0
 */
package io.sluice.spi.dynamic;

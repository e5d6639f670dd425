/**
 * Temporal joins of Sluice tables ({@code JOIN t FOR SYSTEM_TIME AS OF o.proctime}): {@link
 * io.sluice.runtime.source.lookup.SluiceLookupFunction}, the Flink {@code LookupFunction} of both
 * table sources, keeps on each join subtask a {@link io.sluice.runtime.source.lookup.LookupCache}
 * of the whole table, indexed by the join key ({@link io.sluice.runtime.source.lookup.LookupKeys})
 * and read again when its reload interval has passed. What reads the table is a {@link
 * io.sluice.runtime.source.lookup.TableLoader}: {@code ScanTableLoader} of the scan source (the
 * target's planner and split reader) or {@code FileTableLoader} of the file source (its enumerator
 * and format). {@link io.sluice.runtime.source.lookup.LookupPlanner} decides, on the client, the
 * keys and the reload interval.
 */
package io.sluice.runtime.source.lookup;

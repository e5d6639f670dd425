/**
 * Adapters from a job's own record types to the {@link org.apache.flink.table.data.RowData} a
 * Sluice sink takes (ARCHITECTURE.md, rule 6): Flink {@code Row}s, POJOs and Avro {@code
 * GenericRecord}s. {@link io.sluice.runtime.adapt.RowAdapters} makes them; the Avro one is made by
 * {@link io.sluice.runtime.adapt.AvroAdapters}, the only class of the framework whose signatures
 * name an Avro type.
 *
 * <p>Conversions run in the job's operators, against the job's classes: the Avro adapter uses the
 * job's own Avro, whatever its version, and never a plugin's, so the two meet nowhere. The
 * framework bundles no Avro; the classes of {@code io.sluice.runtime.adapt.avro} are compiled
 * against Avro and, when the framework's class loader cannot see the job's Avro (the framework
 * in Flink's {@code lib/}, Avro in the job jar), are defined once more in a loader below the job's
 * (see {@code JobClassBridge}).
 */
package io.sluice.runtime.adapt;

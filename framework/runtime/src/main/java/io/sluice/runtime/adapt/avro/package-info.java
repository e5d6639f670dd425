/**
 * The Avro side of {@link io.sluice.runtime.adapt.AvroAdapters}: schema to row type, record to row.
 * Compiled against Avro, which the framework does not bundle; only loaded by name, so that it links
 * to the job's Avro (see {@code io.sluice.runtime.adapt.JobClassBridge}). Uses nothing of Avro
 * newer than 1.10.
 */
package io.sluice.runtime.adapt.avro;

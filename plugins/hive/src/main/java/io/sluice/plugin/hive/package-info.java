/**
 * The {@code hive} plugin: Hive tables through a Hive metastore. Upstream's Hive connector
 * (its {@code HiveCatalog} and metastore client), Hive 3.1.3, Hadoop and, for an embedded
 * metastore, DataNucleus and Derby, all live in this plugin's zip and class loader; Flink sees
 * only the framework's catalog wrapper.
 */
package io.sluice.plugin.hive;

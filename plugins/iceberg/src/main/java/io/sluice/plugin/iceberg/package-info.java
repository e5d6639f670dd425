/**
 * The iceberg plugin: the {@code iceberg} target ({@link io.sluice.plugin.iceberg.IcebergTargetFactory}),
 * writing Iceberg tables of an Iceberg catalog with Iceberg's own Flink task writers, and its scan
 * source ({@link io.sluice.plugin.iceberg.IcebergScanSourceFactory}), reading them with Iceberg's own
 * Flink split planning and readers (the non-shaded {@code iceberg-flink-1.20}, bundled with
 * Iceberg's core, Parquet, ORC, Avro and Hadoop libraries, so that none of them reaches a job's
 * class path).
 *
 * <p>The write path: each subtask's {@code IcebergTargetWriter} closes all its files at every
 * checkpoint and hands them over listed in manifests carried in the payload ({@code PendingFiles};
 * only one too large for it is written as a temporary file); the
 * framework merges all writers' pending files of a checkpoint into one request; the {@code
 * IcebergTargetCommitter} commits them as one snapshot whose summary records job, sink operator
 * and checkpoint ({@code CommittedCheckpoints}), and finds that record again when a request is
 * handed over a second time, so a retried or replayed commit is a no-op.
 *
 * <p>Write modes: append; upsert ({@code upsert-enabled} or table property {@code
 * write.upsert.enabled}; Iceberg's delta writers with the primary key or the table's identifier
 * fields as equality fields, committed as a row delta, checked by {@code UpsertKeys}); overwrite
 * (SQL {@code INSERT OVERWRITE} or {@code overwrite-enabled}; a dynamic partition overwrite).
 * Writer and committer report upstream's metrics ({@code WriterMetrics}, {@code
 * CommitterMetrics}); {@code snapshot-properties} adds to every snapshot's summary.
 *
 * <p>The read path ({@link io.sluice.plugin.iceberg.IcebergScanSourceFactory}, the framework's scan
 * source SPI): upstream's split planning on the JobManager, {@code IcebergScanPlanner} for a bounded
 * scan and {@code IcebergContinuousScanPlanner} over upstream's continuous planner (its enumerator
 * position is reached through {@code org.apache.iceberg.flink.source.enumerator.SluiceSplitPlanning},
 * as upstream keeps it package-private); upstream's split serialization ({@code ScanSplits}); and
 * upstream's row readers, delete files applied, on the tasks ({@code IcebergScanSplitReader}).
 * Read options are upstream's ({@code IcebergReadOptions}), resolved by upstream's {@code
 * ScanContext} ({@code ReadSettings}); the source's columns are a projection of the table's in the
 * source's order ({@code ReadSchemas}).
 *
 * <p>Options keep the names of Iceberg's Flink connector ({@link io.sluice.plugin.iceberg.IcebergOptions});
 * write options are resolved by Iceberg's own {@code FlinkWriteConf}, so they take precedence over
 * the table's properties as upstream's do.
 */
package io.sluice.plugin.iceberg;

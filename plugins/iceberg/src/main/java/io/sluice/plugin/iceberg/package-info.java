/**
 * The iceberg plugin: the {@code iceberg} target ({@link io.sluice.plugin.iceberg.IcebergTargetFactory}),
 * writing Iceberg tables of an Iceberg catalog with Iceberg's own Flink task writers (the
 * non-shaded {@code iceberg-flink-1.20}, bundled with Iceberg's core, Parquet, ORC, Avro and
 * Hadoop libraries, so that none of them reaches a job's class path).
 *
 * <p>The write path: each subtask's {@code IcebergTargetWriter} closes all its files at every
 * checkpoint and hands them over listed in temporary manifests ({@code PendingFiles}); the
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
 * <p>Options keep the names of Iceberg's Flink connector ({@link io.sluice.plugin.iceberg.IcebergOptions});
 * write options are resolved by Iceberg's own {@code FlinkWriteConf}, so they take precedence over
 * the table's properties as upstream's do.
 */
package io.sluice.plugin.iceberg;

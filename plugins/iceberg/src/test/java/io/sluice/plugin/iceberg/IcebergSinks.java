package io.sluice.plugin.iceberg;

import io.sluice.testkit.TestSinkContext;

import org.apache.flink.table.types.logical.RowType;

import java.nio.file.Path;

/**
 * The testkit's {@link TestSinkContext} as this plugin's unit tests use it: table {@code db.t} of
 * a Hadoop catalog in a local warehouse, written by subtask 0 of 2 of job {@link #JOB}.
 */
final class IcebergSinks {

    /** The job id of every context. */
    static final String JOB = "0000000000000000000000000000000a";

    private IcebergSinks() {}

    /** Table {@code db.t} of a Hadoop catalog in {@code warehouse}, rows of {@code rowType}. */
    static TestSinkContext.Builder hadoop(Path warehouse, RowType rowType) {
        return TestSinkContext.builder(rowType)
                .jobId(JOB)
                .subtask(0, 2)
                .option("catalog-type", "hadoop")
                .option("warehouse", warehouse.toUri().toString())
                .option("catalog-database", "db")
                .option("catalog-table", "t");
    }
}

package io.sluice.plugin.iceberg;

import io.sluice.spi.sink.TargetFactory;
import io.sluice.testkit.TargetConformance;

import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.CloseableIterable;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The iceberg target against Sluice's target kit: table {@code db.t} of a Hadoop catalog in the
 * check's directory, created by the target when the sink is validated, read back with Iceberg's
 * generic reader.
 */
class IcebergTargetConformanceTest extends TargetConformance {

    @Override
    protected TargetFactory targetFactory() {
        return new IcebergTargetFactory();
    }

    @Override
    protected Map<String, String> sinkOptions(Path dir) {
        return Map.of(
                "catalog-type",
                "hadoop",
                "warehouse",
                dir.toUri().toString(),
                "catalog-database",
                "db",
                "catalog-table",
                "t");
    }

    @Override
    protected List<String> committedRows(Path dir, Map<String, String> options) throws Exception {
        List<String> rows = new ArrayList<>();
        try (HadoopCatalog catalog = new HadoopCatalog(
                new org.apache.hadoop.conf.Configuration(), dir.toUri().toString())) {
            TableIdentifier id = TableIdentifier.of("db", "t");
            if (!catalog.tableExists(id)) {
                return rows;
            }
            Table table = catalog.loadTable(id);
            try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
                for (Record r : records) {
                    rows.add(r.getField("id") + "," + r.getField("name"));
                }
            }
        }
        return rows;
    }
}

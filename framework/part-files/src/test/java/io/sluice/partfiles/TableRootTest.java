package io.sluice.partfiles;

import org.apache.flink.core.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The last guard of every commit: paths below the table's root only. */
class TableRootTest {

    @TempDir
    java.nio.file.Path tmp;

    @Test
    void theOverwriteCheckResolvesDotSegmentsAndComparesWholeSegments() {
        TableRoot root = new TableRoot(new Path(tmp.resolve("t").toUri()));
        String t = tmp.resolve("t").toUri().toString();
        assertThat(root.isBelow(new Path(t))).isTrue();
        assertThat(root.isBelow(new Path(t + "/dt=a/part-0"))).isTrue();
        assertThat(root.isBelow(new Path(t + "/../orders/part-0"))).isFalse();
        assertThat(root.isBelow(new Path(tmp.resolve("t2").toUri()))).isFalse();
        assertThat(root.isBelow(new Path(tmp.toUri()))).isFalse();
    }

    @Test
    void aPathOutsideIsRefusedNamingIt() {
        TableRoot root = new TableRoot(new Path(tmp.resolve("t").toUri()));
        Path outside = new Path(tmp.resolve("orders").resolve("part-0").toUri());
        assertThatThrownBy(() -> root.check(outside, "delete"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Refusing to delete")
                .hasMessageContaining("orders");
    }
}

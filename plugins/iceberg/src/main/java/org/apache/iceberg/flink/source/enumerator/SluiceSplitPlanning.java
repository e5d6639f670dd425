package org.apache.iceberg.flink.source.enumerator;

import org.apache.iceberg.flink.source.split.IcebergSourceSplit;

import javax.annotation.Nullable;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The Sluice iceberg plugin's access to upstream's continuous split planning with serialized
 * positions. It lives in upstream's package because the position ({@code
 * IcebergEnumeratorPosition}), its serializer and the planning result are package-private: upstream
 * only uses them from its own enumerator. Nothing else of upstream is changed or copied.
 *
 * <p>The plugin's class loader loads this class together with iceberg-flink ({@code org.apache.iceberg}
 * is never taken from the framework or the cluster), so both are in the same runtime package.
 */
public final class SluiceSplitPlanning {

    private SluiceSplitPlanning() {}

    /** The version of the positions {@link #plan} returns. */
    public static int positionVersion() {
        return IcebergEnumeratorPositionSerializer.INSTANCE.getVersion();
    }

    /**
     * Plans the splits after a position.
     *
     * @param position the serialized position of the previous plan, null for the first
     * @param version the serializer version of {@code position}
     * @throws IOException if the position cannot be read
     */
    public static Result plan(ContinuousSplitPlanner planner, @Nullable byte[] position, int version)
            throws IOException {
        IcebergEnumeratorPosition last =
                position == null ? null : IcebergEnumeratorPositionSerializer.INSTANCE.deserialize(version, position);
        ContinuousEnumerationResult result = planner.planSplits(last);
        return new Result(
                new ArrayList<>(result.splits()),
                IcebergEnumeratorPositionSerializer.INSTANCE.serialize(result.toPosition()),
                String.valueOf(result.toPosition()));
    }

    /**
     * The splits of one plan and the position after them.
     *
     * @param position serialized, of version {@link #positionVersion()}
     * @param description the position for people (the snapshot), for logs
     */
    public record Result(List<IcebergSourceSplit> splits, byte[] position, String description) {}
}

package io.sluice.it.chaos;

import io.sluice.spi.partition.PartitionTimeExtractor;
import io.sluice.spi.partition.PartitionTimeExtractorFactory;
import io.sluice.spi.sink.SinkContext;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.LocalDateTime;
import java.util.List;

/**
 * Test plugin: a partition time extractor ({@code 'partition.time-extractor.class' =
 * 'chaos-failing-extractor'}) that puts every partition at the epoch and fails once, the first
 * time it is asked (a marker file under {@code chaos.marker-dir} remembers it). The commit
 * aggregator asks it when the trigger is {@code partition-time}: a failure inside the aggregator,
 * while it holds pending files, waiting partitions and compaction units.
 */
@org.pf4j.Extension
public class ChaosTimeExtractorFactory implements PartitionTimeExtractorFactory {

    @Override
    public String identifier() {
        return "chaos-failing-extractor";
    }

    @Override
    public PartitionTimeExtractor create(SinkContext context) {
        Path marker =
                Paths.get(context.options().get(ChaosTargetFactory.MARKER_DIR)).resolve("aggregator-failed");
        return new PartitionTimeExtractor() {
            @Override
            public LocalDateTime extract(List<String> partitionKeys, List<String> partitionValues) {
                if (!Files.exists(marker)) {
                    try {
                        Files.createDirectories(marker.getParent());
                        Files.createFile(marker);
                    } catch (FileAlreadyExistsException another) {
                        return LocalDateTime.of(1970, 1, 1, 0, 0);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                    throw new IllegalStateException("chaos: injected failure in the commit aggregator, extracting the"
                            + " time of partition " + partitionValues);
                }
                return LocalDateTime.of(1970, 1, 1, 0, 0);
            }
        };
    }
}

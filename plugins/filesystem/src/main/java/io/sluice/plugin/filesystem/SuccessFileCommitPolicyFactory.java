package io.sluice.plugin.filesystem;

import io.sluice.spi.PathNames;
import io.sluice.spi.partition.CommitPolicy;
import io.sluice.spi.partition.CommitPolicyFactory;
import io.sluice.spi.sink.SinkContext;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import org.pf4j.Extension;

import java.util.Collections;
import java.util.Set;

/**
 * {@code success-file}: writes an empty {@code sink.partition-commit.success-file.name} (default
 * {@code _SUCCESS}) into a finished partition. Overwriting makes it idempotent.
 */
@Extension
public final class SuccessFileCommitPolicyFactory implements CommitPolicyFactory {

    @Override
    public String identifier() {
        return "success-file";
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        return Collections.singleton(FileSystemOptions.SUCCESS_FILE_NAME);
    }

    @Override
    public CommitPolicy create(SinkContext context) {
        String name = context.options().get(FileSystemOptions.SUCCESS_FILE_NAME);
        // one name inside the partition directory ('_SUCCESS', '.done' ...); a ':' used to pass
        // here and fail the job after its data was committed
        PathNames.checkName(FileSystemOptions.SUCCESS_FILE_NAME.key(), name);
        return ctx -> {
            Path file = new Path(ctx.partitionLocation(), name);
            FileSystem.get(file.toUri())
                    .create(file, FileSystem.WriteMode.OVERWRITE)
                    .close();
        };
    }
}

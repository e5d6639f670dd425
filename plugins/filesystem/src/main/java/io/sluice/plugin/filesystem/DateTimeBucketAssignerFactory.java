package io.sluice.plugin.filesystem;

import io.sluice.partfiles.VisibleFiles;
import io.sluice.spi.PathNames;
import io.sluice.spi.sink.BucketAssigner;
import io.sluice.spi.sink.BucketAssignerFactory;
import io.sluice.spi.sink.SinkContext;

import org.apache.flink.configuration.ConfigOption;
import org.pf4j.Extension;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

/**
 * {@code date-time}: one bucket per period of processing time, named by {@code
 * sink.bucket-assigner.date-time.format} (default {@code yyyy-MM-dd--HH}) in {@code
 * sink.bucket-assigner.date-time.time-zone} (default: the JVM's), like Flink's
 * DateTimeBucketAssigner.
 */
@Extension
public final class DateTimeBucketAssignerFactory implements BucketAssignerFactory {

    @Override
    public String identifier() {
        return "date-time";
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        return new HashSet<>(Arrays.asList(FileSystemOptions.DATE_TIME_FORMAT, FileSystemOptions.DATE_TIME_ZONE));
    }

    @Override
    public BucketAssigner create(SinkContext context) {
        String pattern = context.options().get(FileSystemOptions.DATE_TIME_FORMAT);
        String zoneId = context.options()
                .getOptional(FileSystemOptions.DATE_TIME_ZONE)
                .orElse(ZoneId.systemDefault().getId());
        ZoneId zone;
        try {
            zone = ZoneId.of(zoneId);
        } catch (DateTimeException e) {
            throw new IllegalArgumentException(
                    "Invalid '" + FileSystemOptions.DATE_TIME_ZONE.key() + "' '" + zoneId
                            + "': not a time zone id such as 'UTC' or 'Europe/Berlin'",
                    e);
        }
        DateTimeFormatter formatter;
        try {
            formatter = DateTimeFormatter.ofPattern(pattern).withZone(zone);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "Invalid '" + FileSystemOptions.DATE_TIME_FORMAT.key() + "' '" + pattern + "': " + e.getMessage(),
                    e);
        }
        checkDirectories(pattern, formatter);
        return (row, ctx) -> formatter.format(Instant.ofEpochMilli(ctx.currentProcessingTime()));
    }

    /**
     * The pattern's output is the bucket's directory path below the base path: each of its
     * segments must be a visible directory name. Times differ only in their digits and names, so a
     * sample time shows what every bucket will look like.
     */
    private static void checkDirectories(String pattern, DateTimeFormatter formatter) {
        String sample = formatter.format(Instant.parse("2024-12-31T23:59:58.123Z"));
        String option = FileSystemOptions.DATE_TIME_FORMAT.key();
        if (sample.startsWith("/") || sample.endsWith("/")) {
            throw PathNames.invalid(
                    option,
                    pattern,
                    "makes directories like '" + sample + "', which must be relative to"
                            + " 'path' and not end with '/'");
        }
        for (String segment : sample.split("/", -1)) {
            String problem = PathNames.nameProblem(segment);
            if (problem != null) {
                throw PathNames.invalid(
                        option,
                        pattern,
                        "makes directories like '" + sample + "': segment '" + PathNames.escape(segment) + "' "
                                + problem);
            }
            if (!VisibleFiles.isVisibleName(segment)) {
                throw PathNames.invalid(
                        option,
                        pattern,
                        "makes directories like '" + sample + "': '" + segment
                                + "' starts with '.' or '_' and would be hidden from every reader");
            }
        }
    }
}

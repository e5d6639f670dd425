package io.sluice.testshared.campaign;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;

/**
 * One line per campaign run in {@code target/campaign-runs.tsv} (target, seed, schedule, failures
 * injected, rows expected, rows lost, duplicates): what the README's soak table is counted from.
 */
public final class CampaignLog {

    private CampaignLog() {}

    public static void record(
            String target, CampaignSchedule schedule, int injected, long expected, long lost, long duplicates) {
        Path file = Paths.get("target", "campaign-runs.tsv");
        String line = target
                + '\t'
                + schedule.seed
                + '\t'
                + schedule
                + '\t'
                + injected
                + '\t'
                + expected
                + '\t'
                + lost
                + '\t'
                + duplicates
                + '\n';
        try {
            Files.createDirectories(file.getParent());
            Files.write(
                    file, line.getBytes(StandardCharsets.UTF_8), StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        System.out.println("campaign " + target + " " + schedule + ": injected " + injected + ", rows " + expected
                + ", lost " + lost + ", duplicates " + duplicates);
    }
}

package io.sluice.runtime.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What an INSERT committed, per file-based sink table: the visible files under its path with their
 * sizes, which of them are new since the job started, totals, and for line-based formats the line
 * count (the record count). Listing before and after the job tells this run's files apart from
 * earlier runs' in the same directory.
 */
final class CommitReport {

    /** Beyond this many files per table only the totals are useful. */
    private static final int MAX_LISTED = 50;

    private final Map<SinkTable, OutputListing> before;

    private CommitReport(Map<SinkTable, OutputListing> before) {
        this.before = before;
    }

    /** Takes the listings to compare with once the job has ended. */
    static CommitReport before(List<SinkTable> tables, PrintStream out) {
        Map<SinkTable, OutputListing> listings = new LinkedHashMap<>();
        for (SinkTable table : tables) {
            try {
                listings.put(table, OutputListing.scan(table.path(), table.successFileName()));
            } catch (IOException | RuntimeException e) {
                // the report is a courtesy: it must not stop the INSERT
                out.println("  (cannot list " + table.path() + " before the job: " + e.getMessage() + ")");
            }
        }
        return new CommitReport(listings);
    }

    /** Lists every table again and prints what is there now. */
    void print(PrintStream out) {
        for (Map.Entry<SinkTable, OutputListing> e : before.entrySet()) {
            SinkTable table = e.getKey();
            try {
                print(out, table, e.getValue(), OutputListing.scan(table.path(), table.successFileName()));
            } catch (IOException | RuntimeException failure) {
                out.println("  (cannot list " + table.path() + ": " + failure.getMessage() + ")");
            }
        }
    }

    private static void print(PrintStream out, SinkTable table, OutputListing before, OutputListing after)
            throws IOException {
        out.println("Committed to " + table.name() + " (path " + table.path()
                + (table.format() == null ? "" : ", format " + table.format()) + "):");
        List<String> lines = new ArrayList<>();
        long files = 0;
        long newFiles = 0;
        long markers = 0;
        long bytes = 0;
        long records = 0;
        for (OutputListing.Entry entry : after.entries()) {
            boolean isNew = !before.contains(entry);
            String flag = isNew ? "+ " : "  ";
            if (entry.marker) {
                markers++;
                lines.add(String.format("  %s%-60s %12s", flag, entry.relativePath, "marker"));
                continue;
            }
            files++;
            newFiles += isNew ? 1 : 0;
            bytes += entry.size;
            String lineCount = "";
            if (table.isLineFormat()) {
                long n = OutputListing.countLines(entry.path);
                records += n;
                lineCount = String.format("  %8d lines", n);
            }
            lines.add(String.format("  %s%-60s %12d bytes%s", flag, entry.relativePath, entry.size, lineCount));
        }
        if (lines.isEmpty()) {
            out.println("  (no visible files)");
        }
        for (int i = 0; i < lines.size() && i < MAX_LISTED; i++) {
            out.println(lines.get(i));
        }
        if (lines.size() > MAX_LISTED) {
            out.println("  ... and " + (lines.size() - MAX_LISTED) + " more");
        }
        StringBuilder summary = new StringBuilder("  ")
                .append(files)
                .append(files == 1 ? " file (" : " files (")
                .append(newFiles)
                .append(" new), ")
                .append(bytes)
                .append(" bytes");
        if (table.isLineFormat()) {
            summary.append(", ").append(records).append(" lines");
        }
        if (markers > 0) {
            summary.append(", ")
                    .append(markers)
                    .append(' ')
                    .append(table.successFileName())
                    .append(" markers");
        }
        out.println(summary);
    }
}

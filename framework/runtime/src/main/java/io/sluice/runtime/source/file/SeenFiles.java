package io.sluice.runtime.source.file;

import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * Which files a continuous read has taken, in bounded memory: a modification-time watermark below
 * which every file counts as read, plus the paths of the files modified after it. The watermark
 * trails the newest modification time seen by the lookback, so the set holds only the files of the
 * last lookback period, whatever the number of files in the directory.
 */
final class SeenFiles {

    private final long lookbackMillis;
    private long watermark;
    private final Map<String, Long> recent;

    SeenFiles(long lookbackMillis) {
        this(lookbackMillis, Long.MIN_VALUE, new HashMap<>());
    }

    SeenFiles(long lookbackMillis, long watermark, Map<String, Long> recent) {
        this.lookbackMillis = lookbackMillis;
        this.watermark = watermark;
        this.recent = recent;
    }

    /** Whether the file is new; if so, it counts as seen from now on. */
    boolean markIfNew(String path, long modificationTime) {
        if (modificationTime <= watermark || recent.containsKey(path)) {
            return false;
        }
        recent.put(path, modificationTime);
        return true;
    }

    /** Moves the watermark after a listing and forgets the paths below it. */
    void advance() {
        long newest = Long.MIN_VALUE;
        for (long t : recent.values()) {
            newest = Math.max(newest, t);
        }
        if (newest == Long.MIN_VALUE) {
            return;
        }
        watermark = Math.max(watermark, newest - lookbackMillis);
        Iterator<Long> it = recent.values().iterator();
        while (it.hasNext()) {
            if (it.next() <= watermark) {
                it.remove();
            }
        }
    }

    long watermark() {
        return watermark;
    }

    Map<String, Long> recent() {
        return recent;
    }

    long lookbackMillis() {
        return lookbackMillis;
    }
}

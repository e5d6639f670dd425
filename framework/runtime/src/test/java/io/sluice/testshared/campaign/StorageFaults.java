package io.sluice.testshared.campaign;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * What {@link FaultyFileSystem} injects, for the one run that is armed in this JVM: at each
 * create, close, rename (a recoverable writer's commit) and delete under the run's directory, a
 * fault with the given probability while the budget lasts, either before the operation (it did not
 * happen) or after it (it happened, and the caller is told it failed: the unknown outcome that a
 * retried commit must find).
 */
public final class StorageFaults {

    private static Armed armed;

    private StorageFaults() {}

    /** Arms faults under {@code root} (a local path) for one run. */
    public static synchronized void arm(String root, long seed, double probability, int budget) {
        armed = new Armed(root, new Random(seed), probability, budget);
    }

    /** Disarms; returns the faults injected. */
    public static synchronized List<String> disarm() {
        List<String> injected = armed == null ? Collections.emptyList() : armed.injected;
        armed = null;
        return injected;
    }

    /** Whether to fail {@code operation} on {@code localPath} before running it. */
    static void before(String operation, String localPath) throws IOException {
        String fault = draw(operation, localPath, "before");
        if (fault != null) {
            throw new IOException("campaign: injected storage fault " + fault);
        }
    }

    /** Whether to report {@code operation} on {@code localPath}, which has just run, as failed. */
    static void after(String operation, String localPath) throws IOException {
        String fault = draw(operation, localPath, "after");
        if (fault != null) {
            throw new IOException("campaign: injected storage fault " + fault);
        }
    }

    private static synchronized String draw(String operation, String localPath, String when) {
        Armed a = armed;
        // a recovered stream or committer (null path) belongs to the armed run: only its jobs run
        if (a == null
                || a.budget <= 0
                || (localPath != null && !localPath.startsWith(a.root))
                || a.random.nextDouble() >= a.probability) {
            return null;
        }
        a.budget--;
        String fault = operation + " " + when + " it ran: "
                + (localPath == null ? "(a recovered file)" : localPath.substring(a.root.length()));
        a.injected.add(fault);
        return fault;
    }

    private static final class Armed {
        final String root;
        final Random random;
        final double probability;
        int budget;
        final List<String> injected = new ArrayList<>();

        Armed(String root, Random random, double probability, int budget) {
            this.root = root;
            this.random = random;
            this.probability = probability;
            this.budget = budget;
        }
    }
}

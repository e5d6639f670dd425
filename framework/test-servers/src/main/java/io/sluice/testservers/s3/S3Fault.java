package io.sluice.testservers.s3;

import java.time.Duration;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * What {@link S3TrafficProxy} does to one request instead of passing it on unharmed: the faults an object
 * store shows its clients. A {@link Plan} decides per request.
 */
public final class S3Fault {

    /** The kinds of fault. */
    public enum Type {
        /** {@code 503 Slow Down}, S3's answer when a prefix is asked too much: clients retry it. */
        SLOW_DOWN,
        /** {@code 500 Internal Error}. */
        INTERNAL_ERROR,
        /**
         * The connection reset (TCP RST) after 8 KiB of the request's body reached the server. A
         * request with a shorter body passes unharmed (it is still listed as injected): plan it for
         * part uploads and large puts.
         */
        RESET_MID_REQUEST,
        /** The request reaches the server, which acts on it, but the connection resets before the answer. */
        RESET_BEFORE_RESPONSE,
        /** The answer comes late, after {@link #delayMillis()}. */
        DELAY,
        /**
         * The request waits at the proxy until the test decides through its {@link Gate}: pass it
         * on to the server or drop the connection. A test kills a client process while its request
         * is held: the moment "during a commit" or "during an upload", exactly.
         */
        HOLD
    }

    private final Type type;
    private final long delayMillis;
    private final Gate gate;

    private S3Fault(Type type, long delayMillis, Gate gate) {
        this.type = type;
        this.delayMillis = delayMillis;
        this.gate = gate;
    }

    private S3Fault(Type type, long delayMillis) {
        this(type, delayMillis, null);
    }

    /** Holds the request until {@code gate} passes or drops it (a gate serves one request). */
    public static S3Fault hold(Gate gate) {
        return new S3Fault(Type.HOLD, 0, Objects.requireNonNull(gate));
    }

    /** The gate of a {@link Type#HOLD} fault, else null. */
    public Gate gate() {
        return gate;
    }

    public static S3Fault slowDown() {
        return new S3Fault(Type.SLOW_DOWN, 0);
    }

    public static S3Fault internalError() {
        return new S3Fault(Type.INTERNAL_ERROR, 0);
    }

    public static S3Fault resetMidRequest() {
        return new S3Fault(Type.RESET_MID_REQUEST, 0);
    }

    public static S3Fault resetBeforeResponse() {
        return new S3Fault(Type.RESET_BEFORE_RESPONSE, 0);
    }

    public static S3Fault delay(long millis) {
        return new S3Fault(Type.DELAY, millis);
    }

    public Type type() {
        return type;
    }

    public long delayMillis() {
        return delayMillis;
    }

    /**
     * Where a held request waits. The proxy's connection thread calls {@link #arrive} and then
     * waits for {@link #pass} or {@link #drop}; the test waits for the arrival with {@link
     * #awaitArrival}. A request nobody decides on passes after ten minutes, so a failed test
     * cannot leave a proxy thread behind forever.
     */
    public static final class Gate {
        private final CountDownLatch arrived = new CountDownLatch(1);
        private final CountDownLatch decided = new CountDownLatch(1);
        private volatile S3Request request;
        private volatile boolean pass;

        /** The proxy: this request waits here; returns true to pass it on, false to drop it. */
        boolean arrive(S3Request held) throws InterruptedException {
            request = held;
            arrived.countDown();
            return !decided.await(10, TimeUnit.MINUTES) || pass;
        }

        /** Waits until a request is held; returns it, or null if none came within {@code timeout}. */
        public S3Request awaitArrival(Duration timeout) throws InterruptedException {
            return arrived.await(timeout.toMillis(), TimeUnit.MILLISECONDS) ? request : null;
        }

        /** The held request goes on to the server (which acts on it even if its client is gone). */
        public void pass() {
            pass = true;
            decided.countDown();
        }

        /** The held request's connection is reset: the server never sees it. */
        public void drop() {
            pass = false;
            decided.countDown();
        }
    }

    @Override
    public String toString() {
        return type == Type.DELAY ? "DELAY(" + delayMillis + " ms)" : type.name();
    }

    /** Decides, request by request, whether a fault hits it. Called from the proxy's connection threads. */
    @FunctionalInterface
    public interface Plan {
        /** The fault for the {@code sequence}-th request (from 0) the proxy sees, or null to pass it on. */
        S3Fault decide(S3Request request, long sequence);

        /** No faults. */
        Plan NONE = (request, sequence) -> null;

        /**
         * Each request of one of {@code kinds} is hit with probability {@code probability} by one of
         * {@code faults}, drawn from a generator seeded with {@code seed}, until {@code budget} faults
         * were injected: a schedule a failing test can print and run again (the order requests arrive
         * in still varies with threads).
         */
        static Plan random(long seed, double probability, int budget, Set<S3Request.Kind> kinds, S3Fault... faults) {
            Objects.requireNonNull(kinds);
            if (faults.length == 0) {
                throw new IllegalArgumentException("No faults to draw from");
            }
            SplittableRandom random = new SplittableRandom(seed);
            Set<S3Request.Kind> hit = kinds.isEmpty() ? EnumSet.noneOf(S3Request.Kind.class) : EnumSet.copyOf(kinds);
            int[] left = {budget};
            return (request, sequence) -> {
                if (!hit.contains(request.kind())) {
                    return null;
                }
                synchronized (random) {
                    if (left[0] <= 0 || random.nextDouble() >= probability) {
                        return null;
                    }
                    left[0]--;
                    return faults[random.nextInt(faults.length)];
                }
            };
        }

        /**
         * The failure campaigns' plan: {@link #random} over every request that reads or writes an
         * object (puts, multipart initiation, part uploads and completion, copies, deletes, reads,
         * heads, listings), with each of the store's faults: 503 Slow Down, 500, a reset mid-upload,
         * a reset after the server acted but before the client heard, and an answer slower than a
         * client configured by {@link S3Server#flinkConfigFailingFast()} waits for.
         */
        static Plan campaign(long seed, double probability, int budget) {
            return random(
                    seed,
                    probability,
                    budget,
                    EnumSet.of(
                            S3Request.Kind.PUT,
                            S3Request.Kind.MULTIPART_INIT,
                            S3Request.Kind.UPLOAD_PART,
                            S3Request.Kind.MULTIPART_COMPLETE,
                            S3Request.Kind.COPY,
                            S3Request.Kind.DELETE,
                            S3Request.Kind.GET,
                            S3Request.Kind.HEAD,
                            S3Request.Kind.LIST),
                    slowDown(),
                    internalError(),
                    resetMidRequest(),
                    resetBeforeResponse(),
                    delay(S3Server.FAIL_FAST_TIMEOUT_MILLIS + 1000));
        }

        /** The {@code n}-th request (from 1) of {@code kind} gets {@code fault}, the others none. */
        static Plan nth(S3Request.Kind kind, int n, S3Fault fault) {
            return nth(request -> request.kind() == kind, n, fault);
        }

        /** The {@code n}-th request (from 1) that {@code which} accepts gets {@code fault}, the others none. */
        static Plan nth(Predicate<S3Request> which, int n, S3Fault fault) {
            AtomicInteger seen = new AtomicInteger();
            return (request, sequence) -> which.test(request) && seen.incrementAndGet() == n ? fault : null;
        }
    }
}

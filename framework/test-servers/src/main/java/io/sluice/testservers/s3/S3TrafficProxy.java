package io.sluice.testservers.s3;

import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An HTTP proxy in front of the S3 server that sees every request the clients under test send: it
 * records each one ({@link S3Request}: kind, bucket, key) so a test can count what a checkpoint
 * costs and check that nothing touched a key outside a table's path, and it hits requests with the
 * faults a {@link S3Fault.Plan} chooses (503 Slow Down, 500, connection resets mid-upload or before
 * the answer, slow answers).
 *
 * <p>One request per client connection: the proxy asks the server to close after its answer and
 * passes the server's {@code Connection: close} on, so clients open a connection per request. That
 * keeps the proxy a byte pipe once the request's head is read (signatures stay valid: the AWS
 * signers do not sign {@code Connection}), at the cost of a TCP handshake per request on loopback.
 */
public final class S3TrafficProxy implements Closeable {

    private static final int MAX_HEAD_BYTES = 64 * 1024;

    private final InetSocketAddress upstream;
    private final ServerSocket listener;
    private final ExecutorService connections = Executors.newCachedThreadPool(runnable -> {
        Thread thread = new Thread(runnable, "s3-traffic-proxy");
        thread.setDaemon(true);
        return thread;
    });
    private final AtomicLong sequence = new AtomicLong();
    private final List<S3Request> requests = new ArrayList<>();
    private final List<String> faults = new ArrayList<>();
    private volatile S3Fault.Plan plan = S3Fault.Plan.NONE;
    private volatile boolean closed;

    /** Starts a proxy on a free port of 127.0.0.1 in front of the server at {@code upstream}. */
    public S3TrafficProxy(InetSocketAddress upstream) throws IOException {
        this.upstream = upstream;
        this.listener = new ServerSocket(0, 200, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::accept, "s3-traffic-proxy-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    public int port() {
        return listener.getLocalPort();
    }

    /** The faults to inject from now on ({@link S3Fault.Plan#NONE} for none). */
    public void faults(S3Fault.Plan plan) {
        this.plan = plan == null ? S3Fault.Plan.NONE : plan;
    }

    /** Every request seen since the start or the last {@link #clearRequests()}, in arrival order. */
    public synchronized List<S3Request> requests() {
        return List.copyOf(requests);
    }

    /** The requests seen, counted by kind. */
    public synchronized Map<S3Request.Kind, Long> countsByKind() {
        Map<S3Request.Kind, Long> counts = new EnumMap<>(S3Request.Kind.class);
        for (S3Request request : requests) {
            counts.merge(request.kind(), 1L, Long::sum);
        }
        return counts;
    }

    /**
     * The requests seen that changed an object outside {@code prefix} of {@code bucket} (the
     * prefix itself, a directory marker, counts as inside). Multi-object deletes name no key in
     * their request line and are not judged here.
     */
    public synchronized List<S3Request> mutationsOutside(String bucket, String prefix) {
        String dir = prefix.endsWith("/") ? prefix : prefix + "/";
        List<S3Request> outside = new ArrayList<>();
        for (S3Request request : requests) {
            if (request.kind().mutates()
                    && request.kind() != S3Request.Kind.DELETE_MULTIPLE
                    && (!request.bucket().equals(bucket)
                            || !(request.key().startsWith(dir)
                                    || request.key().equals(dir.substring(0, dir.length() - 1))))) {
                outside.add(request);
            }
        }
        return outside;
    }

    /** The faults injected so far, one line each ("SLOW_DOWN on UPLOAD_PART PUT /bucket/key ..."). */
    public synchronized List<String> injectedFaults() {
        return List.copyOf(faults);
    }

    /** Forgets the requests and the faults injected so far. */
    public synchronized void clearRequests() {
        requests.clear();
        faults.clear();
    }

    @Override
    public void close() throws IOException {
        closed = true;
        listener.close();
        connections.shutdownNow();
    }

    private void accept() {
        while (!closed) {
            try {
                Socket client = listener.accept();
                connections.execute(() -> serve(client));
            } catch (IOException e) {
                if (!closed) {
                    System.err.println("S3 traffic proxy: accept failed: " + e);
                }
            }
        }
    }

    private void serve(Socket client) {
        try (Socket c = client) {
            c.setTcpNoDelay(true);
            InputStream in = c.getInputStream();
            String head = readHead(in);
            if (head == null) {
                return;
            }
            String[] lines = head.split("\r\n");
            String[] requestLine = lines[0].split(" ");
            if (requestLine.length < 3) {
                return;
            }
            boolean copySource = false;
            boolean expectContinue = false;
            Map<String, String> headers = new HashMap<>();
            StringBuilder forwarded = new StringBuilder(lines[0]).append("\r\n");
            for (int i = 1; i < lines.length; i++) {
                String line = lines[i];
                String name = line.contains(":")
                        ? line.substring(0, line.indexOf(':')).trim().toLowerCase(Locale.ROOT)
                        : "";
                if (name.equals("connection") || name.equals("keep-alive")) {
                    continue;
                }
                if (!name.isEmpty()) {
                    headers.put(name, line.substring(line.indexOf(':') + 1).trim());
                }
                if (name.equals("x-amz-copy-source")) {
                    copySource = true;
                }
                if (name.equals("expect") && line.toLowerCase(Locale.ROOT).contains("100-continue")) {
                    expectContinue = true;
                }
                forwarded.append(line).append("\r\n");
            }
            forwarded.append("Connection: close\r\n\r\n");

            S3Request request = S3Request.of(requestLine[0], requestLine[1], copySource, headers);
            long seq = sequence.getAndIncrement();
            S3Fault fault = plan.decide(request, seq);
            synchronized (this) {
                requests.add(request);
                if (fault != null) {
                    faults.add(fault + " on " + request);
                }
            }
            if (fault != null && answerWithFault(c, fault, request, expectContinue)) {
                return;
            }
            try (Socket server = new Socket()) {
                server.connect(upstream, 10_000);
                server.setTcpNoDelay(true);
                OutputStream toServer = server.getOutputStream();
                toServer.write(forwarded.toString().getBytes(StandardCharsets.ISO_8859_1));
                toServer.flush();
                Thread body = new Thread(() -> pipeBody(in, toServer, server, c, fault), "s3-traffic-proxy-body");
                body.setDaemon(true);
                body.start();
                if (fault != null && fault.type() == S3Fault.Type.RESET_BEFORE_RESPONSE) {
                    // let the server act on the request, then drop its answer
                    InputStream fromServer = server.getInputStream();
                    byte[] buffer = new byte[8192];
                    while (fromServer.read(buffer) >= 0) {
                        // discard
                    }
                    reset(c);
                    return;
                }
                server.getInputStream().transferTo(c.getOutputStream());
                c.getOutputStream().flush();
            }
        } catch (IOException e) {
            // a client or the server went away: theirs to notice
        }
    }

    /** True when the fault answered the request itself; false when the request goes on to the server. */
    private boolean answerWithFault(Socket client, S3Fault fault, S3Request request, boolean expectContinue)
            throws IOException {
        switch (fault.type()) {
            case SLOW_DOWN:
                // with "Expect: 100-continue" the client waits for our answer before it sends the body;
                // without, a large body may still be on its way: the answer comes first either way
                answer(client, 503, "Slow Down", "SlowDown", "Please reduce your request rate.");
                return true;
            case INTERNAL_ERROR:
                answer(client, 500, "Internal Server Error", "InternalError", "We encountered an internal error.");
                return true;
            case DELAY:
                S3Server.sleep(fault.delayMillis());
                return false;
            case HOLD:
                boolean pass;
                try {
                    pass = fault.gate().arrive(request);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    pass = false;
                }
                if (!pass) {
                    reset(client);
                }
                return !pass;
            default:
                return false;
        }
    }

    private static void answer(Socket client, int status, String reason, String code, String message)
            throws IOException {
        byte[] body = ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>" + code + "</Code><Message>" + message
                        + "</Message><RequestId>sluice-fault</RequestId></Error>")
                .getBytes(StandardCharsets.UTF_8);
        String head = "HTTP/1.1 " + status + " " + reason + "\r\nContent-Type: application/xml\r\nContent-Length: "
                + body.length + "\r\nConnection: close\r\n\r\n";
        OutputStream out = client.getOutputStream();
        out.write(head.getBytes(StandardCharsets.ISO_8859_1));
        out.write(body);
        out.flush();
        client.shutdownOutput();
    }

    /** Copies what the client sends after the head to the server, or part of it for a reset mid-request. */
    private static void pipeBody(
            InputStream fromClient, OutputStream toServer, Socket server, Socket client, S3Fault fault) {
        byte[] buffer = new byte[16 * 1024];
        long limit = fault != null && fault.type() == S3Fault.Type.RESET_MID_REQUEST ? 8 * 1024 : Long.MAX_VALUE;
        long sent = 0;
        try {
            int n;
            while ((n = fromClient.read(buffer)) >= 0) {
                if (sent + n > limit) {
                    toServer.write(buffer, 0, (int) (limit - sent));
                    toServer.flush();
                    reset(client);
                    reset(server);
                    return;
                }
                toServer.write(buffer, 0, n);
                toServer.flush();
                sent += n;
            }
        } catch (IOException e) {
            // either side closed: the response side of serve() ends the exchange
        }
        if (limit != Long.MAX_VALUE) { // a request with less body than the limit still breaks
            reset(client);
            reset(server);
        }
    }

    /** Closes with a TCP reset (linger 0), as a dropped connection looks to the other side. */
    private static void reset(Socket socket) {
        try {
            socket.setSoLinger(true, 0);
            socket.close();
        } catch (SocketException ignored) {
            // closed already
        } catch (IOException ignored) {
            // closed already
        }
    }

    /** Reads up to the blank line that ends an HTTP request's head; null at the end of the stream. */
    private static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream(512);
        int matched = 0;
        while (head.size() < MAX_HEAD_BYTES) {
            int b = in.read();
            if (b < 0) {
                return null;
            }
            head.write(b);
            matched = (b == '\r' && (matched == 0 || matched == 2)) || (b == '\n' && (matched == 1 || matched == 3))
                    ? matched + 1
                    : (b == '\r' ? 1 : 0);
            if (matched == 4) {
                String text = head.toString(StandardCharsets.ISO_8859_1);
                return text.substring(0, text.length() - 4);
            }
        }
        throw new IOException("A request head longer than " + MAX_HEAD_BYTES + " bytes");
    }
}

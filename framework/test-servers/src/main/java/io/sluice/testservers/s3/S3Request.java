package io.sluice.testservers.s3;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * One request a client sent to the S3 server, as {@link S3TrafficProxy} saw it: method, bucket, key and
 * query, and what kind of S3 operation it is. Path-style addressing only ({@code /bucket/key}), which
 * is what the tests configure every client for.
 */
public final class S3Request {

    /** The S3 operations a request can be, the units an object store bills and a test counts. */
    public enum Kind {
        LIST,
        HEAD,
        GET,
        PUT,
        COPY,
        DELETE,
        DELETE_MULTIPLE,
        MULTIPART_INIT,
        UPLOAD_PART,
        MULTIPART_COMPLETE,
        MULTIPART_ABORT,
        LIST_UPLOADS,
        LIST_PARTS,
        BUCKET,
        OTHER;

        /** Whether a request of this kind changes what the bucket holds. */
        public boolean mutates() {
            switch (this) {
                case PUT:
                case COPY:
                case DELETE:
                case DELETE_MULTIPLE:
                case MULTIPART_INIT:
                case UPLOAD_PART:
                case MULTIPART_COMPLETE:
                case MULTIPART_ABORT:
                    return true;
                default:
                    return false;
            }
        }
    }

    private final String method;
    private final String bucket;
    private final String key;
    private final Map<String, String> query;
    private final Kind kind;
    private final String userAgent;
    private final String accessKeyId;
    private final String securityToken;

    private S3Request(
            String method,
            String bucket,
            String key,
            Map<String, String> query,
            Kind kind,
            String userAgent,
            String accessKeyId,
            String securityToken) {
        this.method = method;
        this.bucket = bucket;
        this.key = key;
        this.query = query;
        this.kind = kind;
        this.userAgent = userAgent;
        this.accessKeyId = accessKeyId;
        this.securityToken = securityToken;
    }

    /**
     * Classifies a request from its request line's method and target and whether it carries an
     * {@code x-amz-copy-source} header.
     */
    public static S3Request of(String method, String target, boolean copySource) {
        return of(method, target, copySource, Map.of());
    }

    /**
     * As {@link #of(String, String, boolean)}, also keeping who sent it: the {@code User-Agent},
     * the access key id the request is signed with (the {@code Credential=} of a SigV4 {@code
     * Authorization} header, or the key of a SigV2 {@code AWS key:signature}) and the session
     * token ({@code x-amz-security-token}), from {@code headers} (lower-case names).
     */
    public static S3Request of(String method, String target, boolean copySource, Map<String, String> headers) {
        String m = method.toUpperCase(Locale.ROOT);
        int q = target.indexOf('?');
        String path = q < 0 ? target : target.substring(0, q);
        Map<String, String> query = parseQuery(q < 0 ? "" : target.substring(q + 1));
        if (path.startsWith("http://") || path.startsWith("https://")) { // absolute form
            int slash = path.indexOf('/', path.indexOf("//") + 2);
            path = slash < 0 ? "/" : path.substring(slash);
        }
        String trimmed = path.startsWith("/") ? path.substring(1) : path;
        int slash = trimmed.indexOf('/');
        String bucket = decode(slash < 0 ? trimmed : trimmed.substring(0, slash));
        String key = slash < 0 ? "" : decode(trimmed.substring(slash + 1));
        return new S3Request(
                m,
                bucket,
                key,
                Collections.unmodifiableMap(query),
                kind(m, key, query, copySource),
                headers.get("user-agent"),
                accessKeyId(headers.get("authorization")),
                headers.get("x-amz-security-token"));
    }

    private static String accessKeyId(String authorization) {
        if (authorization == null) {
            return null;
        }
        int credential = authorization.indexOf("Credential=");
        if (credential >= 0) {
            int start = credential + "Credential=".length();
            int end = authorization.indexOf('/', start);
            return end < 0 ? null : authorization.substring(start, end);
        }
        if (authorization.startsWith("AWS ") && authorization.indexOf(':') > 4) {
            return authorization.substring(4, authorization.indexOf(':'));
        }
        return null;
    }

    private static Kind kind(String method, String key, Map<String, String> query, boolean copySource) {
        boolean onBucket = key.isEmpty();
        switch (method) {
            case "GET":
                if (query.containsKey("uploads")) {
                    return Kind.LIST_UPLOADS;
                }
                if (query.containsKey("uploadId")) {
                    return Kind.LIST_PARTS;
                }
                if (onBucket) {
                    return query.containsKey("location") || query.containsKey("acl") ? Kind.BUCKET : Kind.LIST;
                }
                return Kind.GET;
            case "HEAD":
                return onBucket ? Kind.BUCKET : Kind.HEAD;
            case "PUT":
                if (onBucket) {
                    return Kind.BUCKET;
                }
                if (copySource) {
                    return Kind.COPY;
                }
                return query.containsKey("uploadId") ? Kind.UPLOAD_PART : Kind.PUT;
            case "POST":
                if (query.containsKey("delete")) {
                    return Kind.DELETE_MULTIPLE;
                }
                if (query.containsKey("uploads")) {
                    return Kind.MULTIPART_INIT;
                }
                if (query.containsKey("uploadId")) {
                    return Kind.MULTIPART_COMPLETE;
                }
                return Kind.OTHER;
            case "DELETE":
                if (query.containsKey("uploadId")) {
                    return Kind.MULTIPART_ABORT;
                }
                return onBucket ? Kind.BUCKET : Kind.DELETE;
            default:
                return Kind.OTHER;
        }
    }

    private static Map<String, String> parseQuery(String raw) {
        Map<String, String> query = new LinkedHashMap<>();
        if (raw.isEmpty()) {
            return query;
        }
        for (String pair : raw.split("&")) {
            int eq = pair.indexOf('=');
            query.put(decode(eq < 0 ? pair : pair.substring(0, eq)), eq < 0 ? "" : decode(pair.substring(eq + 1)));
        }
        return query;
    }

    private static String decode(String s) {
        return URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
    }

    public String method() {
        return method;
    }

    public String bucket() {
        return bucket;
    }

    /** The object key, empty for a request on the bucket. */
    public String key() {
        return key;
    }

    public Map<String, String> query() {
        return query;
    }

    public Kind kind() {
        return kind;
    }

    /** The client's {@code User-Agent} header; null without one. */
    public String userAgent() {
        return userAgent;
    }

    /** The access key id the request was signed with; null for an unsigned request. */
    public String accessKeyId() {
        return accessKeyId;
    }

    /** The session token the request carried ({@code x-amz-security-token}); null without one. */
    public String securityToken() {
        return securityToken;
    }

    /**
     * The keys a request names: its key, or for a listing its {@code prefix}; what a test checks
     * lies inside a table's path.
     */
    public String keyOrPrefix() {
        return key.isEmpty() ? query.getOrDefault("prefix", "") : key;
    }

    @Override
    public String toString() {
        return kind + " " + method + " /" + bucket + "/" + key + (query.isEmpty() ? "" : " " + query);
    }
}

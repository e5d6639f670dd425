package io.sluice.plugin.iceberg.it;

import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.rest.HTTPRequest;
import org.apache.iceberg.rest.RESTCatalogAdapter;
import org.apache.iceberg.rest.RESTCatalogServlet;
import org.apache.iceberg.rest.RESTResponse;
import org.apache.iceberg.rest.responses.ErrorResponse;
import org.apache.iceberg.rest.responses.LoadTableResponse;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Iceberg's REST catalog servlet (of iceberg-core's test jar) on Jetty, on a free port, in front of
 * a backing catalog, that vends storage credentials as a REST catalog service does: every table it
 * answers (load, create, commit) carries {@code vended} in the response's {@code config}, which
 * Iceberg's REST client merges over the catalog's own properties into the table's file IO.
 */
public final class VendingRestCatalogServer implements AutoCloseable {

    private final Server server;
    private final Catalog backing;
    private final AtomicInteger vendedResponses = new AtomicInteger();

    private VendingRestCatalogServer(Catalog backing, Map<String, String> vended) throws Exception {
        this.backing = backing;
        RESTCatalogAdapter adapter = new RESTCatalogAdapter(backing) {
            @Override
            protected <T extends RESTResponse> T execute(
                    HTTPRequest request,
                    Class<T> responseType,
                    Consumer<ErrorResponse> errorHandler,
                    Consumer<Map<String, String>> responseHeaders) {
                T response = super.execute(request, responseType, errorHandler, responseHeaders);
                if (response instanceof LoadTableResponse) {
                    LoadTableResponse loaded = (LoadTableResponse) response;
                    vendedResponses.incrementAndGet();
                    return responseType.cast(LoadTableResponse.builder()
                            .withTableMetadata(loaded.tableMetadata())
                            .addAllConfig(loaded.config())
                            .addAllConfig(vended)
                            .addAllCredentials(loaded.credentials())
                            .build());
                }
                return response;
            }
        };
        ServletContextHandler context = new ServletContextHandler(ServletContextHandler.NO_SESSIONS);
        context.addServlet(new ServletHolder(new RESTCatalogServlet(adapter)), "/*");
        server = new Server(0);
        server.setHandler(context);
        server.start();
    }

    public static VendingRestCatalogServer start(Catalog backing, Map<String, String> vended) throws Exception {
        return new VendingRestCatalogServer(backing, vended);
    }

    public String uri() {
        return "http://localhost:" + ((ServerConnector) server.getConnectors()[0]).getLocalPort() + "/";
    }

    /** The catalog behind the server, for a test's own reads of the metadata. */
    public Catalog backing() {
        return backing;
    }

    /** How many table responses carried the vended credentials. */
    public int vendedResponses() {
        return vendedResponses.get();
    }

    @Override
    public void close() throws Exception {
        server.stop();
        if (backing instanceof AutoCloseable) {
            ((AutoCloseable) backing).close();
        }
    }
}

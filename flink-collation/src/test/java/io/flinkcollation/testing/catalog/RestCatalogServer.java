package io.flinkcollation.testing.catalog;

import java.net.URI;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.jdbc.JdbcCatalog;
import org.apache.iceberg.rest.RESTCatalogAdapter;
import org.apache.iceberg.rest.RESTCatalogServlet;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/**
 * Iceberg's REST catalog server as its compliance tests run it (Iceberg's {@code
 * RESTCatalogServlet} over {@code RESTCatalogAdapter}, a JDBC catalog on sqlite behind it), on
 * Jetty bound to 127.0.0.1 at a free port. Iceberg's own {@code RESTCatalogServer} binds every
 * interface, hence this wiring.
 *
 * <p>Loaded only by {@link RestCatalogServerExtension}'s class loader, with unshaded Iceberg: only
 * JDK types ({@link Supplier} of the base URI, {@link AutoCloseable}) cross to the tests.
 */
public final class RestCatalogServer implements Supplier<URI>, AutoCloseable {

  private final Server server;
  private final JdbcCatalog backend;
  private final URI uri;

  private RestCatalogServer(Server server, JdbcCatalog backend, URI uri) {
    this.server = server;
    this.backend = backend;
    this.uri = uri;
  }

  /** Starts a server whose tables live under {@code warehouse}, its catalog in {@code jdbcUri}. */
  public static RestCatalogServer start(String warehouse, String jdbcUri) throws Exception {
    // Registers this loader's sqlite driver: DriverManager only hands a caller drivers of its own
    // class loader.
    Class.forName("org.sqlite.JDBC");
    JdbcCatalog backend = new JdbcCatalog();
    backend.setConf(new Configuration());
    backend.initialize(
        "rest_backend",
        Map.of(
            CatalogProperties.WAREHOUSE_LOCATION,
            warehouse,
            CatalogProperties.URI,
            jdbcUri,
            "jdbc.schema-version",
            "V1"));

    ServletContextHandler context = new ServletContextHandler(ServletContextHandler.NO_SESSIONS);
    context.addServlet(
        new ServletHolder(new RESTCatalogServlet(new RESTCatalogAdapter(backend))), "/*");
    Server server = new Server();
    ServerConnector connector = new ServerConnector(server);
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    server.addConnector(connector);
    server.setHandler(context);
    server.start();
    return new RestCatalogServer(
        server, backend, URI.create("http://127.0.0.1:" + connector.getLocalPort() + "/"));
  }

  @Override
  public URI get() {
    return uri;
  }

  @Override
  public void close() throws Exception {
    try {
      server.stop();
    } finally {
      backend.close();
    }
  }
}

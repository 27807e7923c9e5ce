package io.flinkcollation.cluster;

import io.flinkcollation.testing.catalog.PostgresServer;
import java.io.Closeable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.jdbc.JdbcCatalog;
import org.apache.iceberg.rest.RESTCatalog;

/**
 * The catalog {@link ChaosIT} runs on, with the server behind it: {@code rest}, Iceberg's REST
 * catalog server as a process beside the cluster ({@link RestCatalogProcess}); or {@code postgres},
 * Iceberg's JDBC catalog on a PostgreSQL server ({@link PostgresServer}, a process of the test JVM,
 * its pid file for .ci/run), the driver in the cluster's lib/.
 */
final class ChaosCatalog implements Closeable {
  /** The jobs' catalog name (their JobArgs): a JDBC catalog keeps its tables under it. */
  private static final String NAME = "cluster";

  private final Catalog catalog;
  private final List<String> jobArguments;
  private final PostgresServer postgres;

  private ChaosCatalog(Catalog catalog, List<String> jobArguments, PostgresServer postgres) {
    this.catalog = catalog;
    this.jobArguments = jobArguments;
    this.postgres = postgres;
  }

  /**
   * Starts the server of {@code kind} ({@code rest} or {@code postgres}) beside {@code cluster}.
   */
  static ChaosCatalog start(String kind, StandaloneCluster cluster, Path home) throws Exception {
    switch (kind) {
      case "rest":
        {
          String uri = RestCatalogProcess.start(cluster, home.resolve("rest-catalog"));
          RESTCatalog catalog = new RESTCatalog();
          catalog.setConf(new Configuration());
          catalog.initialize(NAME, Map.of("uri", uri));
          return new ChaosCatalog(catalog, List.of("--catalog-uri", uri), null);
        }
      case "postgres":
        {
          PostgresServer postgres = PostgresServer.start();
          String warehouse = home.resolve("postgres-warehouse").toUri().toString();
          JdbcCatalog catalog = new JdbcCatalog();
          catalog.setConf(new Configuration());
          catalog.initialize(
              NAME,
              Map.of(
                  "uri",
                  postgres.jdbcUrl(),
                  "jdbc.user",
                  PostgresServer.USER,
                  "jdbc.password",
                  PostgresServer.PASSWORD,
                  "jdbc.schema-version",
                  "V1",
                  "warehouse",
                  warehouse));
          // A test server's password: on the Flink CLI's command line, as the jobs take it.
          return new ChaosCatalog(
              catalog,
              List.of(
                  "--jdbc-uri",
                  postgres.jdbcUrl(),
                  "--jdbc-user",
                  PostgresServer.USER,
                  "--jdbc-password",
                  PostgresServer.PASSWORD,
                  "--warehouse",
                  warehouse),
              postgres);
        }
      default:
        throw new IllegalArgumentException(
            "Unknown chaos catalog '" + kind + "': use rest or postgres (-Dchaos.catalogs)");
    }
  }

  Catalog catalog() {
    return catalog;
  }

  Table loadTable(TableIdentifier identifier) {
    return catalog.loadTable(identifier);
  }

  /** The jobs' catalog arguments, then {@code more}. */
  String[] jobArguments(String... more) {
    List<String> arguments = new ArrayList<>(jobArguments);
    arguments.addAll(List.of(more));
    return arguments.toArray(new String[0]);
  }

  @Override
  public void close() {
    try {
      if (catalog instanceof Closeable) {
        ((Closeable) catalog).close();
      }
      if (postgres != null) {
        postgres.close();
      }
    } catch (Exception e) {
      throw new IllegalStateException("Cannot stop the chaos test's catalog", e);
    }
  }
}

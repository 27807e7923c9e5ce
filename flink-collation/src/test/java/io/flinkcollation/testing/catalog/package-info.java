/**
 * The catalogs tests run on: Hadoop, JDBC on sqlite, Iceberg's own REST catalog server and JDBC on
 * a PostgreSQL server, both started on 127.0.0.1 by the test ({@link
 * io.flinkcollation.testing.catalog.CatalogMatrix}). The REST server runs in a class loader of its
 * own with unshaded Iceberg, so the library under test keeps the shaded iceberg-flink-runtime it
 * runs on in production; PostgreSQL is a process of its own, stopped by pid.
 */
package io.flinkcollation.testing.catalog;

/**
 * The catalogs tests run on: Hadoop, JDBC on sqlite, and Iceberg's own REST catalog server started
 * on 127.0.0.1 by the test ({@link io.flinkcollation.testing.catalog.CatalogMatrix}). The REST
 * server runs in a class loader of its own with unshaded Iceberg, so the library under test keeps
 * the shaded iceberg-flink-runtime it runs on in production.
 */
package io.flinkcollation.testing.catalog;

/**
 * The catalogs tests run on: Hadoop, JDBC on sqlite, Iceberg's own REST catalog server, JDBC on a
 * PostgreSQL server and Iceberg's Hive catalog on a Hive Metastore, the servers started on
 * 127.0.0.1 by the tests ({@link io.flinkcollation.testing.catalog.CatalogMatrix}). The REST server
 * runs in a class loader of its own with unshaded Iceberg, so the library under test keeps the
 * shaded iceberg-flink-runtime it runs on in production; PostgreSQL is a process of its own,
 * stopped by pid; the Hive Metastore runs in the test JVM on Hive's client jars, which Iceberg's
 * Hive catalog needs there anyway.
 */
package io.flinkcollation.testing.catalog;

package io.flinkcollation.testing.catalog;

/** The catalogs every catalog-dependent behaviour is tested on. */
public enum TestCatalog {
  /** Iceberg's Hadoop catalog: metadata files in a directory, committed by rename. */
  HADOOP,
  /** Iceberg's JDBC catalog on a sqlite database file. */
  JDBC,
  /**
   * Iceberg's REST catalog client against Iceberg's REST catalog server: commits travel as a list
   * of metadata updates, as with Polaris, Nessie, Gravitino, Lakekeeper and cloud catalogs.
   */
  REST,
  /**
   * Iceberg's JDBC catalog on a PostgreSQL server, as JDBC catalogs run in production: commits are
   * conditional updates of the catalog's row, under PostgreSQL's row locks instead of sqlite's file
   * lock.
   */
  POSTGRES,
  /**
   * Iceberg's Hive catalog against a Hive Metastore over Thrift, as most on-premises deployments
   * run: a commit swaps the table's {@code metadata_location} parameter under a Hive lock, and
   * Iceberg copies table properties into HMS table parameters.
   */
  HIVE
}

package io.flinkcollation.testing.catalog;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.apache.iceberg.flink.CatalogLoader;
import org.apache.iceberg.flink.TableLoader;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.params.provider.Arguments;

/**
 * One warehouse per {@link TestCatalog} for a test class: a Hadoop directory, a sqlite JDBC
 * catalog, Iceberg's REST catalog server on 127.0.0.1 (started before the class, stopped after),
 * and a JDBC catalog on a PostgreSQL server on 127.0.0.1 (a process of its own, started when a test
 * of the class first asks for it, stopped after the class), and Iceberg's Hive catalog on a Hive
 * Metastore on 127.0.0.1 (the test JVM's, {@link HiveMetastoreServer#shared}, with this class's own
 * warehouse). Gives each catalog's options the way a user writes them, for Iceberg's {@link
 * CatalogLoader} and for Flink SQL's {@code CREATE CATALOG}.
 *
 * <p>After each test, every table and namespace the test left in a catalog it used is dropped, so
 * that each test, and each catalog's run of a parameterized test, starts on an empty catalog, as it
 * would on a {@code @TempDir} warehouse.
 *
 * <p>Parameterized tests take the catalog as their first argument: {@code @EnumSource(TestCatalog
 * .class)} or {@link #cases} when every case runs on every catalog, {@link #hadoopInFull} when slow
 * cases run in full on Hadoop and a representative subset on the others
 * (docs/design.md#catalog-tests).
 */
public final class CatalogMatrix implements BeforeAllCallback, AfterEachCallback, AfterAllCallback {

  /**
   * Every catalog's name, in Java and in SQL ({@code CREATE CATALOG lake}): a JDBC catalog keeps
   * its tables under its name.
   */
  public static final String NAME = "lake";

  /**
   * The catalogs this run tests on: all of them, or those {@code -Dcatalog-matrix.kinds} names
   * (comma-separated, e.g. {@code HADOOP,REST}). A case on another catalog is skipped, reported as
   * such; the runs on the other Flink minors use it (docs/deployment.md#flink-versions).
   */
  static final Set<TestCatalog> KINDS = kinds(System.getProperty("catalog-matrix.kinds", ""));

  /** The database every Hive Metastore has, which it refuses to drop. */
  private static final Namespace HIVE_DEFAULT_DATABASE = Namespace.of("default");

  private Path directory;
  private RestCatalogServerExtension restServer;
  private PostgresServer postgres;
  private HiveMetastoreServer hive;
  private final Map<TestCatalog, Catalog> catalogs = new EnumMap<>(TestCatalog.class);
  private final EnumSet<TestCatalog> used = EnumSet.noneOf(TestCatalog.class);

  /**
   * {@code cases} on each of {@code kinds}, the catalog first: {@code cases(EnumSet.of(HADOOP),
   * Arguments.of(2, true))} gives {@code (HADOOP, 2, true)}.
   */
  public static Stream<Arguments> cases(Set<TestCatalog> kinds, Arguments... cases) {
    List<Arguments> all = new ArrayList<>();
    for (TestCatalog kind : kinds) {
      for (Arguments arguments : cases) {
        Object[] values = arguments.get();
        Object[] withKind = new Object[values.length + 1];
        withKind[0] = kind;
        System.arraycopy(values, 0, withKind, 1, values.length);
        all.add(Arguments.of(withKind));
      }
    }
    return all.stream();
  }

  /**
   * The slow cases of a test: all of them on Hadoop, those of {@code onJdbc} on JDBC and those of
   * {@code onRest} on REST, the catalog first.
   */
  public static Stream<Arguments> hadoopInFull(
      List<Arguments> all, List<Arguments> onJdbc, List<Arguments> onRest) {
    return Stream.of(
            cases(EnumSet.of(TestCatalog.HADOOP), all.toArray(new Arguments[0])),
            cases(EnumSet.of(TestCatalog.JDBC), onJdbc.toArray(new Arguments[0])),
            cases(EnumSet.of(TestCatalog.REST), onRest.toArray(new Arguments[0])))
        .flatMap(kind -> kind);
  }

  /**
   * The slow cases of a test: all of them on Hadoop, and on each other catalog of {@code subsets}
   * the cases it maps to, the catalog first. Catalogs missing from {@code subsets} get none.
   */
  public static Stream<Arguments> hadoopInFull(
      List<Arguments> all, Map<TestCatalog, List<Arguments>> subsets) {
    Stream<Arguments> others =
        subsets.entrySet().stream()
            .filter(subset -> subset.getKey() != TestCatalog.HADOOP)
            .sorted(Map.Entry.comparingByKey())
            .flatMap(
                subset ->
                    cases(
                        EnumSet.of(subset.getKey()), subset.getValue().toArray(new Arguments[0])));
    return Stream.concat(
        cases(EnumSet.of(TestCatalog.HADOOP), all.toArray(new Arguments[0])), others);
  }

  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    directory = Files.createTempDirectory("catalog-matrix");
    // The JDBC catalog's driver, registered from the tests' own class loader.
    Class.forName("org.sqlite.JDBC");
    Class.forName("org.postgresql.Driver");
    restServer = new RestCatalogServerExtension(directory.resolve("rest"));
    restServer.beforeAll(context);
  }

  @Override
  public void afterEach(ExtensionContext context) {
    Set<TestCatalog> kinds = EnumSet.copyOf(used);
    used.clear();
    for (TestCatalog kind : kinds) {
      Catalog catalog = catalog(kind);
      if (catalog instanceof SupportsNamespaces) {
        SupportsNamespaces namespaces = (SupportsNamespaces) catalog;
        List<Namespace> left;
        try {
          left = namespaces.listNamespaces();
        } catch (NoSuchNamespaceException noWarehouseYet) {
          continue;
        }
        for (Namespace namespace : left) {
          catalog.listTables(namespace).forEach(table -> catalog.dropTable(table, true));
          if (!namespace.equals(HIVE_DEFAULT_DATABASE)) {
            namespaces.dropNamespace(namespace);
          }
        }
      }
    }
    used.clear();
  }

  @Override
  public void afterAll(ExtensionContext context) throws Exception {
    try {
      for (Catalog catalog : catalogs.values()) {
        if (catalog instanceof AutoCloseable) {
          ((AutoCloseable) catalog).close();
        }
      }
      catalogs.clear();
      restServer.afterAll(context);
      if (postgres != null) {
        postgres.close();
        postgres = null;
      }
      // The Hive Metastore is the JVM's (HiveMetastoreServer.shared); this class's databases and
      // tables are dropped after each test.
      hive = null;
    } finally {
      deleteRecursively(directory);
    }
  }

  static Set<TestCatalog> kinds(String names) {
    if (names.isBlank()) {
      return EnumSet.allOf(TestCatalog.class);
    }
    EnumSet<TestCatalog> kinds = EnumSet.noneOf(TestCatalog.class);
    for (String name : names.split(",")) {
      try {
        kinds.add(TestCatalog.valueOf(name.trim().toUpperCase(Locale.ROOT)));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            String.format(
                "Unknown catalog '%s' in -Dcatalog-matrix.kinds=%s: use some of %s",
                name.trim(), names, EnumSet.allOf(TestCatalog.class)),
            e);
      }
    }
    return kinds;
  }

  /**
   * The Iceberg catalog options of {@code kind}, as {@code CREATE CATALOG} takes them. Skips the
   * calling test when {@code kind} is not among {@link #KINDS}.
   */
  public Map<String, String> options(TestCatalog kind) {
    Assumptions.assumeTrue(
        KINDS.contains(kind),
        () -> kind + " is not among the catalogs of this run, -Dcatalog-matrix.kinds=" + KINDS);
    used.add(kind);
    Map<String, String> options = new LinkedHashMap<>();
    switch (kind) {
      case HADOOP:
        options.put("catalog-type", "hadoop");
        options.put(CatalogProperties.WAREHOUSE_LOCATION, location("hadoop"));
        break;
      case JDBC:
        options.put(CatalogProperties.CATALOG_IMPL, "org.apache.iceberg.jdbc.JdbcCatalog");
        options.put(CatalogProperties.URI, "jdbc:sqlite:" + directory.resolve("jdbc-catalog.db"));
        options.put("jdbc.schema-version", "V1");
        options.put(CatalogProperties.WAREHOUSE_LOCATION, location("jdbc"));
        break;
      case REST:
        options.put("catalog-type", "rest");
        options.put(CatalogProperties.URI, restServer.uri().toString());
        break;
      case POSTGRES:
        options.put(CatalogProperties.CATALOG_IMPL, "org.apache.iceberg.jdbc.JdbcCatalog");
        options.put(CatalogProperties.URI, postgres().jdbcUrl());
        options.put("jdbc.user", PostgresServer.USER);
        options.put("jdbc.password", PostgresServer.PASSWORD);
        options.put("jdbc.schema-version", "V1");
        options.put(CatalogProperties.WAREHOUSE_LOCATION, location("postgres"));
        break;
      case HIVE:
        options.put("catalog-type", "hive");
        options.put(CatalogProperties.URI, hive().uri());
        options.put(CatalogProperties.WAREHOUSE_LOCATION, location("hive"));
        break;
      default:
        throw new IllegalArgumentException("Unknown catalog " + kind);
    }
    return options;
  }

  /** The options as a SQL {@code WITH} list: {@code 'k' = 'v', ...}. */
  public String sqlOptions(TestCatalog kind) {
    return options(kind).entrySet().stream()
        .map(e -> String.format("'%s' = '%s'", e.getKey(), e.getValue()))
        .collect(Collectors.joining(", "));
  }

  /** The loader Flink jobs use, as Iceberg's Flink catalog factory would build it. */
  public CatalogLoader loader(TestCatalog kind) {
    return loader(kind, Map.of());
  }

  /**
   * The loader of {@code kind} with more catalog options, such as {@code io-impl}; they win over
   * the matrix's own.
   */
  public CatalogLoader loader(TestCatalog kind, Map<String, String> moreOptions) {
    Map<String, String> options = options(kind);
    options.putAll(moreOptions);
    switch (kind) {
      case HADOOP:
        return CatalogLoader.hadoop(NAME, new Configuration(), options);
      case JDBC:
      case POSTGRES:
        return CatalogLoader.custom(
            NAME, options, new Configuration(), options.get(CatalogProperties.CATALOG_IMPL));
      case REST:
        return CatalogLoader.rest(NAME, new Configuration(), options);
      case HIVE:
        return CatalogLoader.hive(NAME, new Configuration(), options);
      default:
        throw new IllegalArgumentException("Unknown catalog " + kind);
    }
  }

  /** The catalog itself, one per class and kind. */
  public Catalog catalog(TestCatalog kind) {
    return catalogs.computeIfAbsent(kind, k -> loader(k).loadCatalog());
  }

  /** Creates {@code namespace} unless it exists. */
  public void createNamespace(TestCatalog kind, Namespace namespace) {
    Catalog catalog = catalog(kind);
    if (catalog instanceof SupportsNamespaces) {
      try {
        // A mutable map: Iceberg's REST request builder looks up null keys in it.
        ((SupportsNamespaces) catalog).createNamespace(namespace, new HashMap<>());
      } catch (AlreadyExistsException exists) {
        // Created by an earlier test.
      }
    }
  }

  public TableLoader tableLoader(TestCatalog kind, TableIdentifier identifier) {
    return TableLoader.fromCatalog(loader(kind), identifier);
  }

  /** The PostgreSQL server, started on first use. */
  private PostgresServer postgres() {
    if (postgres == null) {
      try {
        postgres = PostgresServer.start();
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot start the PostgreSQL server", e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("Interrupted starting the PostgreSQL server", e);
      }
    }
    return postgres;
  }

  /** The Hive Metastore, the test JVM's, started on first use. */
  private HiveMetastoreServer hive() {
    if (hive == null) {
      try {
        hive = HiveMetastoreServer.shared();
      } catch (Exception e) {
        throw new IllegalStateException("Cannot start the Hive Metastore", e);
      }
    }
    return hive;
  }

  private String location(String name) {
    return directory.resolve(name).toUri().toString();
  }

  private static void deleteRecursively(Path root) {
    if (root == null || !Files.exists(root)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(root)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}

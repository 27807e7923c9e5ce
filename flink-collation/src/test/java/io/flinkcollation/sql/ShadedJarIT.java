package io.flinkcollation.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkcollation.collation.Collation;
import io.flinkcollation.collation.Collations;
import io.flinkcollation.metadata.TableCollations;
import io.flinkcollation.testing.CollationBoundsAssert;
import io.flinkcollation.testing.MiniClusters;
import java.io.File;
import java.io.IOException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.Enumeration;
import java.util.List;
import java.util.ServiceLoader;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.factories.CatalogFactory;
import org.apache.flink.table.factories.DynamicTableSinkFactory;
import org.apache.flink.table.factories.DynamicTableSourceFactory;
import org.apache.flink.table.factories.Factory;
import org.apache.flink.table.factories.FactoryUtil;
import org.apache.flink.table.factories.ModuleFactory;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shaded {@code -sql} jar as a Flink distribution sees it: loaded by its own class loader over
 * a parent that offers Flink, Hadoop and an unrelocated ICU4J (as Flink's own dependencies may),
 * but none of our classes, Iceberg or Jackson. Runs in Maven's {@code integration-test} phase,
 * after {@code package} has built the jar ({@code mvn verify}).
 */
class ShadedJarIT {

  @RegisterExtension static final MiniClusterExtension CLUSTER = MiniClusters.withSlots(1);

  private static File jar;
  private static ClassLoader distribution;

  @TempDir Path warehouse;

  @BeforeAll
  static void findJar() {
    String path = System.getProperty("flinkcollation.sql.jar");
    assertThat(path).as("system property flinkcollation.sql.jar (set by failsafe)").isNotNull();
    jar = new File(path);
    assertThat(jar).isFile();
    distribution = new DistributionClassLoader(ShadedJarIT.class.getClassLoader(), jar);
  }

  @Test
  void jarHoldsNoUnrelocatedIcuJacksonFlinkOrHadoopClasses() throws IOException {
    List<String> entries = new ArrayList<>();
    try (JarFile file = new JarFile(jar)) {
      Collections.list(file.entries()).stream().map(JarEntry::getName).forEach(entries::add);
    }

    assertThat(entries)
        .noneMatch(e -> e.startsWith("com/ibm/icu/"))
        .noneMatch(e -> e.startsWith("com/fasterxml/jackson/"))
        .noneMatch(e -> e.startsWith("org/apache/hadoop/"))
        .noneMatch(e -> e.startsWith("org/slf4j/"))
        // Iceberg's runtime ships one stub in Flink's namespace; nothing of Flink itself.
        .allMatch(
            e ->
                !e.startsWith("org/apache/flink/")
                    || e.startsWith("org/apache/flink/table/api/runtime/types/")
                    || e.endsWith("/"))
        .contains(
            "io/flinkcollation/sql/CollationCatalogFactory.class",
            "io/flinkcollation/shaded/com/ibm/icu/text/Collator.class",
            "io/flinkcollation/shaded/com/fasterxml/jackson/databind/ObjectMapper.class",
            "org/apache/iceberg/flink/FlinkCatalog.class");
    assertThat(entries)
        .anyMatch(
            e -> e.startsWith("io/flinkcollation/shaded/com/ibm/icu/impl/data/icudata/coll/"));
  }

  @Test
  void flinkServiceDiscoveryFindsTheCatalogAndConnectorInTheJar() throws Exception {
    try (URLClassLoader user = jarLoader()) {
      List<String> identifiers = new ArrayList<>();
      ServiceLoader.load(Factory.class, user).forEach(f -> identifiers.add(f.factoryIdentifier()));
      assertThat(identifiers).contains("iceberg-collation", "iceberg", "collation");

      Factory catalog =
          FactoryUtil.discoverFactory(user, CatalogFactory.class, "iceberg-collation");
      Factory sink =
          FactoryUtil.discoverFactory(user, DynamicTableSinkFactory.class, "iceberg-collation");
      Factory source =
          FactoryUtil.discoverFactory(user, DynamicTableSourceFactory.class, "iceberg-collation");
      for (Factory factory : List.of(catalog, sink, source)) {
        assertThat(factory.getClass().getClassLoader()).isSameAs(user);
      }
      assertThat(catalog.getClass().getName())
          .isEqualTo("io.flinkcollation.sql.CollationCatalogFactory");
      assertThat(sink.getClass().getName())
          .isEqualTo("io.flinkcollation.sql.CollationTableFactory");
      // LOAD MODULE collation finds the functions' module in the jar.
      Factory module = FactoryUtil.discoverFactory(user, ModuleFactory.class, "collation");
      assertThat(module.getClass().getName())
          .isEqualTo("io.flinkcollation.sql.function.CollationModuleFactory");
      assertThat(module.getClass().getClassLoader()).isSameAs(user);
    }
  }

  @Test
  void relocatedIcuResolvesCollationsLikeTheUnshadedLibrary() throws Exception {
    List<String> words =
        List.of(
            "apple", "APPLE", "Äpfel", "zebra", "Zürich", "zurich", "Ångström", "öl", "ol", "ß");
    try (URLClassLoader user = jarLoader()) {
      Class<?> shadedCollations = user.loadClass(Collations.class.getName());
      assertThat(shadedCollations.getClassLoader()).isSameAs(user);
      Method resolve = shadedCollations.getMethod("resolve", String.class);
      Class<?> collation = user.loadClass(Collation.class.getName());
      Method version = collation.getMethod("version");
      Method newComparator = collation.getMethod("newComparator");

      for (String name : List.of("icu.sv_SE", "icu.de_DE-ci-ai", "icu.en_US-ci", "icu.root")) {
        Object shaded = resolve.invoke(null, name);
        @SuppressWarnings("unchecked")
        Comparator<String> shadedOrder = (Comparator<String>) newComparator.invoke(shaded);

        assertThat(version.invoke(shaded)).as(name).isEqualTo(Collations.resolve(name).version());
        assertThat(sorted(words, shadedOrder))
            .as(name)
            .isEqualTo(sorted(words, Collations.resolve(name).newComparator()));
      }
      // Swedish tailoring (ä after z) proves that the relocated ICU found its locale data.
      @SuppressWarnings("unchecked")
      Comparator<String> order =
          (Comparator<String>) newComparator.invoke(resolve.invoke(null, "icu.sv_SE"));
      assertThat(order.compare("ä", "z")).isPositive();

      // The parent's own ICU stays what it is: two copies, no clash.
      assertThat(user.loadClass("com.ibm.icu.text.Collator").getClassLoader()).isNotSameAs(user);
      assertThat(
              user.loadClass("io.flinkcollation.shaded.com.ibm.icu.text.Collator").getClassLoader())
          .isSameAs(user);
    }
  }

  @Test
  void sqlWithTheJarInLibCreatesCollatedTablesAndWrites() throws Exception {
    // As in a distribution with the jar in lib/: the jar's classes are the context class loader
    // (Iceberg loads catalog implementations through it) and reach the task managers.
    ClassLoader previous = Thread.currentThread().getContextClassLoader();
    try (URLClassLoader lib = jarLoader()) {
      Thread.currentThread().setContextClassLoader(lib);
      TableEnvironment sql =
          TableEnvironment.create(
              EnvironmentSettings.newInstance().inBatchMode().withClassLoader(lib).build());
      sql.getConfig().set("pipeline.jars", jar.toURI().toString());
      String location = "'catalog-type' = 'hadoop', 'warehouse' = '" + warehouse.toUri() + "'";
      sql.executeSql("CREATE CATALOG lake WITH ('type' = 'iceberg-collation', " + location + ")");
      sql.executeSql("CREATE CATALOG ice WITH ('type' = 'iceberg', " + location + ")");
      sql.executeSql("CREATE DATABASE lake.db");
      sql.executeSql(
          "CREATE TABLE lake.db.users (id BIGINT, name STRING) WITH ('collation.name' ="
              + " 'icu.sv_SE-ci')");

      sql.executeSql("INSERT INTO lake.db.users VALUES (1, 'zebra'), (2, 'Äpple'), (3, 'apa')")
          .await();

      List<Row> rows = new ArrayList<>();
      try (CloseableIterator<Row> result =
          sql.executeSql("SELECT id FROM ice.db.users").collect()) {
        result.forEachRemaining(rows::add);
      }
      assertThat(rows).containsExactlyInAnyOrder(Row.of(1L), Row.of(2L), Row.of(3L));
    } finally {
      Thread.currentThread().setContextClassLoader(previous);
    }
    try (HadoopCatalog iceberg =
        new HadoopCatalog(new Configuration(), warehouse.toUri().toString())) {
      Table table = iceberg.loadTable(TableIdentifier.of("db", "users"));
      assertThat(TableCollations.fromTable(table).fields().values())
          .singleElement()
          .satisfies(
              field ->
                  assertThat(field.metrics().get(0).version())
                      .isEqualTo(Collations.resolve("icu.sv_SE-ci").version()));
      assertThat(CollationBoundsAssert.assertBoundsMatchData(table)).hasSize(1);
    }
  }

  /** A class loader over the jar alone, as Flink builds one for a jar in lib/ or ADD JAR. */
  private static URLClassLoader jarLoader() throws IOException {
    return new URLClassLoader(new URL[] {jar.toURI().toURL()}, distribution);
  }

  private static List<String> sorted(List<String> words, Comparator<String> order) {
    return words.stream().sorted(order).collect(Collectors.toList());
  }

  /**
   * The test class path as seen from a Flink distribution's {@code lib/}: Flink, Hadoop, logging
   * and ICU4J, but none of this module's classes, Iceberg or Jackson, which only the jar brings.
   */
  private static final class DistributionClassLoader extends ClassLoader {
    private static final List<String> HIDDEN_CLASSES =
        List.of("io.flinkcollation.", "org.apache.iceberg.", "com.fasterxml.jackson.");
    private static final List<String> HIDDEN_JARS = List.of("iceberg-flink-runtime", "/jackson-");

    private final String moduleTarget;

    DistributionClassLoader(ClassLoader parent, File jar) {
      super(parent);
      this.moduleTarget = jar.getParentFile().toURI().toString();
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
      if (HIDDEN_CLASSES.stream().anyMatch(name::startsWith)) {
        throw new ClassNotFoundException(name + " is not in a Flink distribution");
      }
      return super.loadClass(name, resolve);
    }

    @Override
    public URL getResource(String name) {
      Enumeration<URL> all;
      try {
        all = getResources(name);
      } catch (IOException e) {
        return null;
      }
      return all.hasMoreElements() ? all.nextElement() : null;
    }

    @Override
    public Enumeration<URL> getResources(String name) throws IOException {
      List<URL> visible = new ArrayList<>();
      for (URL url : Collections.list(getParent().getResources(name))) {
        String where = url.toString();
        boolean hidden =
            where.contains(moduleTarget.replace("file:", ""))
                || HIDDEN_JARS.stream().anyMatch(where::contains);
        if (!hidden) {
          visible.add(url);
        }
      }
      return Collections.enumeration(visible);
    }
  }
}

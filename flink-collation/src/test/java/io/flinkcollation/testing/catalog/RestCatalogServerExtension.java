package io.flinkcollation.testing.catalog;

import io.flinkcollation.testing.BuildDirectory;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.net.MalformedURLException;
import java.net.URI;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Starts Iceberg's REST catalog server ({@link RestCatalogServer}) on 127.0.0.1 before a test class
 * and stops it after.
 *
 * <p>The server needs unshaded Iceberg (its servlet speaks Jackson and Apache HttpClient types that
 * iceberg-flink-runtime relocates). So it runs in a class loader of its own, built from the jars
 * Maven lists in {@code target/rest-catalog-server.classpath} and this module's test classes, with
 * only the JDK as parent; Maven keeps those unshaded Iceberg jars off the tests' class path, and
 * {@link #beforeAll} checks that the library under test still runs on iceberg-flink-runtime.
 */
public final class RestCatalogServerExtension implements BeforeAllCallback, AfterAllCallback {

  private static final Path CLASSPATH_FILE =
      BuildDirectory.resolve("rest-catalog-server.classpath");
  private static final Path TEST_CLASSES = BuildDirectory.resolve("test-classes");

  private final Path directory;
  private URLClassLoader loader;
  private AutoCloseable server;
  private URI uri;

  /** A server whose warehouse and sqlite database live in {@code directory}. */
  public RestCatalogServerExtension(Path directory) {
    this.directory = directory;
  }

  /** The base URI clients use, {@code http://127.0.0.1:<port>/}. */
  public URI uri() {
    if (uri == null) {
      throw new IllegalStateException("The REST catalog server is not running");
    }
    return uri;
  }

  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    checkProductionClasses();
    loader =
        new URLClassLoader("rest-catalog-server", urls(), ClassLoader.getPlatformClassLoader());
    Thread thread = Thread.currentThread();
    ClassLoader previous = thread.getContextClassLoader();
    // Jetty's threads, sqlite's driver lookup and Hadoop's configuration use the context loader.
    thread.setContextClassLoader(loader);
    try {
      Files.createDirectories(directory);
      Object started =
          loader
              .loadClass(RestCatalogServer.class.getName())
              .getMethod("start", String.class, String.class)
              .invoke(
                  null,
                  directory.resolve("warehouse").toUri().toString(),
                  "jdbc:sqlite:" + directory.resolve("rest-catalog.db"));
      server = (AutoCloseable) started;
      uri = (URI) ((Supplier<?>) started).get();
    } catch (InvocationTargetException e) {
      throw new IllegalStateException("Cannot start the REST catalog server", e.getCause());
    } finally {
      thread.setContextClassLoader(previous);
    }
  }

  @Override
  public void afterAll(ExtensionContext context) throws Exception {
    try {
      if (server != null) {
        server.close();
      }
    } finally {
      uri = null;
      if (loader != null) {
        loader.close();
      }
    }
  }

  private static URL[] urls() throws IOException {
    if (!Files.isRegularFile(CLASSPATH_FILE)) {
      throw new IllegalStateException(
          CLASSPATH_FILE.toAbsolutePath()
              + " is missing: Maven writes it before the tests compile; run `mvn -pl"
              + " flink-collation test-compile` first");
    }
    List<URL> urls = new ArrayList<>();
    for (String jar : Files.readString(CLASSPATH_FILE).trim().split(java.io.File.pathSeparator)) {
      urls.add(url(Paths.get(jar)));
    }
    urls.add(url(TEST_CLASSES));
    return urls.toArray(new URL[0]);
  }

  private static URL url(Path path) throws MalformedURLException {
    return path.toAbsolutePath().toUri().toURL();
  }

  /** The tests must exercise the library on the classes it runs on in production. */
  private static void checkProductionClasses() {
    String icebergJar = Table.class.getProtectionDomain().getCodeSource().getLocation().toString();
    if (!icebergJar.contains("iceberg-flink-runtime")) {
      throw new IllegalStateException(
          "Iceberg's Table is loaded from "
              + icebergJar
              + ", not iceberg-flink-runtime: unshaded Iceberg leaked onto the tests' class path"
              + " (see classpathDependencyExcludes in flink-collation/pom.xml)");
    }
    try {
      Class.forName("org.apache.iceberg.rest.RESTCatalogServlet");
      throw new IllegalStateException(
          "Iceberg's REST server classes are on the tests' class path; they must only be in the"
              + " REST catalog server's class loader");
    } catch (ClassNotFoundException expected) {
      // As it should be.
    }
  }
}

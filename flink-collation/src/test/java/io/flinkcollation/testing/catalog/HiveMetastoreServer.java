package io.flinkcollation.testing.catalog;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.hadoop.hive.conf.HiveConf;
import org.apache.hadoop.hive.conf.HiveConf.ConfVars;
import org.apache.hadoop.hive.metastore.FileFormatProxy;
import org.apache.hadoop.hive.metastore.HiveMetaStore;
import org.apache.hadoop.hive.metastore.PartitionExpressionProxy;
import org.apache.hadoop.hive.metastore.TSetIpAddressProcessor;
import org.apache.hadoop.hive.metastore.api.FileMetadataExprType;
import org.apache.hadoop.hive.metastore.api.MetaException;
import org.apache.hadoop.hive.metastore.api.ThriftHiveMetastore;
import org.apache.hadoop.hive.metastore.txn.TxnDbUtil;
import org.apache.hadoop.hive.ql.io.sarg.SearchArgument;
import org.apache.hadoop.hive.serde2.typeinfo.PrimitiveTypeInfo;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.server.TServer;
import org.apache.thrift.server.TThreadPoolServer;
import org.apache.thrift.transport.TServerSocket;
import org.apache.thrift.transport.TTransportFactory;

/**
 * A Hive Metastore (Hive {@code 2.3}, the Hive line Iceberg's {@code HiveCatalog} is built for)
 * serving Thrift on 127.0.0.1 at a free port, its database an embedded Derby in a temporary
 * directory of its own.
 *
 * <p>Hive's own launcher ({@code HiveMetaStore.startMetaStore}) binds every interface, so this one
 * wires Hive's handler into a Thrift server on a loopback socket. The metastore's tables are
 * created by DataNucleus from Hive's own mapping ({@code package.jdo}, so the column sizes are
 * Hive's: {@code TABLE_PARAMS.PARAM_VALUE} is {@code VARCHAR(32672)}); the transaction tables
 * behind Hive's locks, which Iceberg's commits take, by Hive's {@code TxnDbUtil}.
 *
 * <p>It runs in the test JVM: Hive's client jars are on the tests' class path anyway (Iceberg's
 * {@code HiveCatalog} calls them), and Derby and DataNucleus meet nothing of Flink's. Hive keeps
 * the metastore's DataNucleus factory in a static field, so a JVM runs one server at a time: the
 * catalog tests share one per test JVM ({@link #shared}).
 */
public final class HiveMetastoreServer implements AutoCloseable {

  /** The longest value an HMS table parameter holds in this schema (Derby's column). */
  public static final int PARAM_VALUE_LIMIT = 32672;

  private static final int MAX_WORKER_THREADS = 64;

  private final Path base;
  private final String derbyUrl;
  private final TServer server;
  private final Thread serving;
  private final int port;

  private HiveMetastoreServer(
      Path base, String derbyUrl, TServer server, Thread serving, int port) {
    this.base = base;
    this.derbyUrl = derbyUrl;
    this.server = server;
    this.serving = serving;
    this.port = port;
  }

  private static HiveMetastoreServer shared;

  /**
   * The test JVM's metastore, started on first use and stopped when the JVM exits. One for all test
   * classes: Hive keeps the metastore's DataNucleus factory in a static field (so a JVM runs one
   * metastore at a time anyway), and creating the metastore's tables takes tens of seconds on a
   * loaded machine. Test classes give their catalogs their own warehouse and leave no database or
   * table behind ({@link CatalogMatrix}).
   */
  public static synchronized HiveMetastoreServer shared() throws Exception {
    if (shared == null) {
      HiveMetastoreServer server = start();
      Runtime.getRuntime()
          .addShutdownHook(
              new Thread(
                  () -> {
                    try {
                      server.close();
                    } catch (InterruptedException e) {
                      Thread.currentThread().interrupt();
                    }
                  },
                  "hive-metastore-shutdown"));
      shared = server;
    }
    return shared;
  }

  /** Starts a metastore on a new Derby database; its default warehouse is in its directory. */
  public static synchronized HiveMetastoreServer start() throws Exception {
    Path base = Files.createTempDirectory("catalog-hive");
    // Derby writes derby.log into the working directory unless told otherwise.
    System.setProperty("derby.stream.error.file", base.resolve("derby.log").toString());
    String derbyUrl = "jdbc:derby:" + base.resolve("metastore_db");
    TServerSocket socket = new TServerSocket(new InetSocketAddress("127.0.0.1", 0));
    int port = socket.getServerSocket().getLocalPort();

    HiveConf conf = new HiveConf(new org.apache.hadoop.conf.Configuration(), HiveConf.class);
    conf.setVar(ConfVars.METASTORECONNECTURLKEY, derbyUrl + ";create=true");
    conf.setVar(ConfVars.METASTOREWAREHOUSE, base.resolve("warehouse").toUri().toString());
    conf.setVar(ConfVars.METASTOREURIS, uri(port));
    conf.setBoolVar(ConfVars.METASTORE_SCHEMA_VERIFICATION, false);
    conf.setBoolean("datanucleus.schema.autoCreateAll", true);
    conf.setVar(ConfVars.METASTORE_EXPRESSION_PROXY_CLASS, NoPartitionExpressions.class.getName());
    // A refused write fails at once: Hive's default retries it 10 times, 2 s apart, which only
    // delays the error a test expects (a table parameter too long for its column).
    conf.setIntVar(ConfVars.HMSHANDLERATTEMPTS, 1);
    // Hive's commit locks (what Iceberg's HiveTableOperations takes) live in its transaction
    // tables, which DataNucleus does not create.
    TxnDbUtil.setConfValues(conf);
    TxnDbUtil.prepDb(conf);

    ThriftHiveMetastore.Iface handler =
        HiveMetaStore.newRetryingHMSHandler("catalog-tests", conf, false);
    TServer server =
        new TThreadPoolServer(
            new TThreadPoolServer.Args(socket)
                .processor(new TSetIpAddressProcessor<>(handler))
                .transportFactory(new TTransportFactory())
                .protocolFactory(new TBinaryProtocol.Factory())
                .minWorkerThreads(2)
                .maxWorkerThreads(MAX_WORKER_THREADS)
                // On stop, wait 1 s, not Thrift's 60, for workers still serving clients' open
                // connections (the catalogs' client pools): the JVM's exit waits for it.
                .stopTimeoutVal(1)
                .stopTimeoutUnit(TimeUnit.SECONDS));
    Thread serving = new Thread(server::serve, "hive-metastore-" + port);
    serving.setDaemon(true);
    serving.start();
    return new HiveMetastoreServer(base, derbyUrl, server, serving, port);
  }

  /** The URI clients use: {@code thrift://127.0.0.1:<port>}. */
  public String uri() {
    return uri(port);
  }

  /** The metastore's default warehouse; the catalog tests give each catalog its own. */
  public Path directory() {
    return base;
  }

  /** Stops the metastore and deletes its database; {@link #shared} stops at the JVM's exit. */
  @Override
  public synchronized void close() throws InterruptedException {
    server.stop();
    serving.join(TimeUnit.SECONDS.toMillis(30));
    try {
      DriverManager.getConnection(derbyUrl + ";shutdown=true").close();
    } catch (SQLException shutDown) {
      // Derby reports a database it shut down as an SQLException (state 08006).
    }
    deleteRecursively(base);
  }

  /**
   * What the metastore asks to filter partitions by a Hive expression. Hive's own (in hive-exec,
   * with Hive's whole query engine) is left out: Iceberg's tables have no Hive partitions, so
   * nothing here is ever called by the catalog tests.
   */
  public static final class NoPartitionExpressions implements PartitionExpressionProxy {
    @Override
    public String convertExprToFilter(byte[] expression) throws MetaException {
      throw unsupported();
    }

    @Override
    public boolean filterPartitionsByExpr(
        List<String> partitionColumns,
        List<PrimitiveTypeInfo> partitionTypes,
        byte[] expression,
        String defaultPartitionName,
        List<String> partitionNames)
        throws MetaException {
      throw unsupported();
    }

    @Override
    public FileMetadataExprType getMetadataType(String inputFormat) {
      return null;
    }

    @Override
    public FileFormatProxy getFileFormatProxy(FileMetadataExprType type) {
      return null;
    }

    @Override
    public SearchArgument createSarg(byte[] expression) {
      throw new UnsupportedOperationException(
          "The catalog tests' metastore has no Hive expression engine");
    }

    private static MetaException unsupported() {
      return new MetaException("The catalog tests' metastore has no Hive expression engine");
    }
  }

  private static String uri(int port) {
    return "thrift://127.0.0.1:" + port;
  }

  private static void deleteRecursively(Path root) {
    try (Stream<Path> paths = Files.walk(root)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}

package io.flinkcollation.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * A standalone Flink session cluster as separate JVM processes, started the way Flink's scripts
 * start them: {@code StandaloneSessionClusterEntrypoint} and {@code TaskManagerRunner} with the
 * memory flags {@code BashJavaUtils} computes from {@code config.yaml}, everything bound to
 * 127.0.0.1. The class path is the cluster's {@code lib/} (Flink's jars from Maven and the -sql
 * jar) and Hadoop's jars, as {@code HADOOP_CLASSPATH} would add them. Every process it starts is
 * stopped by {@link #close()}, by its process handle. Until then its id is recorded in a pid file,
 * so that CI (.ci/run) can stop what a test JVM that died left behind, by id.
 */
final class StandaloneCluster implements AutoCloseable {
  /** The distribution's default {@code env.java.opts.all} for Java 17 (Flink 2.1 config.yaml). */
  private static final List<String> JAVA_OPTS =
      List.of(
          "--add-exports=java.base/sun.net.util=ALL-UNNAMED",
          "--add-exports=java.rmi/sun.rmi.registry=ALL-UNNAMED",
          "--add-exports=java.security.jgss/sun.security.krb5=ALL-UNNAMED",
          "--add-opens=java.base/java.lang=ALL-UNNAMED",
          "--add-opens=java.base/java.net=ALL-UNNAMED",
          "--add-opens=java.base/java.io=ALL-UNNAMED",
          "--add-opens=java.base/java.nio=ALL-UNNAMED",
          "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
          "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
          "--add-opens=java.base/java.text=ALL-UNNAMED",
          "--add-opens=java.base/java.time=ALL-UNNAMED",
          "--add-opens=java.base/java.util=ALL-UNNAMED",
          "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
          "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED",
          "--add-opens=java.base/java.util.concurrent.locks=ALL-UNNAMED");

  private static final String BASH_JAVA_UTILS_RESULT = "BASH_JAVA_UTILS_EXEC_RESULT:";
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Path home;
  private final Path pids;
  private final Path conf;
  private final Path log;
  private final String classPath;
  private final int restPort;
  private final int gatewayPort;
  private final HttpClient http = HttpClient.newHttpClient();
  private final List<Process> started = new java.util.concurrent.CopyOnWriteArrayList<>();
  private final List<Process> taskManagers = new ArrayList<>();
  private final Map<Long, Path> logFiles = new java.util.concurrent.ConcurrentHashMap<>();
  private int processCount;
  private List<String> taskManagerParams;

  /**
   * @param home working directory: conf/ and log/ are written there
   * @param pids the folder of the pid files: {@code <pid>.pid} for each process running, holding
   *     the log4j configuration its command line names (so a reused id is not taken for it)
   * @param classPath the cluster's class path: its lib/ jars, then Hadoop's as {@code
   *     HADOOP_CLASSPATH} adds them (see {@link #classPath})
   * @param slotsPerTaskManager {@code taskmanager.numberOfTaskSlots}
   */
  StandaloneCluster(Path home, Path pids, String classPath, int slotsPerTaskManager)
      throws IOException {
    this.home = home;
    this.pids = Files.createDirectories(pids);
    this.conf = Files.createDirectories(home.resolve("conf"));
    this.log = Files.createDirectories(home.resolve("log"));
    this.classPath = classPath;
    this.restPort = freePort();
    this.gatewayPort = freePort();
    writeConfiguration(freePort(), slotsPerTaskManager);
    // Also when the test JVM itself is stopped before close() runs.
    Runtime.getRuntime()
        .addShutdownHook(new Thread(() -> started.forEach(Process::destroyForcibly)));
  }

  /** The jars of each directory (sorted) and each jar given, in order. */
  static String classPath(Path... directoriesOrJars) throws IOException {
    List<String> entries = new ArrayList<>();
    for (Path entry : directoriesOrJars) {
      if (Files.isDirectory(entry)) {
        try (var files = Files.list(entry)) {
          files
              .filter(f -> f.toString().endsWith(".jar"))
              .sorted()
              .forEach(f -> entries.add(f.toString()));
        }
      } else {
        entries.add(entry.toString());
      }
    }
    return String.join(File.pathSeparator, entries);
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  private void writeConfiguration(int rpcPort, int slotsPerTaskManager) throws IOException {
    String yaml =
        String.join(
            "\n",
            "jobmanager.rpc.address: 127.0.0.1",
            "jobmanager.rpc.port: " + rpcPort,
            "jobmanager.bind-host: 127.0.0.1",
            "rest.address: 127.0.0.1",
            "rest.bind-address: 127.0.0.1",
            "rest.port: " + restPort,
            "taskmanager.host: 127.0.0.1",
            "taskmanager.bind-host: 127.0.0.1",
            "jobmanager.memory.process.size: 1024m",
            "taskmanager.memory.process.size: 1024m",
            "taskmanager.numberOfTaskSlots: " + slotsPerTaskManager,
            "parallelism.default: 2",
            // A killed TaskManager is noticed within seconds, not the default 50 s.
            "heartbeat.interval: 1000",
            "heartbeat.timeout: 5000",
            // Pekko's remoting must start, and RPCs answer, within their timeouts (10 s by
            // default), which processes on a machine busy with builds can miss.
            "pekko.startup-timeout: 120 s",
            "pekko.ask.timeout: 60 s",
            "restart-strategy.type: fixed-delay",
            // Long enough for a replacement TaskManager to start on a busy machine.
            "restart-strategy.fixed-delay.attempts: 150",
            "restart-strategy.fixed-delay.delay: 2 s",
            "execution.target: remote",
            "sql-gateway.endpoint.rest.address: 127.0.0.1",
            "sql-gateway.endpoint.rest.bind-address: 127.0.0.1",
            "sql-gateway.endpoint.rest.port: " + gatewayPort,
            "");
    Files.writeString(conf.resolve("config.yaml"), yaml);
    String log4j =
        String.join(
            "\n",
            "rootLogger.level = INFO",
            "rootLogger.appenderRef.file.ref = FileAppender",
            "appender.file.name = FileAppender",
            "appender.file.type = FILE",
            "appender.file.fileName = ${sys:log.file}",
            "appender.file.layout.type = PatternLayout",
            "appender.file.layout.pattern = %d{HH:mm:ss,SSS} %-5p %-60c %x - %m%n",
            "");
    Files.writeString(conf.resolve("log4j.properties"), log4j);
  }

  int restPort() {
    return restPort;
  }

  int gatewayPort() {
    return gatewayPort;
  }

  Path logDirectory() {
    return log;
  }

  /**
   * Starts the JobManager and {@code taskManagers} TaskManagers and waits until all registered. A
   * process that dies while starting (Pekko's remoting gives up after 10 s, which a machine busy
   * with builds can exceed) is started again.
   */
  void start(int taskManagers) throws Exception {
    Process jobManager = startJobManager();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(300);
    while (registeredTaskManagers() != taskManagers) {
      assertThat(System.nanoTime())
          .as("waiting for %d registered TaskManagers, see %s", taskManagers, log)
          .isLessThan(deadline);
      if (!jobManager.isAlive()) {
        jobManager = startJobManager();
      }
      keepTaskManagers(taskManagers);
      Thread.sleep(500);
    }
  }

  private Process startJobManager() throws Exception {
    List<String> jm = bashJavaUtils("GET_JM_RESOURCE_PARAMS");
    return launch(
        "jobmanager",
        jm.get(0),
        "org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint",
        "--configDir " + conf + " " + jm.get(1));
  }

  /** Starts TaskManagers until {@code count} processes are alive; returns how many it started. */
  int keepTaskManagers(int count) throws Exception {
    int started = 0;
    while (taskManagers.stream().filter(Process::isAlive).count() < count) {
      startTaskManager();
      started++;
    }
    return started;
  }

  /** Starts one more TaskManager; returns its process. */
  Process startTaskManager() throws Exception {
    if (taskManagerParams == null) {
      taskManagerParams = bashJavaUtils("GET_TM_RESOURCE_PARAMS");
    }
    List<String> tm = taskManagerParams;
    Process process =
        launch(
            "taskmanager",
            tm.get(0),
            "org.apache.flink.runtime.taskexecutor.TaskManagerRunner",
            "--configDir " + conf + " " + tm.get(1));
    taskManagers.add(process);
    return process;
  }

  /** The log file of a process this cluster started. */
  Path logFile(Process process) {
    return logFiles.get(process.pid());
  }

  /** The TaskManager processes started so far, killed ones included. */
  List<Process> taskManagers() {
    return taskManagers;
  }

  /** The JVM parameters and dynamic configuration lines, as Flink's config.sh reads them. */
  private List<String> bashJavaUtils(String command) throws Exception {
    Path out = log.resolve("bash-java-utils-" + command + ".out");
    Process process =
        new ProcessBuilder(
                javaCommand(
                    "-Dlog.file=" + log.resolve("bash-java-utils.log"),
                    "org.apache.flink.runtime.util.bash.BashJavaUtils",
                    command + " --configDir " + conf))
            .redirectErrorStream(true)
            .redirectOutput(out.toFile())
            .start();
    track(process);
    assertThat(process.waitFor(120, TimeUnit.SECONDS)).as("BashJavaUtils %s", command).isTrue();
    untrack(process);
    List<String> results =
        Files.readAllLines(out).stream()
            .filter(line -> line.startsWith(BASH_JAVA_UTILS_RESULT))
            .map(line -> line.substring(BASH_JAVA_UTILS_RESULT.length()).trim())
            .collect(Collectors.toList());
    assertThat(results).as("BashJavaUtils %s output in %s", command, out).hasSize(2);
    return results;
  }

  private List<String> javaCommand(String jvmParams, String mainClass, String arguments) {
    return javaCommand(classPath, jvmParams, mainClass, arguments);
  }

  private List<String> javaCommand(
      String processClassPath, String jvmParams, String mainClass, String arguments) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(JAVA_OPTS);
    command.addAll(split(jvmParams));
    command.add("-Dlog4j.configurationFile=" + log4jConfiguration());
    command.add("-cp");
    command.add(processClassPath);
    command.add(mainClass);
    command.addAll(split(arguments));
    return command;
  }

  private static List<String> split(String words) {
    return Arrays.stream(words.trim().split("\\s+"))
        .filter(w -> !w.isEmpty())
        .collect(Collectors.toList());
  }

  /** Starts a cluster process in the background, its output and log in log/. */
  private Process launch(String name, String jvmParams, String mainClass, String arguments)
      throws IOException {
    return launch(name, classPath, jvmParams, mainClass, arguments);
  }

  /**
   * Starts a process beside the cluster (a server the jobs use) on its own class path, tracked and
   * stopped like the cluster's processes (so .ci/run stops it too should the test JVM die).
   */
  Process launch(
      String name, String processClassPath, String jvmParams, String mainClass, String arguments)
      throws IOException {
    String id = name + "-" + (++processCount);
    List<String> command =
        javaCommand(
            processClassPath,
            jvmParams + " -Dlog.file=" + log.resolve(id + ".log"),
            mainClass,
            arguments);
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(log.resolve(id + ".out").toFile());
    builder.environment().put("FLINK_CONF_DIR", conf.toString());
    Process process = builder.start();
    track(process);
    logFiles.put(process.pid(), log.resolve(id + ".log"));
    return process;
  }

  /** Records a started process: in {@link #started}, and by its id in {@link #pids}. */
  private void track(Process process) throws IOException {
    started.add(process);
    Files.writeString(pidFile(process), log4jConfiguration());
  }

  /** Forgets the pid file of a process that has ended. */
  private void untrack(Process process) throws IOException {
    Files.deleteIfExists(pidFile(process));
  }

  private Path pidFile(Process process) {
    return pids.resolve(process.pid() + ".pid");
  }

  /** The value of every cluster process's {@code -Dlog4j.configurationFile}. */
  private String log4jConfiguration() {
    return conf.resolve("log4j.properties").toUri().toString();
  }

  /**
   * Starts the SQL gateway (REST endpoint on {@link #gatewayPort()}) and waits until it answers.
   */
  void startSqlGateway() throws Exception {
    launch("sql-gateway", "-Xmx512m", "org.apache.flink.table.gateway.SqlGateway", "");
    await(
        () -> get("http://127.0.0.1:" + gatewayPort + "/v1/info") != null,
        Duration.ofSeconds(120),
        "the SQL gateway");
  }

  /**
   * Runs Flink's CLI ({@code CliFrontend}) with {@code arguments} in a new process; returns it
   * (output in log/).
   */
  Process flinkCli(String... arguments) throws IOException {
    return launch(
        "flink-cli",
        "-Xmx512m",
        "org.apache.flink.client.cli.CliFrontend",
        String.join(" ", arguments));
  }

  /** GET returning the parsed JSON body, or null when nothing answers or the status is not 200. */
  JsonNode get(String uri) {
    try {
      HttpResponse<String> response =
          http.send(
              HttpRequest.newBuilder(URI.create(uri)).timeout(Duration.ofSeconds(10)).build(),
              HttpResponse.BodyHandlers.ofString());
      return response.statusCode() == 200 ? JSON.readTree(response.body()) : null;
    } catch (IOException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** POST of a JSON body; fails with the response's errors unless the status is 200. */
  JsonNode post(String uri, Map<String, ?> body) throws Exception {
    HttpResponse<String> response =
        http.send(
            HttpRequest.newBuilder(URI.create(uri))
                .header("Content-Type", "application/json")
                .POST(
                    HttpRequest.BodyPublishers.ofString(
                        JSON.writeValueAsString(body), StandardCharsets.UTF_8))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as("POST %s: %s", uri, response.body()).isEqualTo(200);
    return JSON.readTree(response.body());
  }

  int registeredTaskManagers() {
    JsonNode managers = get("http://127.0.0.1:" + restPort + "/taskmanagers");
    return managers == null ? -1 : managers.path("taskmanagers").size();
  }

  static void await(java.util.function.BooleanSupplier condition, Duration timeout, String what)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime()).as("waiting for %s", what).isLessThan(deadline);
      Thread.sleep(200);
    }
  }

  /** SIGKILL, as {@code kill -9}: the process gets no chance to clean up. */
  static void kill(Process process) throws InterruptedException {
    process.destroyForcibly();
    process.waitFor(30, TimeUnit.SECONDS);
  }

  /**
   * Stops every process this cluster started, by its handle, whatever state it is in, and removes
   * the pid file of each that has ended.
   */
  @Override
  public void close() throws InterruptedException, IOException {
    for (Process process : started) {
      process.destroy();
    }
    for (Process process : started) {
      if (!process.waitFor(20, TimeUnit.SECONDS)) {
        kill(process);
      }
      if (!process.isAlive()) {
        untrack(process);
      }
    }
  }

  Path home() {
    return home;
  }
}

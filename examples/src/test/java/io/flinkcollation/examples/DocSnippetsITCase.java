package io.flinkcollation.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Method;
import java.net.URI;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every Java and SQL snippet that README.md and docs/*.md show is compiled or executed here, so a
 * snippet cannot rot. The conventions (also in docs/design.md, "Snippets in the docs"):
 *
 * <ul>
 *   <li>Only fences labelled {@code java} or {@code sql} are snippets; shell commands, output and
 *       JSON use other labels (or none).
 *   <li>{@code /tmp/warehouse} in a snippet stands for a fresh temporary folder per Markdown file.
 *   <li>A {@code java} block that declares a class is a complete compilation unit; if it has a
 *       {@code main(String[])}, it is also run. Any other {@code java} block is a sequence of
 *       statements, compiled as the body of a method that has these variables in scope: {@code
 *       Table table} (Iceberg), {@code TableLoader loader}, {@code StreamExecutionEnvironment env},
 *       {@code DataStream<RowData> rows} and {@code DataStream<RowData> changes}, with the imports
 *       of {@link #STATEMENT_IMPORTS}.
 *   <li>The {@code sql} blocks of one file run in order in one batch {@link TableEnvironment}.
 *       {@code SET 'key' = 'value'} and {@code RESET 'key'} change the session's configuration, as
 *       in the SQL client. Unless the file creates the catalog {@code lake} itself, the test first
 *       creates it ({@code iceberg-collation} over a Hadoop warehouse) with the database {@code
 *       lake.db}. Every statement is executed and its result read to the end.
 * </ul>
 */
class DocSnippetsITCase {

  /** The imports statement snippets are compiled with. */
  static final List<String> STATEMENT_IMPORTS =
      List.of(
          "io.flinkcollation.collation.*",
          "io.flinkcollation.metadata.*",
          "io.flinkcollation.scan.*",
          "io.flinkcollation.sink.*",
          "io.flinkcollation.maintenance.*",
          "io.flinkcollation.examples.CoverageSvg",
          "java.util.*",
          "org.apache.iceberg.DistributionMode",
          "org.apache.iceberg.Table",
          "org.apache.iceberg.catalog.*",
          "org.apache.iceberg.expressions.*",
          "org.apache.iceberg.flink.*",
          "org.apache.flink.streaming.api.datastream.*",
          "org.apache.flink.streaming.api.environment.*",
          "org.apache.flink.table.data.RowData");

  private static final String WAREHOUSE = "/tmp/warehouse";
  private static final Pattern FENCE = Pattern.compile("^(\\s*)```\\s*([A-Za-z0-9_+-]*)\\s*$");
  private static final Pattern CLASS =
      Pattern.compile(
          "(?m)^(?:public\\s+|final\\s+|abstract\\s+)*(?:class|record|interface)\\s+(\\w+)");
  private static final Pattern PACKAGE = Pattern.compile("(?m)^package\\s+([\\w.]+)\\s*;");
  private static final Pattern SET = Pattern.compile("(?is)SET\\s+'([^']+)'\\s*=\\s*'([^']*)'");
  private static final Pattern RESET = Pattern.compile("(?is)RESET\\s+'([^']+)'");
  private static final Pattern MAIN = Pattern.compile("static\\s+void\\s+main\\s*\\(");

  @TempDir Path dir;

  @Test
  void everyJavaSnippetCompilesAndEveryCompleteProgramRuns() throws Exception {
    List<Snippet> snippets = snippets("java");
    assertThat(snippets).as("java snippets in README.md and docs/").isNotEmpty();

    Path classes = Files.createDirectories(dir.resolve("classes"));
    List<Source> sources = new ArrayList<>();
    List<Source> programs = new ArrayList<>();
    for (Snippet snippet : snippets) {
      Source source = source(snippet);
      sources.add(source);
      if (source.complete && MAIN.matcher(source.code).find()) {
        programs.add(source);
      }
    }
    compile(sources, classes);

    try (URLClassLoader loader =
        new URLClassLoader(new URL[] {classes.toUri().toURL()}, getClass().getClassLoader())) {
      for (Source program : programs) {
        Method main = loader.loadClass(program.className).getMethod("main", String[].class);
        main.invoke(null, (Object) new String[0]);
      }
    }
    System.out.printf(
        "Doc snippets: %d java blocks compiled (%d complete classes, %d statement blocks), %d"
            + " programs run%n",
        sources.size(),
        sources.stream().filter(s -> s.complete).count(),
        sources.stream().filter(s -> !s.complete).count(),
        programs.size());
  }

  @Test
  void everySqlSnippetExecutes() throws Exception {
    List<Snippet> snippets = snippets("sql");
    assertThat(snippets).as("sql snippets in README.md and docs/").isNotEmpty();
    int statements = 0;
    for (Path file : snippets.stream().map(s -> s.file).distinct().collect(Collectors.toList())) {
      List<Snippet> ofFile =
          snippets.stream().filter(s -> s.file.equals(file)).collect(Collectors.toList());
      TableEnvironment sql = TableEnvironment.create(EnvironmentSettings.inBatchMode());
      boolean createsLake =
          ofFile.stream()
              .anyMatch(s -> s.code.toUpperCase(Locale.ROOT).contains("CREATE CATALOG LAKE"));
      if (!createsLake) {
        execute(
            sql,
            "CREATE CATALOG lake WITH ('type' = 'iceberg-collation', 'catalog-type' = 'hadoop',"
                + " 'warehouse' = 'file://"
                + WAREHOUSE
                + "')",
            ofFile.get(0));
        execute(sql, "CREATE DATABASE IF NOT EXISTS lake.db", ofFile.get(0));
      }
      for (Snippet snippet : ofFile) {
        for (String statement : SqlStatements.split(snippet.code)) {
          execute(sql, statement, snippet);
          statements++;
        }
      }
    }
    System.out.printf(
        "Doc snippets: %d sql blocks, %d statements executed%n", snippets.size(), statements);
  }

  private void execute(TableEnvironment sql, String statement, Snippet snippet) throws Exception {
    String resolved = statement.replace(WAREHOUSE, warehouse(snippet.file));
    Matcher set = SET.matcher(resolved);
    Matcher reset = RESET.matcher(resolved);
    if (set.matches()) {
      // What the SQL client and gateway do with SET: the session's configuration.
      sql.getConfig().set(set.group(1), set.group(2));
      return;
    } else if (reset.matches()) {
      sql.getConfig().getConfiguration().removeKey(reset.group(1));
      return;
    }
    try {
      TableResult result = sql.executeSql(resolved);
      if (resolved.toUpperCase(Locale.ROOT).startsWith("INSERT")) {
        // Its result is only the job's: wait for the commit.
        result.await();
      } else {
        try (CloseableIterator<Row> rows = result.collect()) {
          rows.forEachRemaining(row -> {});
        }
      }
    } catch (Exception | AssertionError e) {
      throw new AssertionError(snippet.where() + ": " + statement, e);
    }
  }

  private String warehouse(Path markdown) throws IOException {
    Path warehouse = dir.resolve("warehouse-" + markdown.getFileName().toString());
    Files.createDirectories(warehouse);
    return warehouse.toAbsolutePath().toString();
  }

  private Source source(Snippet snippet) throws IOException {
    String code = snippet.code.replace(WAREHOUSE, warehouse(snippet.file));
    Matcher declared = CLASS.matcher(code);
    if (declared.find()) {
      Matcher pkg = PACKAGE.matcher(code);
      String className = pkg.find() ? pkg.group(1) + "." + declared.group(1) : declared.group(1);
      return new Source(snippet, className, code, true);
    }
    String className = "docsnippets." + snippet.id();
    StringBuilder unit = new StringBuilder("package docsnippets;\n");
    STATEMENT_IMPORTS.forEach(i -> unit.append("import ").append(i).append(";\n"));
    unit.append("class ")
        .append(snippet.id())
        .append(" {\n  void run(Table table, TableLoader loader, StreamExecutionEnvironment env,")
        .append(" DataStream<RowData> rows, DataStream<RowData> changes) throws Exception {\n")
        .append(code)
        .append("\n  }\n}\n");
    return new Source(snippet, className, unit.toString(), false);
  }

  private static void compile(List<Source> sources, Path classes) throws IOException {
    JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    try (StandardJavaFileManager files =
        compiler.getStandardFileManager(diagnostics, Locale.ROOT, StandardCharsets.UTF_8)) {
      List<String> options =
          List.of(
              "-classpath",
              testClassPath(),
              "-d",
              classes.toString(),
              "-proc:none",
              "-encoding",
              "UTF-8",
              "-Xlint:none");
      boolean compiled =
          compiler
              .getTask(null, files, diagnostics, options, null, new ArrayList<>(sources))
              .call();
      String errors =
          diagnostics.getDiagnostics().stream()
              .filter(d -> d.getKind() == Diagnostic.Kind.ERROR)
              .map(DocSnippetsITCase::describe)
              .collect(Collectors.joining("\n"));
      assertThat(compiled).as("snippets failed to compile:%n%s", errors).isTrue();
    }
  }

  private static String describe(Diagnostic<? extends JavaFileObject> diagnostic) {
    Source source = (Source) diagnostic.getSource();
    String where = source == null ? "?" : source.snippet.where();
    return where
        + " (generated line "
        + diagnostic.getLineNumber()
        + "): "
        + diagnostic.getMessage(Locale.ROOT)
        + (source == null || source.complete ? "" : "\n" + source.code);
  }

  /** The class path of this test: Surefire and Failsafe hand it over in a property. */
  private static String testClassPath() {
    String path = System.getProperty("surefire.test.class.path");
    return path == null || path.isBlank() ? System.getProperty("java.class.path") : path;
  }

  /** The fenced blocks labelled {@code language} in README.md and docs/*.md. */
  private static List<Snippet> snippets(String language) throws IOException {
    Path root = Paths.get("").toAbsolutePath().getParent();
    List<Path> markdown = new ArrayList<>();
    markdown.add(root.resolve("README.md"));
    try (Stream<Path> docs = Files.list(root.resolve("docs"))) {
      docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(markdown::add);
    }
    // -Ddoc.snippets=docs/sql.md checks one page only, while writing it.
    String only = System.getProperty("doc.snippets");
    if (only != null && !only.isBlank()) {
      markdown.removeIf(p -> !root.relativize(p).toString().equals(only));
    }
    List<Snippet> snippets = new ArrayList<>();
    for (Path file : markdown) {
      List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
      for (int i = 0; i < lines.size(); i++) {
        Matcher open = FENCE.matcher(lines.get(i));
        if (!open.matches()) {
          continue;
        }
        int indent = open.group(1).length();
        int start = i + 1;
        StringBuilder code = new StringBuilder();
        for (i = start; i < lines.size() && !FENCE.matcher(lines.get(i)).matches(); i++) {
          String line = lines.get(i);
          code.append(line.length() >= indent ? line.substring(indent) : line.strip()).append('\n');
        }
        if (open.group(2).equals(language)) {
          snippets.add(new Snippet(root, file, start, code.toString()));
        }
      }
    }
    return snippets;
  }

  /** One fenced block: where it is and what it holds. */
  private static final class Snippet {
    final Path root;
    final Path file;
    final int line;
    final String code;

    Snippet(Path root, Path file, int line, String code) {
      this.root = root;
      this.file = file;
      this.line = line;
      this.code = code;
    }

    String where() {
      return root.relativize(file) + ":" + line;
    }

    String id() {
      return "Snippet_"
          + root.relativize(file).toString().replaceAll("[^A-Za-z0-9]", "_")
          + "_"
          + line;
    }
  }

  /** A compilation unit made from a snippet. */
  private static final class Source extends SimpleJavaFileObject {
    final Snippet snippet;
    final String className;
    final String code;
    final boolean complete;

    Source(Snippet snippet, String className, String code, boolean complete) {
      super(
          URI.create("string:///" + className.replace('.', '/') + Kind.SOURCE.extension),
          Kind.SOURCE);
      this.snippet = snippet;
      this.className = className;
      this.code = code;
      this.complete = complete;
    }

    @Override
    public CharSequence getCharContent(boolean ignoreEncodingErrors) {
      return code;
    }
  }
}

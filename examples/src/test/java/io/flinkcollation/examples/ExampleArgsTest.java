package io.flinkcollation.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The examples' command lines: values, defaults, and errors that name the argument. */
class ExampleArgsTest {

  @Test
  void readsOptionsFlagsAndDefaults() {
    ExampleArgs args =
        ExampleArgs.parse(
            new String[] {"--rows", "1_000", "--json"},
            Set.of("rows", "warehouse"),
            Set.of("json"));
    assertThat(args.getLong("rows", 5)).isEqualTo(1000);
    assertThat(args.get("warehouse", "warehouse")).isEqualTo("warehouse");
    assertThat(args.flag("json")).isTrue();
    assertThat(args.flag("help")).isFalse();
  }

  @Test
  void errorsNameTheArgument() {
    Set<String> keys = Set.of("rows", "warehouse");
    assertThatThrownBy(() -> ExampleArgs.parse(new String[] {"--row", "3"}, keys, Set.of()))
        .hasMessage("unknown argument '--row'");
    assertThatThrownBy(() -> ExampleArgs.parse(new String[] {"--rows"}, keys, Set.of()))
        .hasMessage("--rows needs a value");
    assertThatThrownBy(
            () ->
                ExampleArgs.parse(new String[] {"--rows", "many"}, keys, Set.of())
                    .getLong("rows", 1))
        .hasMessage("--rows must be a whole number; got 'many'");
    assertThatThrownBy(() -> ExampleArgs.parse(new String[0], keys, Set.of()).required("warehouse"))
        .hasMessage("--warehouse is required");
  }

  @Test
  void ingestionPrintsItsUsageOnABadCommandLine() {
    PrintStream err = System.err;
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    System.setErr(new PrintStream(bytes, true, StandardCharsets.UTF_8));
    try {
      assertThat(Ingestion.parse(new String[] {"--rows", "ten"}, "StreamingIngestion")).isNull();
    } finally {
      System.setErr(err);
    }
    assertThat(bytes.toString(StandardCharsets.UTF_8))
        .contains("Error: --rows must be a whole number; got 'ten'")
        .contains("Usage: StreamingIngestion [--warehouse DIR (default: warehouse)]");
  }
}

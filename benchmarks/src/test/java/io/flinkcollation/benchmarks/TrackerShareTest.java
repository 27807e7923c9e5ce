package io.flinkcollation.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.runner.options.CommandLineOptions;

/** A smoke test of the JMH harness: a tiny run in this JVM yields and prints a share per case. */
class TrackerShareTest {

  @Test
  void tinyRunPrintsTheShareOfEverySelectedCase() throws Exception {
    List<TrackerShare.Share> shares =
        TrackerShare.run(
            new CommandLineOptions(
                ("-f 0 -wi 0 -i 2 -r 10ms -p family=URL,CJK -p cardinality=LOW").split(" ")));

    assertThat(shares)
        .extracting(share -> share.family + " " + share.cardinality)
        .containsExactly("CJK LOW", "URL LOW");
    for (TrackerShare.Share share : shares) {
      // Times of an unwarmed JVM: only their presence is checked, never their size.
      assertThat(share.tracker.score).isPositive();
      assertThat(share.stock.score).isPositive();
      assertThat(share.lowerPercent()).isBetween(0.0, share.percent());
      assertThat(share.upperPercent()).isGreaterThanOrEqualTo(share.percent());
      // One fork (-f 0 runs in this JVM): the one JVM pair's share is the share.
      assertThat(share.forkPercents()).containsExactly(share.percent());
    }
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    TrackerShare.print(shares, new PrintStream(printed, true, StandardCharsets.UTF_8));
    assertThat(printed.toString(StandardCharsets.UTF_8))
        .contains("CJK                 icu.zh           low")
        .contains("URL                 icu.en_US-ci     low")
        .contains("max share per collated column: ");
  }
}

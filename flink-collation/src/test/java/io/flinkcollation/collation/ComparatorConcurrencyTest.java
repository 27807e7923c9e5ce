package io.flinkcollation.collation;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every {@code newComparator()} call hands out an independent comparator: a thawed ICU collator
 * keeps per-instance buffers, so two threads sharing one would get wrong answers. The writer relies
 * on this by building one comparator per subtask.
 */
class ComparatorConcurrencyTest {

  private static final int THREADS = 4;
  private static final int ROUNDS = 20;
  private static ExecutorService pool;

  @BeforeAll
  static void startPool() {
    pool = Executors.newFixedThreadPool(THREADS);
  }

  @AfterAll
  static void stopPool() {
    pool.shutdownNow();
  }

  @ParameterizedTest
  @ValueSource(strings = {"icu.en_US", "icu.de_DE-ci-ai-rtrim", "icu.sv_SE-ci", "icu.tr_TR-ai"})
  void comparatorsUsedConcurrentlyGiveTheSingleThreadedResult(String name) throws Exception {
    Collation collation = Collations.resolve(name);
    List<String> values = sampleValues(new Random(42), 400);
    int[] expected = signs(collation.newComparator(), values);

    assertThat(collation.newComparator()).isNotSameAs(collation.newComparator());

    CyclicBarrier start = new CyclicBarrier(THREADS);
    List<Future<int[]>> results = new ArrayList<>();
    for (int t = 0; t < THREADS; t++) {
      results.add(
          pool.submit(
              () -> {
                // Each thread asks for its own comparator, at the same time as the others.
                start.await();
                Comparator<String> comparator = collation.newComparator();
                int[] last = null;
                for (int round = 0; round < ROUNDS; round++) {
                  last = signs(comparator, values);
                  if (!Arrays.equals(last, expected)) {
                    return last;
                  }
                }
                return last;
              }));
    }
    for (Future<int[]> result : results) {
      assertThat(result.get(60, TimeUnit.SECONDS)).isEqualTo(expected);
    }
  }

  /** Signs of comparing each value with its successor (wrapping), a cheap fingerprint of order. */
  private static int[] signs(Comparator<String> comparator, List<String> values) {
    int[] signs = new int[values.size()];
    for (int i = 0; i < values.size(); i++) {
      signs[i] =
          Integer.signum(comparator.compare(values.get(i), values.get((i + 1) % values.size())));
    }
    return signs;
  }

  /**
   * Random words over characters where the collations disagree (case, accents, Swedish, Turkish and
   * German letters), some equal under ci/ai, some with trailing spaces. The combining accent,
   * Greek, Cyrillic, Hangul, CJK and emoji matter: they leave ICU's "fast Latin" path, which keeps
   * no state, for the one that uses the collator's buffers; only there would sharing show.
   */
  private static List<String> sampleValues(Random random, int count) {
    String alphabet = "aAbBeEéÉiIıİoOöÖsSßzZäÄåÅ \u0301ΣσςЖж한中\ud83d\ude00";
    List<String> values = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      int length = 1 + random.nextInt(40);
      StringBuilder value = new StringBuilder();
      for (int j = 0; j < length; j++) {
        int index = random.nextInt(alphabet.length());
        if (Character.isHighSurrogate(alphabet.charAt(index))) {
          value.append(alphabet, index, index + 2);
        } else if (Character.isLowSurrogate(alphabet.charAt(index))) {
          value.append(alphabet, index - 1, index + 1);
        } else {
          value.append(alphabet.charAt(index));
        }
      }
      values.add(value.toString());
      if (i % 10 == 0) {
        values.add(value.toString().toUpperCase(Locale.ROOT) + "  ");
      }
    }
    return values;
  }
}

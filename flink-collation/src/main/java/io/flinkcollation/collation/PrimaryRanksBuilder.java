package io.flinkcollation.collation;

import static io.flinkcollation.collation.PrimaryRanks.ANY_FIRST_PRIMARY;
import static io.flinkcollation.collation.PrimaryRanks.CONTINUES;
import static io.flinkcollation.collation.PrimaryRanks.FLAG_BITS;
import static io.flinkcollation.collation.PrimaryRanks.LIMIT;
import static io.flinkcollation.collation.PrimaryRanks.PAD;
import static io.flinkcollation.collation.PrimaryRanks.STARTER;

import com.ibm.icu.lang.UCharacter;
import com.ibm.icu.lang.UCharacterCategory;
import com.ibm.icu.text.CollationElementIterator;
import com.ibm.icu.text.CollationKey;
import com.ibm.icu.text.Collator;
import com.ibm.icu.text.Normalizer2;
import com.ibm.icu.text.RuleBasedCollator;
import com.ibm.icu.text.UnicodeSet;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds the {@link PrimaryRanks} of one collator, with its settings (strength and case level do
 * not matter; alternate handling, numeric collation and reordering do): asks ICU for its
 * contractions, prefix mappings and each character's collation elements, ranks every character of
 * the Basic Multilingual Plane that qualifies (the rules are {@link PrimaryRanks}'), checks the
 * ranks against the collator, and computes the first-primary ranges ({@link FirstPrimaries}) and
 * the pairs of starters and the characters that go on their contractions. Costs some tens of
 * milliseconds; only ICU's public API (docs/tracker.md).
 *
 * <p>Not part of the supported API ({@link io.flinkcollation.api.PublicApi}): public for this
 * project's tests only. The {@code flink-collation-icu78} artifact holds a relocated copy that
 * calls ICU 78 (docs/operations.md#icu-upgrades).
 */
public final class PrimaryRanksBuilder {

  private PrimaryRanksBuilder() {}

  /**
   * The ranks of {@code collator} (read only, not kept); {@link PrimaryRanks#NONE} when ICU cannot
   * list its contractions.
   */
  public static PrimaryRanks build(RuleBasedCollator collator, PadAttribute pad) {
    RuleBasedCollator primary = collator.cloneAsThawed();
    primary.setStrength(Collator.PRIMARY);
    primary.setCaseLevel(false);

    UnicodeSet withPrefixes = new UnicodeSet();
    UnicodeSet contractions = new UnicodeSet();
    try {
      collator.getContractionsAndExpansions(withPrefixes, null, true);
      collator.getContractionsAndExpansions(contractions, null, false);
    } catch (Exception e) {
      // Declared by ICU's signature; without the contractions nothing can be ranked safely.
      return PrimaryRanks.NONE;
    }
    // A prefix mapping "P|c" is listed as P + c: what follows the first code point depends on
    // the text before it. A contraction's later code points go on from its starter.
    UnicodeSet prefixed = new UnicodeSet();
    UnicodeSet starters = new UnicodeSet();
    UnicodeSet continuing = new UnicodeSet();
    Map<Integer, UnicodeSet> laterByStarter = new HashMap<>();
    Map<Integer, List<String>> contractionsByStarter = new HashMap<>();
    Normalizer2 nfd = Normalizer2.getNFDInstance();
    // By the first code point of their decomposition, for the first primaries.
    Map<Integer, List<String>> contractionsByFirst = new HashMap<>();
    for (String s : withPrefixes) {
      if (!contractions.contains(s)) {
        addCodePoints(prefixed, s.substring(Character.charCount(s.codePointAt(0))));
      }
    }
    for (String s : contractions) {
      int first = s.codePointAt(0);
      starters.add(first);
      String later = s.substring(Character.charCount(first));
      addCodePoints(continuing, later);
      addCodePoints(laterByStarter.computeIfAbsent(first, k -> new UnicodeSet()), later);
      contractionsByStarter.computeIfAbsent(first, k -> new ArrayList<>()).add(s);
      contractionsByFirst
          .computeIfAbsent(nfd.normalize(s).codePointAt(0), k -> new ArrayList<>())
          .add(s);
    }

    boolean numeric = collator.getNumericCollation();
    // {code point, flags, its decomposition's first code point}
    List<int[]> ranked = new ArrayList<>();
    for (int cp = 0; cp < LIMIT; cp++) {
      int type = UCharacter.getType(cp);
      if (type == UCharacterCategory.UNASSIGNED
          || type == UCharacterCategory.SURROGATE
          || type == UCharacterCategory.PRIVATE_USE
          || (numeric && type == UCharacterCategory.DECIMAL_DIGIT_NUMBER)) {
        continue;
      }
      String single = new String(Character.toChars(cp));
      String decomposed = nfd.normalize(single);
      if (UCharacter.getCombiningClass(decomposed.codePointAt(0)) != 0
          || containsAny(prefixed, decomposed)) {
        continue;
      }
      if (primaryWeights(collator, single) != 1 || primary.compare(single, "") == 0) {
        continue;
      }
      // A precomposed character that holds a starter (Swedish å is a + ring, and a + ring is a
      // contraction) may start a contraction like the starter does: it counts only where a
      // starter would.
      boolean starter =
          starters.contains(cp)
              || (!decomposed.equals(single) && containsAny(starters, decomposed));
      int flags = starter ? STARTER : 0;
      if (cp == ' ' && pad == PadAttribute.PAD_SPACE) {
        if (starter || continuing.contains(cp)) {
          continue;
        }
        flags = PAD;
      }
      ranked.add(new int[] {cp, flags, decomposed.codePointAt(0)});
    }
    // Sorted by primary collation keys: tens of thousands of characters, so not by compare().
    Map<Integer, CollationKey> keys = new HashMap<>();
    for (int[] entry : ranked) {
      keys.put(entry[0], primary.getCollationKey(new String(Character.toChars(entry[0]))));
    }
    ranked.sort((a, b) -> keys.get(a[0]).compareTo(keys.get(b[0])));
    int[] entries = entries(primary, ranked, keys);
    int[] continuations = continuations(ranked, laterByStarter, entries);
    int[] ranks = new int[LIMIT];
    for (int cp = 0; cp < LIMIT; cp++) {
      ranks[cp] = entries[cp] >>> FLAG_BITS;
    }
    FirstPrimaries firstPrimaries = new FirstPrimaries(primary, pad, ranks);
    return new PrimaryRanks(
        entries,
        continuations,
        continuationRanges(continuations, contractionsByStarter, firstPrimaries),
        firstPrimaries.ranges(numeric, contractionsByFirst),
        firstPrimaries);
  }

  /**
   * Per pair of {@code continuations}, a starter S and a character C that goes on one of its
   * contractions, the range of the first primary of any text that starts with S C: over every
   * contraction of S whose rest and C's decomposition start one with the other (the longest one
   * that matches gives the first mapping, and a contraction completed by C's decomposition is
   * listed with C too), and S's own mapping unless one of them is exactly S C, which then always
   * matches. {@link #ANY_FIRST_PRIMARY} for a precomposed starter, whose contractions ICU may list
   * under its decomposition.
   */
  private static long[] continuationRanges(
      int[] continuations, Map<Integer, List<String>> contractionsByStarter, FirstPrimaries first) {
    Normalizer2 nfd = Normalizer2.getNFDInstance();
    long[] ranges = new long[continuations.length];
    for (int i = 0; i < continuations.length; i++) {
      int starter = continuations[i] >>> 16;
      String single = new String(Character.toChars(starter));
      String following = nfd.normalize(new String(Character.toChars(continuations[i] & 0xFFFF)));
      if (!nfd.isNormalized(single)) {
        ranges[i] = ANY_FIRST_PRIMARY;
        continue;
      }
      List<String> mappings = new ArrayList<>();
      boolean exact = false;
      for (String contraction : contractionsByStarter.getOrDefault(starter, List.of())) {
        String rest = nfd.normalize(contraction.substring(single.length()));
        if (rest.startsWith(following) || following.startsWith(rest)) {
          mappings.add(contraction);
          exact |= rest.equals(following);
        }
      }
      if (!exact) {
        mappings.add(single);
      }
      ranges[i] = first.range(mappings);
    }
    return ranges;
  }

  /**
   * The ascending pairs {@code starter << 16 | character} of each ranked starter and each ranked
   * character that goes on one of its contractions, flagging each such character {@link #CONTINUES}
   * in {@code entries}.
   *
   * <p>A contraction from a starter can only go on with the character after it or that character's
   * decomposition's first code point: the marks after that could be reached only by skipping it,
   * and a discontiguous contraction skips combining marks, never a character of combining class 0.
   * A precomposed starter (Swedish {@code å}) is canonically its decomposition, so a contraction of
   * any of its code points may go on after it; and as the decomposition may already hold a
   * contraction's next code points, every later code point of a contraction counts, not only its
   * second.
   *
   * @param ranked {code point, flags, decomposition's first code point} of each ranked character
   * @param laterByStarter per first code point of contractions, the later code points of them all
   */
  private static int[] continuations(
      List<int[]> ranked, Map<Integer, UnicodeSet> laterByStarter, int[] entries) {
    // The later code points of the contractions each ranked starter may start.
    Normalizer2 nfd = Normalizer2.getNFDInstance();
    Map<Integer, UnicodeSet> laterOf = new HashMap<>();
    UnicodeSet anyLater = new UnicodeSet();
    for (int[] character : ranked) {
      if ((character[1] & STARTER) != 0) {
        String single = new String(Character.toChars(character[0]));
        UnicodeSet later = new UnicodeSet();
        (single + nfd.normalize(single))
            .codePoints()
            .mapToObj(laterByStarter::get)
            .filter(set -> set != null)
            .forEach(later::addAll);
        laterOf.put(character[0], later);
        anyLater.addAll(later);
      }
    }
    // The ranked characters that are, or whose decomposition starts with, such a code point.
    Map<Integer, List<Integer>> rankedByLeading = new HashMap<>();
    for (int[] character : ranked) {
      if (anyLater.contains(character[0])) {
        rankedByLeading.computeIfAbsent(character[0], k -> new ArrayList<>()).add(character[0]);
      }
      if (character[2] != character[0] && anyLater.contains(character[2])) {
        rankedByLeading.computeIfAbsent(character[2], k -> new ArrayList<>()).add(character[0]);
      }
    }
    List<Integer> pairs = new ArrayList<>();
    laterOf.forEach(
        (starter, later) -> {
          for (String next : later) {
            for (int following : rankedByLeading.getOrDefault(next.codePointAt(0), List.of())) {
              entries[following] |= CONTINUES;
              pairs.add(starter << 16 | following);
            }
          }
        });
    return pairs.stream().mapToInt(Integer::intValue).sorted().distinct().toArray();
  }

  /**
   * Rank by primary order; then drops, as a guard, any character that a lower-ranked character
   * followed by the highest-ranked one does not stay below (which a character with more than one
   * primary weight would show), until every neighbouring pair passes.
   */
  private static int[] entries(
      RuleBasedCollator primary, List<int[]> ranked, Map<Integer, CollationKey> keys) {
    List<String> strings = new ArrayList<>(ranked.size());
    for (int[] entry : ranked) {
      strings.add(new String(Character.toChars(entry[0])));
    }
    // Passes until one drops nothing: a drop re-checks the new neighbours at once, and a pass
    // runs again only when it dropped the highest-ranked character the checks append.
    boolean again = true;
    while (again && !ranked.isEmpty()) {
      again = false;
      int top = ranked.size() - 1;
      while (top >= 0 && (ranked.get(top)[1] & (STARTER | PAD)) != 0) {
        top--;
      }
      if (top < 0) {
        ranked.clear();
        break;
      }
      String highest = strings.get(top);
      for (int i = 1; i < ranked.size(); ) {
        String lower = strings.get(i - 1);
        String upper = strings.get(i);
        int order = keys.get(ranked.get(i - 1)[0]).compareTo(keys.get(ranked.get(i)[0]));
        if (order > 0 || (order < 0 && primary.compare(lower + highest, upper) >= 0)) {
          again |= upper.equals(highest);
          ranked.remove(i);
          strings.remove(i);
        } else {
          i++;
        }
      }
    }
    int[] entries = new int[LIMIT];
    int rank = 0;
    CollationKey previous = null;
    for (int[] entry : ranked) {
      CollationKey current = keys.get(entry[0]);
      if (previous == null || previous.compareTo(current) != 0) {
        rank++;
      }
      entries[entry[0]] = rank << FLAG_BITS | entry[1];
      previous = current;
    }
    return entries;
  }

  /** How many non-zero primary weights the collation elements of {@code value} carry. */
  private static int primaryWeights(RuleBasedCollator collator, String value) {
    CollationElementIterator elements = collator.getCollationElementIterator(value);
    int count = 0;
    for (int ce = elements.next(); ce != CollationElementIterator.NULLORDER; ce = elements.next()) {
      // An old-style continuation element (low bits 0xC0) carries the rest of a long primary.
      if (CollationElementIterator.primaryOrder(ce) != 0 && (ce & 0xC0) != 0xC0) {
        count++;
      }
    }
    return count;
  }

  private static void addCodePoints(UnicodeSet set, String s) {
    s.codePoints().forEach(set::add);
  }

  private static boolean containsAny(UnicodeSet set, String s) {
    return s.codePoints().anyMatch(set::contains);
  }
}

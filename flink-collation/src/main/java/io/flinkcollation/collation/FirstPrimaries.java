package io.flinkcollation.collation;

import com.ibm.icu.lang.UCharacter;
import com.ibm.icu.lang.UCharacterCategory;
import com.ibm.icu.text.CollationElementIterator;
import com.ibm.icu.text.CollationKey;
import com.ibm.icu.text.Normalizer2;
import com.ibm.icu.text.RuleBasedCollator;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.ToIntFunction;

/**
 * The first primary weights of values in the rank space of {@link PrimaryRanks#firstPrimaryRank}:
 * exactly for one value, and as a range for every value that starts with a given character.
 *
 * <p>A primary weight is read from ICU's public collation elements, which are not yet reordered
 * (script reordering, {@code colReorder}, applies when comparing). So a weight is placed only by
 * equality with the weight of a ranked character, which reordering keeps, or else by comparing the
 * primary sort keys of the whole value with those of the ranked characters, which reordering
 * orders. Immutable and thread-safe: the collator is frozen.
 */
final class FirstPrimaries implements ToIntFunction<String> {
  private final RuleBasedCollator collator;
  private final boolean padSpace;
  private final boolean shifted;
  private final int variableTop;
  // The weight of each rank, its sign bit flipped so that signed order is the weights' unsigned
  // order, ascending; and its rank.
  private final int[] weights;
  private final int[] weightRanks;
  // A character of each rank, for the sort-key comparisons: rank r at r - 1.
  private final int[] rankCharacters;

  /**
   * @param primary the collator at primary strength, frozen here
   * @param ranks the rank of each BMP code point ({@link PrimaryRanks}), 0 for none
   */
  FirstPrimaries(RuleBasedCollator primary, PadAttribute pad, int[] ranks) {
    this.padSpace = pad == PadAttribute.PAD_SPACE;
    this.shifted = primary.isAlternateHandlingShifted();
    this.variableTop = primary.getVariableTop();
    this.collator = (RuleBasedCollator) primary.freeze();
    int count = 0;
    for (int rank : ranks) {
      count = Math.max(count, rank);
    }
    rankCharacters = new int[count];
    Arrays.fill(rankCharacters, -1);
    for (int cp = 0; cp < ranks.length; cp++) {
      if (ranks[cp] > 0 && rankCharacters[ranks[cp] - 1] < 0) {
        rankCharacters[ranks[cp] - 1] = cp;
      }
    }
    long[] byWeight = new long[count];
    for (int r = 1; r <= count; r++) {
      // The flipped weight in the high half, the rank in the low half.
      byWeight[r - 1] =
          (long)
                      (firstWeight(new String(Character.toChars(rankCharacters[r - 1])), false)
                          ^ Integer.MIN_VALUE)
                  << 32
              | r;
    }
    Arrays.sort(byWeight);
    weights = new int[count];
    weightRanks = new int[count];
    for (int i = 0; i < count; i++) {
      weights[i] = (int) (byWeight[i] >> 32);
      weightRanks[i] = (int) byWeight[i];
    }
  }

  /** The first primary of the whole value (see {@link PrimaryRanks#firstPrimaryRank}). */
  /**
   * {@link #of}, as the function {@link PrimaryRanks} keeps: a named class rather than a method
   * reference, whose hidden class memory tools such as JOL cannot measure (TrackerMemoryTest).
   */
  @Override
  public int applyAsInt(String value) {
    return of(value);
  }

  int of(String value) {
    String compared = padSpace ? SpaceTrimming.TRAILING.apply(value) : value;
    int weight = firstWeight(compared, true);
    return weight == 0 ? 0 : place(weight, compared);
  }

  /**
   * Per BMP code point, the range of the first primary of any value that starts with it: over its
   * own mapping, that of its decomposition's first character, and every contraction whose
   * decomposition starts with that character ({@code contractions}, by that first code point). A
   * string that starts with the character is, canonically, one that starts with the decomposition,
   * so its first mapping is one of these; and with a primary weight of its own, that mapping gives
   * the value's first primary whatever follows.
   */
  long[] ranges(boolean numeric, Map<Integer, List<String>> contractions) {
    Normalizer2 nfd = Normalizer2.getNFDInstance();
    long[] ranges = new long[PrimaryRanks.LIMIT];
    Arrays.fill(ranges, PrimaryRanks.ANY_FIRST_PRIMARY);
    for (int cp = 0; cp < PrimaryRanks.LIMIT; cp++) {
      int type = UCharacter.getType(cp);
      if (type == UCharacterCategory.UNASSIGNED
          || type == UCharacterCategory.SURROGATE
          || type == UCharacterCategory.PRIVATE_USE
          || (numeric && type == UCharacterCategory.DECIMAL_DIGIT_NUMBER)
          || (cp == ' ' && padSpace)) {
        continue;
      }
      String single = new String(Character.toChars(cp));
      int first = nfd.normalize(single).codePointAt(0);
      // A combining mark may be reordered behind the marks that follow it.
      if (UCharacter.getCombiningClass(first) != 0) {
        continue;
      }
      List<String> mappings = new ArrayList<>();
      mappings.add(single);
      mappings.add(new String(Character.toChars(first)));
      mappings.addAll(contractions.getOrDefault(first, List.of()));
      ranges[cp] = range(mappings);
    }
    return ranges;
  }

  /**
   * The range of the first primaries of {@code mappings} (strings whose first mapping gives the
   * first primary of a value), or {@link PrimaryRanks#ANY_FIRST_PRIMARY} when one of them has no
   * primary weight of its own.
   */
  long range(List<String> mappings) {
    long range = Long.MAX_VALUE;
    for (String mapped : mappings) {
      range = range(mapped, range);
    }
    return range == Long.MIN_VALUE || range == Long.MAX_VALUE
        ? PrimaryRanks.ANY_FIRST_PRIMARY
        : range;
  }

  /**
   * {@code range} widened by the first primary of {@code mapped}; Long.MAX_VALUE before the first;
   * Long.MIN_VALUE, and so on, once one has no primary weight of its own (the value's first primary
   * then depends on what follows).
   */
  private long range(String mapped, long range) {
    if (range == Long.MIN_VALUE) {
      return range;
    }
    int weight = firstWeight(mapped, false);
    if (weight == 0) {
      return Long.MIN_VALUE;
    }
    int place = place(weight, mapped);
    if (range == Long.MAX_VALUE) {
      return PrimaryRanks.rangeOf(place, place);
    }
    return PrimaryRanks.rangeOf(
        Math.min(place, PrimaryRanks.low(range)), Math.max(place, PrimaryRanks.high(range)));
  }

  /**
   * The first non-zero primary weight of {@code value}'s collation elements (32 bits: a long
   * primary continues in the next element, marked 0xC0), or 0 when there is none. Under alternate
   * shifted a variable weight is no primary: skipped when {@code skipVariable}, else 0 (it is not
   * the value's first primary, and the next one is not known).
   */
  private int firstWeight(String value, boolean skipVariable) {
    CollationElementIterator elements = collator.getCollationElementIterator(value);
    int element = elements.next();
    while (element != CollationElementIterator.NULLORDER) {
      int high = CollationElementIterator.primaryOrder(element);
      element = elements.next();
      if (high == 0) {
        continue;
      }
      int weight = high << 16;
      if (element != CollationElementIterator.NULLORDER && (element & 0xC0) == 0xC0) {
        weight |= CollationElementIterator.primaryOrder(element);
        element = elements.next();
      }
      if (!shifted || Integer.compareUnsigned(weight, variableTop) > 0) {
        return weight;
      }
      if (!skipVariable) {
        return 0;
      }
    }
    return 0;
  }

  /** The place of {@code weight}, the first primary of {@code value}, in the rank space. */
  private int place(int weight, String value) {
    int found = Arrays.binarySearch(weights, weight ^ Integer.MIN_VALUE);
    if (found >= 0) {
      return PrimaryRanks.firstPrimaryOfRank(weightRanks[found]);
    }
    // No rank has this weight: it lies strictly between two. With a different first primary, a
    // value sorts below a rank's character exactly when its first primary is lower.
    CollationKey key = collator.getCollationKey(value);
    int below = 0;
    int above = rankCharacters.length;
    while (below < above) {
      int mid = (below + above) >>> 1;
      String character = new String(Character.toChars(rankCharacters[mid]));
      if (collator.getCollationKey(character).compareTo(key) < 0) {
        below = mid + 1;
      } else {
        above = mid;
      }
    }
    return PrimaryRanks.firstPrimaryOfRank(below) + 1;
  }
}

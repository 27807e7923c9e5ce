package io.flinkcollation.stats;

import static io.flinkcollation.stats.RankedBound.GREATER;
import static io.flinkcollation.stats.RankedBound.LESS;
import static io.flinkcollation.stats.RankedBound.UNDECIDED;

import io.flinkcollation.collation.PrimaryRanks;
import java.nio.charset.StandardCharsets;
import java.util.Comparator;
import java.util.Optional;
import org.apache.iceberg.relocated.com.google.common.annotations.VisibleForTesting;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;

/**
 * The exact minimum and maximum of one collation metric's values in one data file
 * (docs/spec-notes.md#rules-followed). One instance per (file, metric); not thread-safe; the
 * comparator is the subtask's own.
 *
 * <p>Contract, whatever the arrival order of the values:
 *
 * <ul>
 *   <li>Only non-null values are passed (the engine's adapter skips nulls); a file without any has
 *       {@link Outcome#NO_VALUES}.
 *   <li>The lower bound is the minimum under the collation, the upper bound the maximum; among
 *       values equal under the collation but different in bytes, both bounds keep the one that is
 *       smaller in UTF-8 byte order (docs/spec-notes.md#ties).
 *   <li>A value that is not valid UTF-8 makes the whole metric {@link Outcome#INVALID_UTF8} for
 *       this file; a final bound longer than {@code maxBoundLength} code points makes it {@link
 *       Outcome#BOUND_TOO_LONG}. Bounds are never truncated or approximated
 *       (docs/spec-notes.md#never-bounded).
 * </ul>
 *
 * <p>Engine-neutral: a value is its stored UTF-8 bytes, {@code (bytes, offset, length)}, exactly as
 * the file holds them; an engine adapter hands them over without copying when it can (for Flink:
 * {@code io.flinkcollation.write.StoredStrings}). Bounds are decoded from those bytes, never taken
 * from a string an engine keeps beside them.
 *
 * <p>Cost (docs/tracker.md). With the collation's {@link PrimaryRanks}, most values are decided
 * without the collator: the range of the first primary weight of values that start with its first
 * character ({@link FirstCharacterFilter}: one bit per BMP character, cached for the current
 * bounds' exact first primaries) tells whether it alone puts a value strictly inside, as it does
 * for most values of a long file, or makes it a new bound by a primary difference, contraction
 * starters and expansions included; a value the bit leaves open gets the exact first primary of its
 * first character where {@link PrimaryRanks#next} ranks it (a contraction starter, Swedish {@code
 * å}, before what goes on none of its contractions), which mostly decides it the same way;
 * otherwise the value's ranks are walked ({@link RanksWalk}) against those of each bound the first
 * primaries left open, from where its bytes depart from that bound and only until they differ,
 * which makes it inside or a new bound (a value equal in bytes to a bound is done there); a value
 * that holds all of eight or more bytes the bounds share (URLs) is mostly decided by its rank where
 * the bounds part, against the bounds' ranks there, kept while they stay ({@link PartingPoint}).
 * Such values are then only validated as UTF-8. A value the ranks cannot decide is looked up among
 * the values already accounted for in this file ({@link SeenValues}) and skipped when found. Only
 * the rest is decoded and compared with the collator, against the bounds the ranks left open.
 * Nothing is allocated per value on the ranked paths, and the common one touches no memory but this
 * object, its filter and the value. Memory does not grow with the number of values.
 *
 * <p>Not part of the supported API ({@link io.flinkcollation.api.PublicApi}): public for other
 * packages of this project only.
 */
public final class CollationBoundsTracker {

  /** What a tracker can tell about its metric in its file. */
  public enum Outcome {
    /** Exact bounds are available. */
    BOUNDED,
    /** No non-null value: nothing to bound. */
    NO_VALUES,
    /** A value was not valid UTF-8: no bounds for this file. */
    INVALID_UTF8,
    /** The minimum or the maximum is longer than the maximum bound length: no bounds. */
    BOUND_TOO_LONG
  }

  private final int metricId;
  private final Comparator<String> comparator;
  private final PrimaryRanks ranks;
  private final int maxBoundLength;

  private final RankedBound min = new RankedBound(true);
  private final RankedBound max = new RankedBound(false);
  private final FirstCharacterFilter firstCharacters;
  private final RanksWalk walk;
  private final PartingPoint parting = new PartingPoint();
  private final SeenValues seen = new SeenValues();
  private boolean bounded;
  private boolean invalidUtf8;
  private long values;

  /**
   * @param metricId the collation metric field id the bounds are stored under
   * @param comparator the subtask's own comparator of the metric's collation
   * @param ranks the collation's primary ranks ({@link PrimaryRanks#offeredBy}), or {@link
   *     PrimaryRanks#NONE}: then every value the seen set does not skip goes to the comparator
   * @param maxBoundLength the longest bound kept, in code points
   */
  public CollationBoundsTracker(
      int metricId, Comparator<String> comparator, PrimaryRanks ranks, int maxBoundLength) {
    Preconditions.checkArgument(
        maxBoundLength > 0, "Invalid max bound length %s: must be positive", maxBoundLength);
    this.metricId = metricId;
    this.comparator = Preconditions.checkNotNull(comparator, "comparator");
    Preconditions.checkNotNull(ranks, "ranks (PrimaryRanks.NONE for none)");
    this.maxBoundLength = maxBoundLength;
    this.ranks = ranks.isEmpty() ? null : ranks;
    this.firstCharacters = new FirstCharacterFilter(this.ranks);
    this.walk = new RanksWalk(this.ranks, min, max);
  }

  public int metricId() {
    return metricId;
  }

  /**
   * Observes one non-null value of the metric's source field: its stored UTF-8 bytes {@code
   * bytes[offset..offset + length)}. The tracker keeps its own copies of what it keeps; the caller
   * may reuse the array.
   */
  public void add(byte[] bytes, int offset, int length) {
    // Kept small, so that the JIT inlines it into the writer's loop: the common case, a value whose
    // first character puts it strictly inside, ends here.
    values++;
    if (invalidUtf8) {
      return;
    }
    if (firstCharacters.inside(bytes, offset, length)) {
      checkUtf8(bytes, offset, length);
    } else {
      account(bytes, offset, length);
    }
  }

  /** Everything but the common case: the first value, the ranks walk, the collator. */
  private void account(byte[] bytes, int offset, int length) {
    if (!bounded) {
      first(bytes, offset, length);
      return;
    }
    // Values with a long common prefix (URLs, paths) hold all the bytes the bounds share: tested in
    // one piece, without the exit at the first difference whose place varies from value to value.
    if (parting.heldBy(min, bytes, offset, length)) {
      accountPastSharedBytes(bytes, offset, length);
      return;
    }
    // The first primaries alone may put it inside, make it a new bound, or tell its order against
    // one bound.
    long firstRange = firstCharacters.firstPrimaryRange(bytes, offset, length);
    if (PrimaryRanks.low(firstRange) > min.firstRank
        && PrimaryRanks.high(firstRange) < max.firstRank) {
      checkUtf8(bytes, offset, length);
      return;
    }
    if (newBoundByFirstPrimary(firstRange, bytes, offset, length)) {
      return;
    }

    // A bound the first primaries decided is neither compared in bytes nor walked (without ranks,
    // the range is the widest: both stay open).
    boolean minOpen = PrimaryRanks.low(firstRange) <= min.firstRank;
    boolean maxOpen = PrimaryRanks.high(firstRange) >= max.firstRank;
    // Bytes shared with each open bound: a value equal to a bound in bytes cannot move either, and
    // the ranks walk against a bound starts where the value departs from that bound.
    int sharedWithMin = minOpen ? min.mismatch(bytes, offset, length, 0) : 0;
    if (sharedWithMin < 0) {
      return;
    }
    // Departing from the minimum before the bytes both bounds share departs from both there;
    // after them, from the maximum where the bounds depart from each other.
    int sharedWithMax =
        !maxOpen
            ? 0
            : !minOpen
                ? max.mismatch(bytes, offset, length, 0)
                : parting.shared < 0 || sharedWithMin < parting.shared
                    ? sharedWithMin
                    : sharedWithMin > parting.shared
                        ? parting.shared
                        : max.mismatch(bytes, offset, length, parting.shared);
    if (sharedWithMax < 0) {
      return;
    }
    int fromMin = minOpen ? walk.walkStart(bytes, offset, length, sharedWithMin) : 0;
    int fromMax =
        !maxOpen
            ? 0
            : minOpen && sharedWithMax == sharedWithMin
                ? fromMin
                : walk.walkStart(bytes, offset, length, sharedWithMax);
    decide(bytes, offset, length, minOpen, maxOpen, fromMin, fromMax);
  }

  /**
   * {@link #account} of a value that holds the bytes both bounds share and goes on after them
   * ({@link PartingPoint#heldBy}: most values with a long common prefix, URLs, paths). Its first
   * primary is the bounds', so both bounds stay open. Where the walk of a value departing there
   * starts right there, its rank at the parting point, against the bounds' ranks there, mostly
   * decides it: strictly between them it is inside (most URLs: another section than both bounds');
   * equal to one bound's rank, only that bound is left to walk.
   */
  private void accountPastSharedBytes(byte[] bytes, int offset, int length) {
    int at = parting.shared;
    int rankMin = parting.rankMin;
    int rankMax = parting.rankMax;
    if (rankMin > 0) {
      int next = ranks.next(bytes, offset + at, offset + length);
      int rank = PrimaryRanks.rank(next);
      if (next > 0 && rank != rankMin && rank != rankMax) {
        // A primary difference after the same ranks as both bounds decides against both.
        decidedByRanks(
            bytes,
            offset,
            length,
            at,
            rank < rankMin ? LESS : GREATER,
            rank > rankMax ? GREATER : LESS);
        return;
      }
      if (next > 0 && rankMin != rankMax) {
        // The rank of one bound, below the other's rank if it is the minimum's, above if the
        // maximum's: only that bound is left, from where the value departs from it.
        RankedBound bound = rank == rankMin ? min : max;
        int shared = bound.mismatch(bytes, offset, length, at);
        if (shared >= 0) {
          int from = walk.walkStart(bytes, offset, length, shared);
          decide(bytes, offset, length, bound == min, bound == max, from, from);
        }
        return;
      }
    }
    int sharedWithMin = parting.sharedWith(min, bytes, offset, length);
    if (sharedWithMin < 0) {
      return;
    }
    int sharedWithMax = parting.sharedWith(max, bytes, offset, length);
    if (sharedWithMax < 0) {
      return;
    }
    decide(
        bytes,
        offset,
        length,
        true,
        true,
        parting.walkStartOf(walk, bytes, offset, length, sharedWithMin),
        parting.walkStartOf(walk, bytes, offset, length, sharedWithMax));
  }

  /**
   * Decides a value against the bounds left open by the ranks walks from {@code fromMin} and {@code
   * fromMax} ({@link RanksWalk#walkStart} of each open bound), or the collator, and moves the
   * bounds.
   */
  private void decide(
      byte[] bytes,
      int offset,
      int length,
      boolean minOpen,
      boolean maxOpen,
      int fromMin,
      int fromMax) {
    // What comes before is whole characters of a bound, so valid UTF-8: only the rest is checked.
    int checkFrom = Math.max(fromMin, fromMax);
    int toMin = minOpen ? UNDECIDED : GREATER;
    int toMax = maxOpen ? UNDECIDED : LESS;
    if (ranks != null) {
      // One walk serves both bounds where it starts at the same place for both; the maximum is
      // not walked for a value below the minimum, which is below the maximum too.
      if (minOpen && maxOpen && fromMin == fromMax) {
        int both = walk.walkBoth(bytes, offset, length, fromMin);
        toMin = RanksWalk.toMin(both);
        toMax = RanksWalk.toMax(both);
      } else {
        toMin = minOpen ? walk.walk(min, bytes, offset, length, fromMin) : GREATER;
        toMax = toMin == LESS || !maxOpen ? LESS : walk.walk(max, bytes, offset, length, fromMax);
      }
      if (decidedByRanks(bytes, offset, length, checkFrom, toMin, toMax)) {
        return;
      }
    }

    int hash = SeenValues.hash(bytes, offset, length);
    if (seen.contains(bytes, offset, length, hash)) {
      return;
    }
    if (!checkUtf8(bytes, offset + checkFrom, length - checkFrom)) {
      return;
    }
    compare(bytes, offset, length, toMin != GREATER, toMax != LESS);
    boundsMoved();
    seen.add(bytes, offset, length, hash);
  }

  /**
   * Whether the ranks decided the value against both bounds ({@code toMin} {@link #GREATER} or
   * {@link #LESS}, {@code toMax} {@link #LESS} or {@link #GREATER}); if so, checks it as UTF-8 from
   * {@code checkFrom} on (the bytes before are whole characters of a bound) and makes it a new
   * bound where it lies outside, by a primary difference: no tie to break, no comparison needed.
   */
  private boolean decidedByRanks(
      byte[] bytes, int offset, int length, int checkFrom, int toMin, int toMax) {
    boolean inside = toMin == GREATER && toMax == LESS;
    if (!inside && toMax != GREATER && toMin != LESS) {
      return false;
    }
    if (checkUtf8(bytes, offset + checkFrom, length - checkFrom) && !inside) {
      if (toMax == GREATER) {
        max.set(bytes, offset, length, null, ranks);
      }
      if (toMin == LESS) {
        min.set(bytes, offset, length, null, ranks);
      }
      boundsMoved();
    }
    return true;
  }

  /** Compares with the collator against the bounds the walk left open, and moves them. */
  private void compare(byte[] bytes, int offset, int length, boolean withMin, boolean withMax) {
    // Decoded from the stored bytes, never taken from a string an engine keeps beside them: that
    // string may differ from what is stored (docs/spec-notes.md#never-bounded). Valid UTF-8 here,
    // so the decoding is exact.
    String decoded = new String(bytes, offset, length, StandardCharsets.UTF_8);
    if (withMin) {
      int toMin = comparator.compare(decoded, min.string());
      if (toMin < 0) {
        // Strictly below the minimum, so strictly below the maximum too.
        min.set(bytes, offset, length, decoded, ranks);
        return;
      }
      if (toMin == 0 && min.bytesAfter(bytes, offset, length)) {
        min.set(bytes, offset, length, decoded, ranks);
      }
    }
    if (withMax) {
      int toMax = comparator.compare(decoded, max.string());
      if (toMax > 0 || (toMax == 0 && max.bytesAfter(bytes, offset, length))) {
        max.set(bytes, offset, length, decoded, ranks);
      }
    }
  }

  private void first(byte[] bytes, int offset, int length) {
    if (checkUtf8(bytes, offset, length)) {
      min.set(bytes, offset, length, null, ranks);
      max.set(bytes, offset, length, null, ranks);
      bounded = true;
      boundsMoved();
      seen.add(bytes, offset, length, SeenValues.hash(bytes, offset, length));
    }
  }

  /** {@link FirstCharacterFilter#inside}, for tests that ask it of every first character. */
  @VisibleForTesting
  boolean insideByFirstCharacter(byte[] bytes, int offset, int length) {
    return firstCharacters.inside(bytes, offset, length);
  }

  /**
   * Whether the range of the value's first primary alone makes it a new bound, and if so takes it:
   * wholly below the minimum's first primary or wholly above the maximum's. A primary difference,
   * so no tie to break and no comparison needed.
   */
  private boolean newBoundByFirstPrimary(long firstRange, byte[] bytes, int offset, int length) {
    boolean below = PrimaryRanks.high(firstRange) < min.firstRank;
    if (!below && PrimaryRanks.low(firstRange) <= max.firstRank) {
      return false;
    }
    if (checkUtf8(bytes, offset, length)) {
      (below ? min : max).set(bytes, offset, length, null, ranks);
      boundsMoved();
    }
    return true;
  }

  /**
   * After a bound moved: what the tracker keeps about both bounds, where they part ({@link
   * PartingPoint}) and the bits by first character ({@link FirstCharacterFilter}).
   */
  private void boundsMoved() {
    parting.boundsMoved(min, max, walk, ranks != null);
    firstCharacters.boundsMoved(min.firstRank, max.firstRank);
  }

  /** Whether the value is valid UTF-8; if not, the metric has no bounds in this file. */
  private boolean checkUtf8(byte[] bytes, int offset, int length) {
    if (Utf8.isValid(bytes, offset, length)) {
      return true;
    }
    invalidUtf8 = true;
    bounded = false;
    min.clear();
    max.clear();
    return false;
  }

  /** How many non-null values were observed. */
  public long valueCount() {
    return values;
  }

  public Outcome outcome() {
    if (invalidUtf8) {
      return Outcome.INVALID_UTF8;
    }
    if (!bounded) {
      return Outcome.NO_VALUES;
    }
    if (min.codePoints() > maxBoundLength || max.codePoints() > maxBoundLength) {
      return Outcome.BOUND_TOO_LONG;
    }
    return Outcome.BOUNDED;
  }

  /** The bounds when {@link #outcome()} is {@link Outcome#BOUNDED}, otherwise empty. */
  public Optional<CollationBounds> bounds() {
    return outcome() == Outcome.BOUNDED
        ? Optional.of(CollationBounds.of(metricId, min.string(), max.string()))
        : Optional.empty();
  }
}

package io.flinkcollation.collation;

import java.util.Comparator;

/**
 * A comparator under one collation that also offers that collation's {@link PrimaryRanks}, with
 * which order can often be decided from UTF-8 bytes without calling the comparator. The ranks
 * always agree with {@link #compare}: a rank difference is a primary difference.
 */
public interface RankedComparator extends Comparator<String> {

  /** The ranks of this comparator's collation; {@link PrimaryRanks#NONE} ranks nothing. */
  PrimaryRanks primaryRanks();
}

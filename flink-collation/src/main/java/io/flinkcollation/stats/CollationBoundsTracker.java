package io.flinkcollation.stats;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Optional;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.binary.BinarySegmentUtils;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.util.Preconditions;

/**
 * The exact minimum and maximum of one collation metric's values in one data file (spec "Collation
 * Bounds"). One instance per (file, metric); not thread-safe; the comparator is the subtask's own.
 *
 * <p>Contract, whatever the arrival order of the values:
 *
 * <ul>
 *   <li>{@code null} values are skipped; a file with no other value has {@link Outcome#NO_VALUES}.
 *   <li>The lower bound is the minimum under the collation, the upper bound the maximum; among
 *       values equal under the collation but different in bytes, both bounds keep the one that is
 *       smaller in UTF-8 byte order (DESIGN.md decision 7).
 *   <li>A value that is not valid UTF-8 makes the whole metric {@link Outcome#INVALID_UTF8} for
 *       this file; a final bound longer than {@code maxBoundLength} code points makes it {@link
 *       Outcome#BOUND_TOO_LONG}. Bounds are never truncated or approximated (decision 8).
 * </ul>
 *
 * <p>Cost: each value's bytes are copied into a reusable buffer; a value with the same bytes as the
 * previous value, the current minimum or the current maximum is not validated, decoded or compared
 * again. Only other values are decoded to a {@link String} for the collator. Memory does not grow
 * with the number of values: it holds the previous value, the minimum and the maximum.
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

  private static final int INITIAL_BUFFER = 64;

  private final int metricId;
  private final Comparator<String> comparator;
  private final int maxBoundLength;

  // The incoming value's bytes; swapped with 'previous' once it has been accounted for.
  private byte[] scratch = new byte[INITIAL_BUFFER];
  private byte[] previous = new byte[INITIAL_BUFFER];
  private int previousLength = -1;

  private byte[] minBytes;
  private String min;
  private byte[] maxBytes;
  private String max;

  private boolean invalidUtf8;
  private long values;

  /**
   * @param metricId the collation metric field id the bounds are stored under
   * @param comparator the subtask's own comparator of the metric's collation
   * @param maxBoundLength the longest bound kept, in code points
   */
  public CollationBoundsTracker(int metricId, Comparator<String> comparator, int maxBoundLength) {
    Preconditions.checkArgument(
        maxBoundLength > 0, "Invalid max bound length %s: must be positive", maxBoundLength);
    this.metricId = metricId;
    this.comparator = Preconditions.checkNotNull(comparator, "comparator");
    this.maxBoundLength = maxBoundLength;
  }

  public int metricId() {
    return metricId;
  }

  /** Observes one value of the metric's source field; {@code null} is skipped. */
  public void add(StringData value) {
    if (value == null) {
      return;
    }
    values++;
    if (invalidUtf8) {
      return;
    }
    int length = load(value);
    if (length == previousLength
        && Arrays.equals(scratch, 0, length, previous, 0, previousLength)) {
      return;
    }
    byte[] swap = previous;
    previous = scratch;
    scratch = swap;
    previousLength = length;
    if (min != null && (sameBytes(minBytes, length) || sameBytes(maxBytes, length))) {
      return;
    }
    if (!Utf8.isValid(previous, length)) {
      invalidUtf8 = true;
      min = max = null;
      minBytes = maxBytes = null;
      return;
    }
    String decoded = new String(previous, 0, length, StandardCharsets.UTF_8);
    if (min == null) {
      min = max = decoded;
      minBytes = maxBytes = Arrays.copyOf(previous, length);
      return;
    }
    int toMin = comparator.compare(decoded, min);
    if (toMin < 0) {
      // Strictly below the minimum, so strictly below the maximum too.
      min = decoded;
      minBytes = Arrays.copyOf(previous, length);
      return;
    }
    byte[] copy = null;
    if (toMin == 0 && byteOrder(minBytes, length) > 0) {
      copy = Arrays.copyOf(previous, length);
      min = decoded;
      minBytes = copy;
    }
    int toMax = comparator.compare(decoded, max);
    if (toMax > 0 || (toMax == 0 && byteOrder(maxBytes, length) > 0)) {
      max = decoded;
      maxBytes = copy != null ? copy : Arrays.copyOf(previous, length);
    }
  }

  /** How many non-null values were observed. */
  public long valueCount() {
    return values;
  }

  public Outcome outcome() {
    if (invalidUtf8) {
      return Outcome.INVALID_UTF8;
    }
    if (min == null) {
      return Outcome.NO_VALUES;
    }
    if (tooLong(min) || tooLong(max)) {
      return Outcome.BOUND_TOO_LONG;
    }
    return Outcome.BOUNDED;
  }

  /** The bounds when {@link #outcome()} is {@link Outcome#BOUNDED}, otherwise empty. */
  public Optional<CollationBounds> bounds() {
    return outcome() == Outcome.BOUNDED
        ? Optional.of(CollationBounds.of(metricId, min, max))
        : Optional.empty();
  }

  private boolean tooLong(String bound) {
    return bound.length() > maxBoundLength
        && bound.codePointCount(0, bound.length()) > maxBoundLength;
  }

  /** Copies the value's UTF-8 bytes into {@code scratch}, growing it when needed. */
  private int load(StringData value) {
    if (value instanceof BinaryStringData) {
      BinaryStringData binary = (BinaryStringData) value;
      int length = binary.getSizeInBytes();
      ensureScratch(length);
      BinarySegmentUtils.copyToBytes(binary.getSegments(), binary.getOffset(), scratch, 0, length);
      return length;
    }
    byte[] bytes = value.toBytes();
    ensureScratch(bytes.length);
    System.arraycopy(bytes, 0, scratch, 0, bytes.length);
    return bytes.length;
  }

  private void ensureScratch(int length) {
    if (scratch.length < length) {
      scratch = new byte[Math.max(length, scratch.length * 2)];
    }
  }

  private boolean sameBytes(byte[] bound, int length) {
    return bound.length == length && Arrays.equals(previous, 0, length, bound, 0, length);
  }

  /** Positive when the current value is smaller than {@code bound} in unsigned byte order. */
  private int byteOrder(byte[] bound, int length) {
    return Arrays.compareUnsigned(bound, 0, bound.length, previous, 0, length);
  }
}

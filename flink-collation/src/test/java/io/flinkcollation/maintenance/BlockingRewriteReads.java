package io.flinkcollation.maintenance;

import java.util.concurrent.CountDownLatch;
import org.apache.iceberg.hadoop.HadoopFileIO;
import org.apache.iceberg.io.InputFile;

/**
 * A table's {@code FileIO} (set with the catalog property {@code io-impl}) that holds the in-job
 * rewrite's reads of data files while {@link #block} is on, so a test can act while a rewrite is in
 * flight. Only the rewriting subtasks' threads ({@code collation-rewrite-*}, named by {@link
 * GroupRewriteFunction}) are held; writers, committers and planners read and write as usual. A held
 * read that is interrupted (the operator closes) fails the rewrite.
 */
public class BlockingRewriteReads extends HadoopFileIO {
  private static volatile boolean blocking;
  private static volatile boolean failing;
  private static volatile CountDownLatch reached = new CountDownLatch(1);

  /** Holds every rewrite read from now on; {@link #reached} opens at the first held read. */
  public static void block() {
    reached = new CountDownLatch(1);
    failing = false;
    blocking = true;
  }

  /** Fails every held and later rewrite read: the rewrite is dropped, nothing committed. */
  public static void fail() {
    failing = true;
  }

  /** Lets every held and later read through. */
  public static void release() {
    blocking = false;
    failing = false;
  }

  public static CountDownLatch reached() {
    return reached;
  }

  @Override
  public InputFile newInputFile(String path) {
    hold(path);
    return super.newInputFile(path);
  }

  @Override
  public InputFile newInputFile(String path, long length) {
    hold(path);
    return super.newInputFile(path, length);
  }

  private static void hold(String path) {
    if (!blocking
        || !path.contains("/data/")
        || !Thread.currentThread().getName().startsWith("collation-rewrite-")) {
      return;
    }
    reached.countDown();
    try {
      while (blocking) {
        if (failing) {
          throw new IllegalStateException("Rewrite read of " + path + " failed by the test");
        }
        Thread.sleep(10);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Rewrite read of " + path + " interrupted", e);
    }
  }
}

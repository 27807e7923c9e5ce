package io.flinkcollation.icuupgrade;

import io.flinkcollation.collation.Collations;
import io.flinkcollation.scan.CollationPredicate;
import io.flinkcollation.scan.CollationScan;
import io.flinkcollation.scan.PrunedFiles;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;

/**
 * A reader after the last playbook step, run by {@link IcuUpgradePlaybookITCase} in a JVM without
 * the ICU 78 artifact: prints the versions of {@code icu.en_US-ci} it resolves, the metric it
 * prunes with and how many files of table {@code db.t} an equality predicate prunes.
 */
public final class WithoutTheArtifact {
  private WithoutTheArtifact() {}

  public static void main(String[] args) throws Exception {
    try (HadoopCatalog catalog = new HadoopCatalog(new Configuration(), args[0])) {
      Table table = catalog.loadTable(TableIdentifier.of(Namespace.of("db"), "t"));
      System.out.println("versions " + Collations.versions("icu.en_US-ci"));
      PrunedFiles files =
          CollationScan.of(table).planFiles(CollationPredicate.equal("name", args[1]));
      System.out.println("metric " + files.metric().map(m -> m.id()).orElse(-1));
      System.out.println("pruned " + files.prunedFiles() + " of " + files.totalFiles());
    }
  }
}

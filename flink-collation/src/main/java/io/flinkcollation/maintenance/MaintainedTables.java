package io.flinkcollation.maintenance;

import java.io.Serializable;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.util.Preconditions;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.flink.CatalogLoader;
import org.apache.iceberg.flink.TableLoader;

/**
 * The tables one maintenance stage maintains, and how its operators load each by name: the one
 * table of a single-table sink, or any table of a catalog that the dynamic sink's committer names
 * (docs/maintenance.md#many-tables). Immutable.
 */
@Internal
public abstract class MaintainedTables implements Serializable {
  private static final long serialVersionUID = 1L;

  private MaintainedTables() {}

  /** The one table {@code name} of {@code loader}; the stage watches it from the start. */
  public static MaintainedTables of(String name, TableLoader loader) {
    Preconditions.checkArgument(name != null && loader != null, "Cannot maintain table null");
    return new One(name, loader);
  }

  /**
   * The tables of {@code catalogLoader} the stage is told of, by their identifiers ({@link
   * TableIdentifier#toString()}), from the first commit the sink makes to each.
   */
  public static MaintainedTables inCatalog(CatalogLoader catalogLoader) {
    Preconditions.checkArgument(
        catalogLoader != null, "Cannot maintain the tables of catalog null");
    return new InCatalog(catalogLoader);
  }

  /** The tables watched from the start, before any commit names them. */
  public abstract List<String> initial();

  /** Opens what loads the tables by name, for one thread of one operator. */
  public abstract Source open();

  /** Loads the tables by name; one catalog (or the one table's loader) for all of them. */
  public interface Source extends AutoCloseable {
    Table load(String name);
  }

  private static final class One extends MaintainedTables {
    private static final long serialVersionUID = 1L;
    private final String name;
    private final TableLoader loader;

    One(String name, TableLoader loader) {
      this.name = name;
      this.loader = loader;
    }

    @Override
    public List<String> initial() {
      return List.of(name);
    }

    @Override
    public Source open() {
      TableLoader opened = loader.clone();
      opened.open();
      return new Source() {
        @Override
        public Table load(String table) {
          // A rewrite task of format version 1 names no table: it is this one.
          return opened.loadTable();
        }

        @Override
        public void close() throws Exception {
          opened.close();
        }
      };
    }
  }

  private static final class InCatalog extends MaintainedTables {
    private static final long serialVersionUID = 1L;
    private final CatalogLoader catalogLoader;

    InCatalog(CatalogLoader catalogLoader) {
      this.catalogLoader = catalogLoader;
    }

    @Override
    public List<String> initial() {
      return List.of();
    }

    @Override
    public Source open() {
      Catalog catalog = catalogLoader.loadCatalog();
      return new Source() {
        @Override
        public Table load(String name) {
          return catalog.loadTable(TableIdentifier.parse(name));
        }

        @Override
        public void close() throws Exception {
          if (catalog instanceof AutoCloseable) {
            ((AutoCloseable) catalog).close();
          }
        }
      };
    }
  }
}

package io.flinkcollation.sql.function;

import java.util.List;
import java.util.Optional;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.catalog.CatalogFunction;
import org.apache.flink.table.catalog.FunctionLanguage;
import org.apache.flink.table.resource.ResourceUri;

/**
 * A collation function as a catalog returns it: a Java class Flink instantiates itself. (Flink's
 * own {@code CatalogFunctionImpl} is internal, so this small implementation of the public interface
 * stands in.)
 */
@Internal
public final class CollationCatalogFunction implements CatalogFunction {

  private final String className;

  private CollationCatalogFunction(String className) {
    this.className = className;
  }

  /** The catalog function named {@code name} (any case), if it is a collation function. */
  public static Optional<CatalogFunction> named(String name) {
    return CollationFunctions.classOf(name).map(c -> new CollationCatalogFunction(c.getName()));
  }

  @Override
  public String getClassName() {
    return className;
  }

  @Override
  public CatalogFunction copy() {
    return new CollationCatalogFunction(className);
  }

  @Override
  public Optional<String> getDescription() {
    return Optional.of("A collation function of flink-collation");
  }

  @Override
  public Optional<String> getDetailedDescription() {
    return getDescription();
  }

  @Override
  public FunctionLanguage getFunctionLanguage() {
    return FunctionLanguage.JAVA;
  }

  @Override
  public List<ResourceUri> getFunctionResources() {
    return List.of();
  }

  /**
   * Flink 1.20's abstract {@code CatalogFunction#isGeneric} (removed in 2.0, where this method is
   * unused, hence no {@code @Override}): a Flink function, not a Hive one.
   */
  public boolean isGeneric() {
    return true;
  }
}

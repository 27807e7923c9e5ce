package io.flinkcollation.sql.function;

import java.util.Set;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.table.factories.ModuleFactory;
import org.apache.flink.table.module.Module;

/** Makes the {@link CollationModule} for {@code LOAD MODULE collation}; it takes no options. */
@PublicEvolving
public final class CollationModuleFactory implements ModuleFactory {

  /** The module's name in {@code LOAD MODULE}. */
  public static final String IDENTIFIER = "collation";

  @Override
  public String factoryIdentifier() {
    return IDENTIFIER;
  }

  @Override
  public Set<ConfigOption<?>> requiredOptions() {
    return Set.of();
  }

  @Override
  public Set<ConfigOption<?>> optionalOptions() {
    return Set.of();
  }

  @Override
  public Module createModule(Context context) {
    return new CollationModule();
  }
}

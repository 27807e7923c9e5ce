package io.flinkcollation.api;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks the supported API of the engine-neutral packages ({@code collation}, {@code metadata},
 * {@code stats}, {@code scan}), with how far it is settled at 0.x ({@link #value()}). A public type
 * of those packages without it is public only because another package of this project uses it, and
 * may change in any release. The Flink-facing packages use Flink's own {@code @PublicEvolving},
 * {@code @Experimental} and {@code @Internal}, with the same meanings (docs/design.md#public-api).
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.TYPE)
public @interface PublicApi {

  /** How far the type is settled; unstated, it promises the least. */
  Stability value() default Stability.EXPERIMENTAL;

  /** The levels of Flink's annotations, for a layer that imports no engine. */
  enum Stability {
    /**
     * As Flink's {@code @PublicEvolving}: meant for users; it may change in a minor release (0.x to
     * 0.y), said in its notes, never in a patch release.
     */
    EVOLVING,
    /**
     * As Flink's {@code @Experimental}: being shaped; it may change or go in any release, patch
     * releases included.
     */
    EXPERIMENTAL
  }
}

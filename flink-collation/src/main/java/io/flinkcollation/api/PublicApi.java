package io.flinkcollation.api;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks the supported API of the engine-neutral packages ({@code collation}, {@code metadata},
 * {@code stats}, {@code scan}): it changes only with a deprecation first. A public type of those
 * packages without it is public only because another package of this project uses it, and may
 * change in any release. The Flink-facing packages use Flink's own {@code @PublicEvolving} and
 * {@code @Internal} instead (docs/design.md#public-api).
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.TYPE)
public @interface PublicApi {}

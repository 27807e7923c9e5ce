package io.flinkcollation.testing.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.members;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaMember;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * What this project calls its public API (docs/design.md#public-api): a type of ours annotated
 * {@code @PublicApi} (the engine-neutral packages) or with Flink's {@code @Public}, {@code
 * PublicEvolving} or {@code @Experimental} (the Flink-facing packages), and a public type nested in
 * one unless it is {@code @Internal}.
 */
public final class ApiTypes {
  private static final String OURS = "io.flinkcollation.";
  private static final List<String> API_ANNOTATIONS =
      List.of(
          "io.flinkcollation.api.PublicApi",
          "org.apache.flink.annotation.Public",
          "org.apache.flink.annotation.PublicEvolving",
          "org.apache.flink.annotation.Experimental");
  private static final String INTERNAL = "org.apache.flink.annotation.Internal";

  private ApiTypes() {}

  /** Whether {@code type} is one of ours that users may rely on. */
  public static boolean isApi(JavaClass type) {
    if (!type.getName().startsWith(OURS) || type.isAnnotatedWith(INTERNAL)) {
      return false;
    }
    if (API_ANNOTATIONS.stream().anyMatch(type::isAnnotatedWith)) {
      return true;
    }
    return type.getModifiers().contains(JavaModifier.PUBLIC)
        && type.getEnclosingClass().map(ApiTypes::isApi).orElse(false);
  }

  /**
   * Whether a public API signature may show {@code type}: an API type of ours, or a type of the
   * JDK, Flink or Iceberg (not the libraries Iceberg relocates into its runtime jar).
   */
  public static boolean mayShow(JavaClass type) {
    JavaClass base = type.isArray() ? type.getBaseComponentType() : type;
    String name = base.getName();
    if (base.isPrimitive() || name.startsWith("java.")) {
      return true;
    }
    if (name.startsWith(OURS)) {
      return isApi(base);
    }
    return name.startsWith("org.apache.flink.")
        || (name.startsWith("org.apache.iceberg.")
            && !name.startsWith("org.apache.iceberg.relocated."));
  }

  /**
   * Classes of {@code userPackage} (and its subpackages) use no type of ours outside it but API
   * types: the examples show what a user can write.
   */
  public static ArchRule usedOnlyThroughTheApiFrom(String userPackage) {
    return noClasses()
        .that()
        .resideInAPackage(userPackage + "..")
        .should()
        .dependOnClassesThat(
            DescribedPredicate.describe(
                "are types of ours outside " + userPackage + " without an API annotation",
                type ->
                    type.getName().startsWith(OURS)
                        && !type.getPackageName().startsWith(userPackage)
                        && !isApi(type)))
        .because("the examples use the public API only (docs/design.md#public-api)");
  }

  /**
   * The public and protected members of API types show only types {@link #mayShow may be shown}: in
   * their parameters, return and field types, type arguments and thrown exceptions.
   */
  public static ArchRule signaturesShowOnlyApiTypes() {
    return members()
        .that(
            DescribedPredicate.describe(
                "are public or protected members of API types, not marked @Internal",
                member ->
                    isApi(member.getOwner())
                        && (member.getModifiers().contains(JavaModifier.PUBLIC)
                            || member.getModifiers().contains(JavaModifier.PROTECTED))
                        && !member.getModifiers().contains(JavaModifier.SYNTHETIC)
                        // As in Flink: an @Internal member of an API type is not API (a hand-over
                        // between our own packages, such as the SQL factory's checked options).
                        && !member.isAnnotatedWith(INTERNAL)))
        .should(showOnlyApiTypes())
        .because("a user of the API must never need a type that may change in any release");
  }

  private static ArchCondition<JavaMember> showOnlyApiTypes() {
    return new ArchCondition<>("show only API types, JDK, Flink or Iceberg types") {
      @Override
      public void check(JavaMember member, ConditionEvents events) {
        Set<String> shown = new TreeSet<>();
        for (JavaClass type : involvedTypes(member)) {
          if (!mayShow(type)) {
            shown.add(type.getName());
          }
        }
        for (String type : shown) {
          events.add(
              SimpleConditionEvent.violated(
                  member, member.getFullName() + " shows " + type + ", which is not API"));
        }
      }
    };
  }

  private static Set<JavaClass> involvedTypes(JavaMember member) {
    if (member instanceof JavaCodeUnit) {
      return ((JavaCodeUnit) member).getAllInvolvedRawTypes();
    }
    if (member instanceof JavaField) {
      return ((JavaField) member).getType().getAllInvolvedRawTypes();
    }
    return Set.of();
  }
}

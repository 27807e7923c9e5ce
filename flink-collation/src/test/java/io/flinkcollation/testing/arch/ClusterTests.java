package io.flinkcollation.testing.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.AccessTarget;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaAnnotation;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.ReferencedClassObject;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import io.flinkcollation.testing.BuildDirectory;
import java.net.URI;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Which tests start a Flink cluster or a server, and the rule that names them: those are {@code
 * *ITCase} or {@code *IT} and run in failsafe, every other test class is a {@code *Test} and runs
 * in surefire (the parent pom's includes), so each runs exactly once.
 *
 * <p>A test starts one when its code, followed through every method of ours it calls (main and test
 * code, JUnit extensions of ours it creates included), uses a MiniCluster, a REST catalog server, a
 * standalone cluster or a SQL gateway, or runs a Flink job, which without a registered MiniCluster
 * starts one of its own.
 */
public final class ClusterTests {
  private static final String OURS = "io.flinkcollation.";

  /** Types whose use starts a cluster or a server. */
  private static final Set<String> SERVERS =
      Set.of(
          "org.apache.flink.test.junit5.MiniClusterExtension",
          "org.apache.flink.runtime.minicluster.MiniCluster",
          "org.apache.flink.test.util.MiniClusterWithClientResource",
          "org.apache.flink.table.gateway.SqlGateway",
          "io.flinkcollation.testing.catalog.RestCatalogServer",
          "io.flinkcollation.cluster.StandaloneCluster");

  /** Methods that run a Flink job, by the type that declares them. */
  private static final Map<String, Set<String>> JOB_METHODS =
      Map.of(
          "org.apache.flink.streaming.api.environment.StreamExecutionEnvironment",
          Set.of("execute", "executeAsync"),
          "org.apache.flink.streaming.api.datastream.DataStream",
          Set.of("executeAndCollect"),
          "org.apache.flink.table.api.TableResult",
          Set.of("await"),
          "org.apache.flink.table.api.StatementSet",
          Set.of("execute"),
          "org.apache.flink.table.api.Table",
          Set.of("execute", "executeInsert"));

  private static final List<String> TEST_ANNOTATIONS =
      List.of(
          "org.junit.jupiter.api.Test",
          "org.junit.jupiter.api.RepeatedTest",
          "org.junit.jupiter.api.TestFactory",
          "org.junit.jupiter.api.TestTemplate",
          "org.junit.jupiter.params.ParameterizedTest");

  private ClusterTests() {}

  /**
   * All classes of ours on the class path: the module's, and those of the modules it uses. Not the
   * third-party code relocated under our packages ({@code io.flinkcollation.shaded} in the -sql
   * jar, {@code io.flinkcollation.icu78.shaded}): it is not ours, and importing all of ICU took
   * most of the check's time.
   */
  public static JavaClasses importOurs() {
    return new ClassFileImporter()
        .withImportOption(location -> !location.contains("/shaded/"))
        .importPackages("io.flinkcollation");
  }

  /**
   * Test classes of the module the tests run in (its target/test-classes) are named after what they
   * start: {@code *ITCase} or {@code *IT} when they start a cluster or a server, else {@code
   * *Test}.
   */
  public static ArchRule namedAfterWhatTheyStart() {
    URI testClasses = BuildDirectory.resolve("test-classes").toAbsolutePath().toUri();
    return classes()
        .that(
            DescribedPredicate.describe(
                "are top-level test classes of this module",
                type ->
                    type.getSource().isPresent()
                        && type.getSource()
                            .get()
                            .getUri()
                            .toString()
                            .startsWith(testClasses.toString())
                        && type.isTopLevelClass()
                        && holdsTests(type)))
        .should(beNamedAfterWhatTheyStart())
        .because(
            "failsafe runs *IT and *ITCase, surefire *Test: a test that starts a cluster or a"
                + " server is an integration test");
  }

  private static ArchCondition<JavaClass> beNamedAfterWhatTheyStart() {
    return new ArchCondition<>("be named *ITCase or *IT when they start a cluster, else *Test") {
      @Override
      public void check(JavaClass test, ConditionEvents events) {
        Optional<String> start = whatItStarts(test);
        String name = test.getSimpleName();
        boolean integration = name.endsWith("IT") || name.endsWith("ITCase");
        if (start.isPresent() && !integration) {
          events.add(
              SimpleConditionEvent.violated(
                  test, test.getName() + " " + start.get() + ": name it *ITCase or *IT"));
        } else if (start.isEmpty() && !name.endsWith("Test")) {
          events.add(
              SimpleConditionEvent.violated(
                  test,
                  test.getName() + " starts no cluster or server: name it *Test, not " + name));
        }
      }
    };
  }

  /** What {@code test} starts, as "starts X from Y", or empty. */
  public static Optional<String> whatItStarts(JavaClass test) {
    Deque<JavaCodeUnit> todo = new ArrayDeque<>();
    Map<JavaCodeUnit, JavaCodeUnit> reachedFrom = new HashMap<>();
    // Lambdas are methods of the test class; its nested classes are reached as it makes them.
    todo.addAll(codeOf(test));
    while (!todo.isEmpty()) {
      JavaCodeUnit unit = todo.poll();
      // A server loaded by name in a class loader of its own (RestCatalogServerExtension).
      for (ReferencedClassObject reference : unit.getReferencedClassObjects()) {
        if (SERVERS.contains(reference.getRawType().getName())) {
          return Optional.of(
              "starts " + reference.getRawType().getName() + " from " + path(unit, reachedFrom));
        }
      }
      for (JavaAccess<?> access : unit.getAccessesFromSelf()) {
        JavaClass owner = access.getTargetOwner();
        String target = owner.getName() + "." + access.getTarget().getName();
        if (SERVERS.contains(owner.getName()) || runsAJob(owner, access.getTarget().getName())) {
          return Optional.of("starts " + target + " from " + path(unit, reachedFrom));
        }
        if (!owner.getName().startsWith(OURS)
            || !(access.getTarget() instanceof AccessTarget.CodeUnitAccessTarget)) {
          continue;
        }
        List<JavaCodeUnit> next = new ArrayList<>();
        ((AccessTarget.CodeUnitAccessTarget) access.getTarget())
            .resolveMember()
            .ifPresent(next::add);
        owner.getStaticInitializer().ifPresent(next::add);
        if (access.getTarget() instanceof AccessTarget.ConstructorCallTarget) {
          // What an object of ours does once made (a JUnit extension's callbacks, a Flink
          // function's, a thread's) runs as part of the test.
          next.addAll(codeOf(owner));
        }
        for (JavaCodeUnit callee : next) {
          if (!reachedFrom.containsKey(callee) && !callee.getOwner().equals(test)) {
            reachedFrom.put(callee, unit);
            todo.add(callee);
          }
        }
      }
    }
    return Optional.empty();
  }

  /** Its methods and constructors, and its static initializer, which getCodeUnits() leaves out. */
  private static List<JavaCodeUnit> codeOf(JavaClass type) {
    List<JavaCodeUnit> code = new ArrayList<>(type.getCodeUnits());
    type.getStaticInitializer().ifPresent(code::add);
    return code;
  }

  private static boolean runsAJob(JavaClass owner, String method) {
    if (JOB_METHODS.values().stream().noneMatch(names -> names.contains(method))) {
      return false; // the common case, without walking the owner's type hierarchy
    }
    return JOB_METHODS.entrySet().stream()
        .anyMatch(job -> job.getValue().contains(method) && owner.isAssignableTo(job.getKey()));
  }

  private static String path(JavaCodeUnit unit, Map<JavaCodeUnit, JavaCodeUnit> reachedFrom) {
    StringBuilder path = new StringBuilder(unit.getFullName());
    for (JavaCodeUnit caller = reachedFrom.get(unit);
        caller != null;
        caller = reachedFrom.get(caller)) {
      path.append(" <- ").append(caller.getFullName());
    }
    return path.toString();
  }

  private static boolean holdsTests(JavaClass type) {
    return type.getMethods().stream()
        .anyMatch(
            method ->
                method.getAnnotations().stream()
                    .map(JavaAnnotation::getRawType)
                    .anyMatch(annotation -> TEST_ANNOTATIONS.contains(annotation.getName())));
  }
}

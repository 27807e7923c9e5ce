package io.flinkcollation.metadata;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.flinkcollation.collation.Quoted;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The keys of a {@code collations} property that this build does not know, at the top level, in a
 * field entry (by field id) and in a metric entry (by metric id), with their JSON values. They are
 * read around and written back unchanged on every commit, as long as their entry is kept
 * (docs/other-tools.md#unknown-keys): the spec's JSON may gain keys, and other engines may add
 * their own. Immutable.
 */
final class UnknownKeys implements Serializable {
  private static final long serialVersionUID = 1L;

  static final UnknownKeys NONE = new UnknownKeys(Keys.NONE, Map.of(), Map.of());

  private final Keys topLevel;
  private final Map<Integer, Keys> fields;
  private final Map<Integer, Keys> metrics;

  private UnknownKeys(Keys topLevel, Map<Integer, Keys> fields, Map<Integer, Keys> metrics) {
    this.topLevel = topLevel;
    this.fields = Collections.unmodifiableMap(new TreeMap<>(fields));
    this.metrics = Collections.unmodifiableMap(new TreeMap<>(metrics));
  }

  static Builder builder() {
    return new Builder();
  }

  Keys topLevel() {
    return topLevel;
  }

  Keys ofField(int fieldId) {
    return fields.getOrDefault(fieldId, Keys.NONE);
  }

  Keys ofMetric(int metricId) {
    return metrics.getOrDefault(metricId, Keys.NONE);
  }

  boolean isEmpty() {
    return topLevel.isEmpty() && fields.isEmpty() && metrics.isEmpty();
  }

  /** Only the keys of the entries still declared: a dropped entry takes its keys with it. */
  UnknownKeys retain(Set<Integer> fieldIds, Set<Integer> metricIds) {
    if (fieldIds.containsAll(fields.keySet()) && metricIds.containsAll(metrics.keySet())) {
      return this;
    }
    Map<Integer, Keys> keptFields = new TreeMap<>(fields);
    keptFields.keySet().retainAll(fieldIds);
    Map<Integer, Keys> keptMetrics = new TreeMap<>(metrics);
    keptMetrics.keySet().retainAll(metricIds);
    return new UnknownKeys(topLevel, keptFields, keptMetrics);
  }

  /** Where each unknown key is, e.g. {@code 'pad' in field 2}; empty when there is none. */
  List<String> describe() {
    List<String> places = new ArrayList<>();
    if (!topLevel.isEmpty()) {
      places.add(topLevel.names() + " at the top level");
    }
    fields.forEach((id, keys) -> places.add(keys.names() + " in field " + id));
    metrics.forEach((id, keys) -> places.add(keys.names() + " in metric " + id));
    return places;
  }

  @Override
  public boolean equals(Object other) {
    if (this == other) {
      return true;
    }
    if (!(other instanceof UnknownKeys)) {
      return false;
    }
    UnknownKeys that = (UnknownKeys) other;
    return topLevel.equals(that.topLevel)
        && fields.equals(that.fields)
        && metrics.equals(that.metrics);
  }

  @Override
  public int hashCode() {
    return Objects.hash(topLevel, fields, metrics);
  }

  /** The unknown keys of one JSON object, in their order, each with its value as JSON text. */
  static final class Keys implements Serializable {
    private static final long serialVersionUID = 1L;

    static final Keys NONE = new Keys(Map.of());

    private final Map<String, String> values;

    private Keys(Map<String, String> values) {
      this.values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }

    /** The keys of {@code node} other than {@code known}. */
    static Keys of(ObjectNode node, Set<String> known) {
      Map<String, String> unknown = new LinkedHashMap<>();
      node.fields()
          .forEachRemaining(
              entry -> {
                if (!known.contains(entry.getKey())) {
                  unknown.put(entry.getKey(), entry.getValue().toString());
                }
              });
      return unknown.isEmpty() ? NONE : new Keys(unknown);
    }

    boolean isEmpty() {
      return values.isEmpty();
    }

    /** The keys, quoted and joined, e.g. {@code 'pad', 'x'}. */
    String names() {
      return values.keySet().stream().map(Quoted::of).collect(Collectors.joining(", "));
    }

    /** Adds the keys with their values to {@code node}. */
    void writeTo(ObjectNode node) {
      values.forEach(
          (key, json) -> {
            try {
              node.set(key, TableCollationsJson.MAPPER.readTree(json));
            } catch (JsonProcessingException e) {
              throw new UncheckedIOException("Unreachable: the value was read as JSON", e);
            }
          });
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof Keys && values.equals(((Keys) other).values);
    }

    @Override
    public int hashCode() {
      return values.hashCode();
    }
  }

  /** Collects the unknown keys while a property is read. */
  static final class Builder {
    private Keys topLevel = Keys.NONE;
    private final Map<Integer, Keys> fields = new TreeMap<>();
    private final Map<Integer, Keys> metrics = new TreeMap<>();

    void topLevel(Keys keys) {
      topLevel = keys;
    }

    void field(int fieldId, Keys keys) {
      if (!keys.isEmpty()) {
        fields.put(fieldId, keys);
      }
    }

    void metric(int metricId, Keys keys) {
      if (!keys.isEmpty()) {
        metrics.put(metricId, keys);
      }
    }

    UnknownKeys build() {
      return topLevel.isEmpty() && fields.isEmpty() && metrics.isEmpty()
          ? NONE
          : new UnknownKeys(topLevel, fields, metrics);
    }
  }
}

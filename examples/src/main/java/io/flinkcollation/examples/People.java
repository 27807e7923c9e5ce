package io.flinkcollation.examples;

import java.text.Normalizer;
import java.util.Locale;
import java.util.SplittableRandom;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;

/**
 * Generated multilingual people: names and cities with case and accent variants ({@code Émile},
 * {@code EMILE}, {@code emile}), the data a case- and accent-insensitive collation is for.
 *
 * <p>Rows arrive in random order, as a real stream's do: row {@code i}'s name, city and variants
 * are drawn from a generator seeded by {@code seed} and {@code i}, so a run is reproducible. A file
 * a writer commits therefore spans nearly the whole alphabet unless the sink clusters the rows
 * ({@code range} distribution) or a rewrite sorts them (compaction).
 */
public final class People implements GeneratorFunction<Long, RowData> {
  private static final long serialVersionUID = 1L;

  /** {@code id, name, city, country, note}. */
  public static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "name", Types.StringType.get()),
          Types.NestedField.optional(3, "city", Types.StringType.get()),
          Types.NestedField.optional(4, "country", Types.StringType.get()),
          Types.NestedField.optional(5, "note", Types.StringType.get()));

  public static final String[] NAMES = {
    "Adèle",
    "Agnès",
    "Álvaro",
    "Anaïs",
    "André",
    "Ángel",
    "Åsa",
    "Björn",
    "Brontë",
    "Çağla",
    "Chloé",
    "Daniël",
    "Dóra",
    "Éloïse",
    "Élodie",
    "Émile",
    "Eñaut",
    "François",
    "Gaël",
    "Göran",
    "Håkon",
    "Hélène",
    "Iñaki",
    "İlkay",
    "Ioana",
    "Jérôme",
    "Jürgen",
    "Kåre",
    "Léa",
    "Łukasz",
    "Maël",
    "Mónica",
    "Noé",
    "Noëlle",
    "Øystein",
    "Oğuz",
    "Pál",
    "Ramón",
    "Renée",
    "Rónán",
    "Sébastien",
    "Søren",
    "Štěpán",
    "Thaïs",
    "Tomás",
    "Uxío",
    "Valérie",
    "Wojciech",
    "Xosé",
    "Yannick",
    "Zoë",
    "Zoltán"
  };

  public static final String[] CITIES = {
    "Ålesund",
    "Besançon",
    "Bogotá",
    "Brașov",
    "Córdoba",
    "Düsseldorf",
    "Genève",
    "Göteborg",
    "Kraków",
    "Köln",
    "Łódź",
    "Malmö",
    "Montréal",
    "München",
    "Nîmes",
    "Poznań",
    "Québec",
    "Reykjavík",
    "São Paulo",
    "Sevilla",
    "Tromsø",
    "Zürich"
  };

  static final String[] COUNTRIES = {
    "Brasil",
    "Colombia",
    "Deutschland",
    "España",
    "France",
    "Ísland",
    "Norge",
    "Polska",
    "România",
    "Schweiz",
    "Sverige",
    "Canada"
  };

  private final long seed;

  /**
   * @param seed the random seed of the names, cities and their variants
   */
  public People(long seed) {
    this.seed = seed;
  }

  @Override
  public RowData map(Long index) {
    long i = index;
    SplittableRandom random = new SplittableRandom(seed ^ (i * 0x9E3779B97F4A7C15L));
    return GenericRowData.of(
        i,
        StringData.fromString(variant(NAMES[random.nextInt(NAMES.length)], random)),
        StringData.fromString(variant(CITIES[random.nextInt(CITIES.length)], random)),
        StringData.fromString(COUNTRIES[random.nextInt(COUNTRIES.length)]),
        StringData.fromString("note " + random.nextInt(1_000_000)));
  }

  /** The value as written, upper case, lower case, or without accents: all collation-equal. */
  public static String variant(String value, SplittableRandom random) {
    switch (random.nextInt(4)) {
      case 0:
        return value.toUpperCase(Locale.ROOT);
      case 1:
        return value.toLowerCase(Locale.ROOT);
      case 2:
        return withoutAccents(value);
      default:
        return value;
    }
  }

  static String withoutAccents(String value) {
    return Normalizer.normalize(value, Normalizer.Form.NFD).replaceAll("\\p{M}", "");
  }
}

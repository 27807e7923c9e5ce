package io.flinkcollation.benchmarks;

import io.flinkcollation.collation.Collation;
import io.flinkcollation.collation.Collations;
import io.flinkcollation.collation.PrimaryRanks;
import io.flinkcollation.stats.CollationBoundsTracker;
import io.flinkcollation.write.CollationSinkOptions;
import java.text.Normalizer;
import java.util.Comparator;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * A kind of string values a collated column holds, with the collation it is declared with: the
 * cases the tracker must be fast for. Each family draws values from a few words of its script and
 * language, with variants that are equal under its collation but differ in bytes (case, accents,
 * trailing spaces) where the collation ignores such differences.
 */
public enum ValueFamily {
  /** ASCII names, case- and accent-sensitive. */
  LATIN("icu.en_US", Words.LATIN, "abcdefghijklmnopqrstuvwxyz0123456789", Variant.NONE),
  /** Names with accents, in French order. */
  LATIN_ACCENTS(
      "icu.fr_FR", Words.ACCENTED, "aàâäbcçdeéèêëfghiîïjklmnoôöpqrstuùûüvwxyz", Variant.NONE),
  /** ASCII names in mixed case, case-insensitive. */
  CASE_INSENSITIVE(
      "icu.en_US-ci", Words.LATIN, "abcdefghijklmnopqrstuvwxyz0123456789", Variant.CASE),
  /** Names with and without their accents, accent-insensitive. */
  ACCENT_INSENSITIVE(
      "icu.en_US-ai", Words.ACCENTED, "aàâäbcçdeéèêëfghiîïjklmnoôöpqrstuùûü", Variant.ACCENTS),
  /** ASCII names with trailing spaces, which PAD SPACE ignores. */
  RTRIM("icu.en_US-rtrim", Words.LATIN, "abcdefghijklmnopqrstuvwxyz0123456789", Variant.SPACES),
  /** German names and words with umlauts and ß, case-insensitive. */
  GERMAN("icu.de_DE-ci", Words.GERMAN, "aäbcdefghijklmnoöpqrsßtuüvwxyz", Variant.CASE),
  /** Swedish places, where å, ä, ö are letters after z. */
  SWEDISH("icu.sv_SE", Words.SWEDISH, "abcdefghijklmnopqrstuvwxyzåäö", Variant.NONE),
  /** Turkish places with dotted and dotless i, case-insensitive. */
  TURKISH("icu.tr_TR-ci", Words.TURKISH, "abcçdefgğhıijklmnoöprsştuüvyz", Variant.CASE),
  /** Chinese place names: every character above U+07FF. */
  CJK("icu.zh", Words.CJK, "的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年", Variant.NONE),
  /** URLs sharing a long prefix, case-insensitive. */
  URL("icu.en_US-ci", Words.URL, "abcdefghijklmnopqrstuvwxyz0123456789", Variant.NONE),
  /** Cities in their own scripts: Latin, Cyrillic, Greek, Arabic, Devanagari, Han, Hangul. */
  MIXED_SCRIPTS("icu.root", Words.MIXED, "abcdefghijklmnopqrstuvwxyz0123456789", Variant.NONE);

  /** Distinct values (before variants) of a low-cardinality column. */
  static final int LOW_CARDINALITY_VALUES = 50;

  private final String collation;
  private final String[] words;
  private final int[] suffixAlphabet;
  private final Variant variant;

  ValueFamily(String collation, String[] words, String suffixAlphabet, Variant variant) {
    this.collation = collation;
    this.words = words;
    this.suffixAlphabet = suffixAlphabet.codePoints().toArray();
    this.variant = variant;
  }

  /** The collation the family's column is declared with. */
  public String collation() {
    return collation;
  }

  /**
   * The {@code index}-th value of a column: low cardinality draws from {@value
   * #LOW_CARDINALITY_VALUES} values (and their variants), high cardinality gives unique values (a
   * word and a random suffix).
   */
  public String value(long index, Cardinality cardinality, long seed) {
    SplittableRandom random = new SplittableRandom(seed ^ (index * 0x9E3779B97F4A7C15L));
    String value;
    if (cardinality == Cardinality.HIGH) {
      StringBuilder suffix = new StringBuilder();
      for (int i = 0; i < 8; i++) {
        suffix.appendCodePoint(suffixAlphabet[random.nextInt(suffixAlphabet.length)]);
      }
      value = words[random.nextInt(words.length)] + separator() + suffix;
    } else {
      int distinct = random.nextInt(LOW_CARDINALITY_VALUES);
      value = words[distinct % words.length] + separator() + distinct / words.length;
    }
    return variant.of(value, random);
  }

  private String separator() {
    return this == URL ? "/" : " ";
  }

  /** A new tracker of this family's collation, as the sink makes one per file and metric. */
  public CollationBoundsTracker newTracker() {
    Collation resolved = Collations.resolve(collation);
    return newTracker(
        resolved.newComparator(), PrimaryRanks.offeredBy(resolved).orElse(PrimaryRanks.NONE));
  }

  /**
   * A new tracker with the given comparator and ranks, which the sink makes once per subtask and
   * shares between the trackers of its files.
   */
  static CollationBoundsTracker newTracker(Comparator<String> order, PrimaryRanks ranks) {
    return new CollationBoundsTracker(
        1, order, ranks, CollationSinkOptions.MAX_BOUND_LENGTH.defaultValue());
  }

  /** Byte-different spellings of a value that its collation may treat as equal. */
  private enum Variant {
    NONE {
      @Override
      String of(String value, SplittableRandom random) {
        return value;
      }
    },
    CASE {
      @Override
      String of(String value, SplittableRandom random) {
        switch (random.nextInt(3)) {
          case 0:
            return value.toUpperCase(Locale.ROOT);
          case 1:
            return value.toLowerCase(Locale.ROOT);
          default:
            return value;
        }
      }
    },
    ACCENTS {
      @Override
      String of(String value, SplittableRandom random) {
        return random.nextBoolean()
            ? value
            : Normalizer.normalize(value, Normalizer.Form.NFD).replaceAll("\\p{M}", "");
      }
    },
    SPACES {
      @Override
      String of(String value, SplittableRandom random) {
        return value + " ".repeat(random.nextInt(3));
      }
    };

    abstract String of(String value, SplittableRandom random);
  }

  /** The words values are made of. */
  private static final class Words {
    static final String[] LATIN = {
      "Smith",
      "Johnson",
      "Williams",
      "Brown",
      "Jones",
      "Garcia",
      "Miller",
      "Davis",
      "Rodriguez",
      "Martinez",
      "Hernandez",
      "Lopez",
      "Gonzalez",
      "Wilson",
      "Anderson",
      "Thomas",
      "Taylor",
      "Moore",
      "Jackson",
      "Martin",
      "Lee",
      "Perez",
      "Thompson",
      "White",
      "Harris"
    };
    static final String[] ACCENTED = {
      "Émile", "Élodie", "Zoë", "François", "Hélène", "Jérôme", "Noël", "Anaïs", "Chloé", "Cécile",
      "Gaëlle", "Benoît", "Océane", "Raphaël", "Léa", "Thérèse", "Ève", "Agnès", "Andrée", "Loïc",
      "Mélanie", "Ophélie", "Sébastien", "Inès", "Zélie"
    };
    static final String[] GERMAN = {
      "Müller", "Schäfer", "Größe", "Straße", "Köln", "Düsseldorf", "Bäcker", "Weiß", "Jäger",
      "Öztürk", "Übermut", "Äpfel", "Zöllner", "Fuß", "Schröder", "Meier", "Krüger", "Hoffmann",
      "München", "Lübeck", "Göttingen", "Nürnberg", "Würzburg", "Gießen", "Mößingen"
    };
    static final String[] SWEDISH = {
      "Åsa",
      "Örebro",
      "Ängelholm",
      "Malmö",
      "Göteborg",
      "Västerås",
      "Luleå",
      "Björn",
      "Sjöberg",
      "Åkesson",
      "Öberg",
      "Ystad",
      "Zetterström",
      "Lindqvist",
      "Umeå",
      "Växjö",
      "Jönköping",
      "Norrköping",
      "Söderhamn",
      "Åre",
      "Karlstad",
      "Gävle",
      "Borås",
      "Östersund",
      "Älmhult"
    };
    static final String[] TURKISH = {
      "İstanbul",
      "Işık",
      "Çağlar",
      "Şahin",
      "Ağrı",
      "Iğdır",
      "Ödemiş",
      "Üsküdar",
      "Gökçe",
      "Yılmaz",
      "Öztürk",
      "Kılıç",
      "Doğan",
      "İzmir",
      "Çorum",
      "Eskişehir",
      "Muğla",
      "Şanlıurfa",
      "Iğneada",
      "Ilgaz",
      "İnegöl",
      "Kırşehir",
      "Düzce",
      "Niğde",
      "Tekirdağ"
    };
    static final String[] CJK = {
      "北京", "上海", "广州", "深圳", "成都", "杭州", "武汉", "西安", "南京", "重庆", "天津", "苏州",
      "长沙", "郑州", "东莞", "青岛", "沈阳", "宁波", "昆明", "大连", "厦门", "合肥", "佛山", "福州",
      "哈尔滨"
    };
    static final String[] URL = urls();
    static final String[] MIXED = {
      "Paris",
      "Москва",
      "Αθήνα",
      "القاهرة",
      "दिल्ली",
      "東京",
      "서울",
      "São Paulo",
      "Київ",
      "Θεσσαλονίκη",
      "الرياض",
      "मुंबई",
      "上海",
      "부산",
      "Zürich",
      "Санкт-Петербург",
      "Ηράκλειο",
      "بغداد",
      "कोलकाता",
      "大阪",
      "인천",
      "Kraków",
      "Новосибирск",
      "Πάτρα",
      "दुबई"
    };

    private static String[] urls() {
      String[] sections = {"books", "garden", "kitchen", "music", "outdoor"};
      String[] urls = new String[25];
      for (int i = 0; i < urls.length; i++) {
        urls[i] =
            "https://www.example.com/shop/catalog/products/"
                + sections[i % sections.length]
                + "/item-"
                + (1000 + i * 37);
      }
      return urls;
    }
  }
}

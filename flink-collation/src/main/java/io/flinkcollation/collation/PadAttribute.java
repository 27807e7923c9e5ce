package io.flinkcollation.collation;

import io.flinkcollation.api.PublicApi;

/**
 * Whether trailing spaces take part in comparison (SQL's pad characteristic; the spec's open review
 * question, docs/spec-notes.md#pad).
 */
@PublicApi(PublicApi.Stability.EVOLVING)
public enum PadAttribute {
  /** Trailing spaces count: {@code 'a '} sorts after {@code 'a'}. ICU's default. */
  NO_PAD,
  /** Trailing U+0020 are ignored: {@code 'a '} equals {@code 'a'}. The {@code rtrim} modifier. */
  PAD_SPACE
}

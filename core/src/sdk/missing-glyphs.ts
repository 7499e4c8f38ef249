// One rule for glyphs no font covers (decisions 0071, 0094), shared by every output that draws
// text: which characters count, how they are named, and the warning a user reads. The Chromium
// outputs find them in the page, the image-canvas plugin in its font files; both say it this way.

/** At most this many characters are named in one warning; the rest are counted. */
export const MAX_NAMED_GLYPHS = 20

/**
 * Characters that draw nothing of their own (whitespace, control and format characters,
 * combining marks, lone surrogates): never reported as missing. Its `source` is also used inside
 * the browser, so the page check and a plugin's own check agree on what counts.
 */
export const GLYPHLESS_CHARACTER = /[\p{White_Space}\p{Cc}\p{Cf}\p{M}\p{Cs}]/u

/** Whether a character needs a glyph of its own. */
export function needsGlyph(char: string): boolean {
  return !GLYPHLESS_CHARACTER.test(char)
}

/** `안 (U+C548), 녕 (U+B155) and 3 more`: the characters as a user can search for them. */
export function nameGlyphs(chars: string[], more = false): string {
  const named = chars
    .slice(0, MAX_NAMED_GLYPHS)
    .map((ch) => `${ch} (U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')})`)
  const rest = chars.length - named.length
  if (more) return `${named.join(', ')} and at least ${rest} more`
  return rest > 0 ? `${named.join(', ')} and ${rest} more` : named.join(', ')
}

export interface MissingGlyphs {
  chars: string[]
  /** the search stopped early: there may be more than `chars` */
  more?: boolean
  /**
   * Where they are drawn, when not in the document's own text: `header template`,
   * `frame <url>`, `canvas`, `::before of <element>`, `Layer <name>`.
   */
  where?: string | undefined
  /** what the user can do about it, in their terms (a web font, a canvas font, a layer's font) */
  fix: string
}

/**
 * The message of the `asset_failed` warning (SPEC 7.4) for glyphs no font covers:
 * `[<where>: ]no font has a glyph for <chars>: they show as empty boxes; <fix>`.
 */
export function missingGlyphsMessage({ chars, more = false, where, fix }: MissingGlyphs): string {
  const prefix = where ? `${where}: ` : ''
  return `${prefix}no font has a glyph for ${nameGlyphs(chars, more)}: they show as empty boxes; ${fix}`
}

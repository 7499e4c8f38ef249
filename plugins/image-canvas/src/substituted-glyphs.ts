// Every glyph a font's GSUB table can put in place of others (ligatures, alternates, contextual
// forms), whatever the input: a trimmed copy of the font keeps their outlines so shaping can
// never reach a glyph whose outline was left out.

/** Glyph ids that GSUB lookups can output; empty when the font has no GSUB table. */
export function substitutedGlyphs(view: DataView, gsub: number | undefined): Set<number> {
  const out = new Set<number>()
  if (gsub === undefined) return out
  const lookups = gsub + view.getUint16(gsub + 8)
  for (let i = 0; i < view.getUint16(lookups); i++) {
    const lookup = lookups + view.getUint16(lookups + 2 + i * 2)
    const type = view.getUint16(lookup)
    for (let j = 0; j < view.getUint16(lookup + 4); j++)
      subtable(view, type, lookup + view.getUint16(lookup + 6 + j * 2), out)
  }
  return out
}

function subtable(view: DataView, type: number, at: number, out: Set<number>): void {
  const u16 = (offset: number) => view.getUint16(offset)
  const list = (offset: number) => {
    for (let k = 0; k < u16(offset); k++) out.add(u16(offset + 2 + k * 2))
  }
  switch (type) {
    case 1:
      if (u16(at) === 1) {
        const delta = view.getInt16(at + 4)
        for (const glyph of coverage(view, at + u16(at + 2))) out.add((glyph + delta) & 0xffff)
      } else list(at + 4)
      return
    case 2: // multiple: sequences of glyphs
    case 3: // alternate: sets of alternatives
      for (let k = 0; k < u16(at + 4); k++) list(at + u16(at + 6 + k * 2))
      return
    case 4: // ligature sets of ligatures, each starting with its glyph
      for (let k = 0; k < u16(at + 4); k++) {
        const set = at + u16(at + 6 + k * 2)
        for (let m = 0; m < u16(set); m++) out.add(u16(set + u16(set + 2 + m * 2)))
      }
      return
    case 7: // extension: another type at a 32-bit offset
      subtable(view, u16(at + 2), at + view.getUint32(at + 4), out)
      return
    case 8: {
      // reverse chaining: backtrack and lookahead coverages, then the substitutes
      const backtrack = u16(at + 4)
      const lookahead = at + 6 + backtrack * 2
      list(lookahead + 2 + u16(lookahead) * 2)
      return
    }
    // 5 and 6 (contextual) only call other lookups, which are read on their own
  }
}

function coverage(view: DataView, at: number): number[] {
  const glyphs: number[] = []
  const count = view.getUint16(at + 2)
  if (view.getUint16(at) === 1) for (let k = 0; k < count; k++) glyphs.push(view.getUint16(at + 4 + k * 2))
  else
    for (let k = 0; k < count; k++) {
      const range = at + 4 + k * 6
      for (let g = view.getUint16(range); g <= view.getUint16(range + 2); g++) glyphs.push(g)
    }
  return glyphs
}

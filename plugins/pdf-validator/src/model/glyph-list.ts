import { readFileSync } from 'node:fs'

// The Adobe Glyph List (data, ../../agl/glyphlist.txt, © Adobe, BSD 3-Clause): glyph name to its
// Unicode text. Read once, on first use, since most documents never ask.

let list: Map<string, string> | undefined

function load(): Map<string, string> {
  const map = new Map<string, string>()
  const text = readFileSync(new URL('../../agl/glyphlist.txt', import.meta.url), 'utf8')
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue
    const [name, values] = line.split(';')
    if (!name || !values) continue
    // an entry may stand for several code points, in hex, space-separated
    const points = values.trim().split(' ')
    map.set(name, String.fromCodePoint(...points.map((h) => Number.parseInt(h, 16))))
  }
  return map
}

/** Whether the AGL lists this glyph name. */
export function inGlyphList(name: string): boolean {
  list ??= load()
  return list.has(name)
}

/**
 * The Unicode text a glyph name stands for: the AGL's entry, else the AGL specification's `uniXXXX`
 * and `uXXXX[XX]` forms (each outside the surrogates); undefined when the name says nothing.
 */
export function glyphNameToUnicode(name: string): string | undefined {
  list ??= load()
  const listed = list.get(name)
  if (listed !== undefined) return listed
  const uni = /^uni((?:[0-9A-F]{4})+)$/.exec(name)
  const u = /^u([0-9A-F]{4,6})$/.exec(name)
  const points = uni
    ? (uni[1]!.match(/.{4}/g) ?? []).map((h) => Number.parseInt(h, 16))
    : u
      ? [Number.parseInt(u[1]!, 16)]
      : []
  if (points.length === 0 || points.some((p) => (p >= 0xd800 && p <= 0xdfff) || p > 0x10ffff))
    return undefined
  return String.fromCodePoint(...points)
}

import type { FontFace } from './font-file.ts'

export type TextOverflow = 'shrink' | 'ellipsis' | 'clip'

export interface TextBox {
  text: string
  face: FontFace
  /** face for characters `face` lacks; they are measured with it (resvg falls back the same way) */
  fallback?: FontFace | undefined
  fontSize: number
  minFontSize: number
  /** pixels added after every character, at any font size */
  letterSpacing?: number | undefined
  lineHeight: number
  maxLines?: number | undefined
  overflow: TextOverflow
  width: number
  height: number
}

export interface TextLayout {
  lines: string[]
  fontSize: number
  /** the text was shrunk */
  shrunk: boolean
  /** some text was left out (cut, or ended with an ellipsis) */
  cut: boolean
}

const ELLIPSIS = '\u2026'
/** Shrinking tries sizes in quarter pixels. */
const SIZE_STEPS = 4

/** Breaks the text into lines that fit the box, shrinking or cutting as the layer's overflow says. */
export function layoutText(box: TextBox): TextLayout {
  const first = wrapAt(box, box.fontSize)
  if (first.fits) return { lines: first.lines, fontSize: box.fontSize, shrunk: false, cut: false }
  if (box.overflow === 'shrink' && box.minFontSize < box.fontSize) {
    const smallest = wrapAt(box, box.minFontSize)
    if (smallest.fits) {
      // the largest quarter-pixel size that fits, by bisection over quarter pixels
      let lo = Math.ceil(box.minFontSize * SIZE_STEPS)
      let hi = Math.floor(box.fontSize * SIZE_STEPS)
      let best = { size: box.minFontSize, wrapped: smallest }
      while (lo <= hi) {
        const mid = (lo + hi) >> 1
        const attempt = wrapAt(box, mid / SIZE_STEPS)
        if (attempt.fits) {
          best = { size: mid / SIZE_STEPS, wrapped: attempt }
          lo = mid + 1
        } else hi = mid - 1
      }
      return { lines: best.wrapped.lines, fontSize: best.size, shrunk: true, cut: false }
    }
    return { ...cut(box, smallest, box.minFontSize, true), shrunk: true }
  }
  return { ...cut(box, first, box.fontSize, box.overflow !== 'clip'), shrunk: false }
}

/** Width of a line in pixels at a font size (advances add up: no kerning). */
export function measure(
  text: string,
  size: number,
  face: FontFace,
  fallback?: FontFace,
  letterSpacing = 0,
): number {
  let units = 0
  let chars = 0
  for (const char of text) {
    chars++
    const cp = char.codePointAt(0) as number
    const own = face.advance(cp)
    if (own !== undefined) units += own
    else {
      const other = fallback?.advance(cp)
      units +=
        other !== undefined && fallback
          ? (other * face.unitsPerEm) / fallback.unitsPerEm
          : face.unitsPerEm * 0.6
    }
  }
  return (units * size) / face.unitsPerEm + chars * letterSpacing
}

/** Whether every character of the text has a glyph in the face. */
export function coversText(face: FontFace, text: string): boolean {
  for (const char of text) {
    const cp = char.codePointAt(0) as number
    if (cp > 0x20 && face.advance(cp) === undefined) return false
  }
  return true
}

interface Wrapped {
  lines: string[]
  fits: boolean
  allowed: number
}

function wrapAt(box: TextBox, size: number): Wrapped {
  // widths add up (no kerning), so a line's width is kept as it grows instead of re-measured
  const width = (s: string) => measure(s, size, box.face, box.fallback, box.letterSpacing)
  const space = width(' ')
  const lines: string[] = []
  let widest = 0
  for (const paragraph of box.text.split(/\r?\n/)) {
    let line = ''
    let lineWidth = 0
    const flush = () => {
      lines.push(line)
      widest = Math.max(widest, lineWidth)
      line = ''
      lineWidth = 0
    }
    for (const word of paragraph.split(/[ \t]+/).filter((w) => w !== '')) {
      const wordWidth = width(word)
      const joined = line === '' ? wordWidth : lineWidth + space + wordWidth
      if (joined <= box.width) {
        line = line === '' ? word : `${line} ${word}`
        lineWidth = joined
        continue
      }
      if (line !== '') flush()
      if (wordWidth <= box.width) {
        line = word
        lineWidth = wordWidth
        continue
      }
      // a word wider than the box is broken between characters
      for (const char of word) {
        const charWidth = width(char)
        if (line !== '' && lineWidth + charWidth > box.width) flush()
        line += char
        lineWidth += charWidth
      }
    }
    flush()
  }
  // n lines need (n - 1) line steps plus one em: a 40px line fits a 40px box
  const byHeight =
    box.height + 0.01 < size ? 0 : Math.floor((box.height + 0.01 - size) / (size * box.lineHeight)) + 1
  const allowed = Math.min(byHeight, box.maxLines ?? byHeight)
  const fits = lines.length <= allowed && widest <= box.width
  return { lines, fits, allowed }
}

function cut(box: TextBox, wrapped: Wrapped, size: number, ellipsis: boolean): Omit<TextLayout, 'shrunk'> {
  // a box lower than one line still shows the first line (overflowing, with the warning)
  const lines = wrapped.lines.slice(0, Math.max(1, wrapped.allowed))
  const dropped = wrapped.lines.length > lines.length
  if (ellipsis && dropped) {
    let last = (lines.pop() ?? '').trimEnd()
    const chars = Array.from(last)
    while (
      chars.length > 0 &&
      measure(last + ELLIPSIS, size, box.face, box.fallback, box.letterSpacing) > box.width
    ) {
      chars.pop()
      last = chars.join('').trimEnd()
    }
    lines.push(last + ELLIPSIS)
  }
  return { lines, fontSize: size, cut: dropped || !wrapped.fits }
}

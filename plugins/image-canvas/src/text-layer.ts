import { missingGlyphsMessage, needsGlyph } from '@docsvc/core/sdk'
import { FALLBACK_FAMILY } from './font-catalog.ts'
import type { FontFace } from './font-file.ts'
import type { LayerContext } from './layer-context.ts'
import type { TextLayer } from './scene-schema.ts'
import { attrs, xmlText } from './svg-markup.ts'
import { coversText, layoutText, measure } from './text-layout.ts'
import { trimmedCovers } from './trimmed-font.ts'

const ANCHOR = { left: 'start', center: 'middle', right: 'end' } as const

/** Lines laid out by our own measuring, each placed as a tspan; resvg only draws them. */
export function textSvg(layer: TextLayer, ctx: LayerContext): string {
  const text = transformed(layer.text ?? '', layer.text_transform)
  if (text.trim() === '') return ''
  const family = layer.font_family ?? FALLBACK_FAMILY
  const { face, fellBack } = ctx.fonts.choose(family, layer.font_weight ?? 400, layer.font_style === 'italic')
  if (fellBack)
    ctx.warn(
      'font_fallback_used',
      `Layer ${layer.name}: font family "${family}" is not installed; ${face.family} was used`,
    )
  const fallback = coversText(face, text) ? undefined : helpingFace(face, ctx.fonts.lastResort(), text)
  if (fallback) {
    ctx.warn(
      'font_fallback_used',
      `Layer ${layer.name}: ${face.family} lacks some characters; they were drawn with ${fallback.family}`,
    )
    ctx.fontFiles.add(fallback.file)
  }
  noteMissingGlyphs(layer, uncovered(text, face, fallback), ctx)
  ctx.fontFiles.add(face.file)
  if (!trimmedCovers(text)) {
    ctx.wholeFontFiles.add(face.file)
    if (fallback) ctx.wholeFontFiles.add(fallback.file)
  }

  const x = layer.x ?? 0
  const y = layer.y ?? 0
  const lineHeight = layer.line_height ?? 1.2
  const layout = layoutText({
    text,
    face,
    fallback,
    fontSize: layer.font_size ?? 32,
    letterSpacing: layer.letter_spacing,
    minFontSize: Math.min(layer.min_font_size ?? 8, layer.font_size ?? 32),
    lineHeight,
    maxLines: layer.max_lines,
    overflow: layer.overflow ?? 'ellipsis',
    width: layer.width,
    height: layer.height,
  })
  if (layout.shrunk || layout.cut) ctx.warn('text_overflow', overflowMessage(layer, layout))

  const size = layout.fontSize
  const step = size * lineHeight
  const block = layout.lines.length * step
  const align = layer.align ?? 'left'
  const valign = layer.vertical_align ?? 'top'
  const top =
    y + (valign === 'top' ? 0 : valign === 'middle' ? (layer.height - block) / 2 : layer.height - block)
  const anchorX = align === 'left' ? x : align === 'center' ? x + layer.width / 2 : x + layer.width
  const firstBaseline = top + baselineOffset(face, size, step)
  // the PDF's invisible text follows the lines; rotated ones stay pixels only
  if (!layer.rotation)
    layout.lines.forEach((line, i) => {
      const width = measure(line, size, face, fallback, layer.letter_spacing)
      const left = align === 'left' ? anchorX : align === 'center' ? anchorX - width / 2 : anchorX - width
      ctx.textRuns.push({ text: line, x: left, baseline: firstBaseline + i * step, size, width })
    })
  const spans = layout.lines
    .map((line, i) => `<tspan${attrs({ x: anchorX, y: firstBaseline + i * step })}>${xmlText(line)}</tspan>`)
    .join('')
  return `<text${attrs({
    'font-family': familyAttribute(face, fallback),
    'font-size': size,
    'font-weight': face.weight,
    'font-style': face.italic ? 'italic' : 'normal',
    fill: layer.color ?? '#000000',
    'letter-spacing': layer.letter_spacing || undefined,
    'text-anchor': ANCHOR[align],
    'xml:space': 'preserve',
  })}>${spans}</text>`
}

function transformed(text: string, transform: TextLayer['text_transform']): string {
  if (transform === 'uppercase') return text.toUpperCase()
  if (transform === 'lowercase') return text.toLowerCase()
  return text
}

/** The last-resort face when it has a glyph for at least one character `face` lacks. */
function helpingFace(face: FontFace, candidate: FontFace | undefined, text: string): FontFace | undefined {
  if (!candidate) return undefined
  for (const char of text) {
    const cp = char.codePointAt(0) as number
    if (face.advance(cp) === undefined && candidate.advance(cp) !== undefined) return candidate
  }
  return undefined
}

/** Characters neither the face nor its helper has a glyph for, each once. */
function uncovered(text: string, face: FontFace, fallback: FontFace | undefined): string[] {
  const missing = new Set<string>()
  for (const char of text) {
    const cp = char.codePointAt(0) as number
    if (face.advance(cp) === undefined && fallback?.advance(cp) === undefined && needsGlyph(char))
      missing.add(char)
  }
  return [...missing]
}

/**
 * The warning every output gives for glyphs no font covers (SDK missingGlyphsMessage, decision
 * 0094), naming the layer; the characters also go to the file's `missingGlyphs`.
 */
function noteMissingGlyphs(layer: TextLayer, chars: string[], ctx: LayerContext): void {
  if (chars.length === 0) return
  for (const char of chars) ctx.missingGlyphs.add(char)
  ctx.warn(
    'asset_failed',
    missingGlyphsMessage({
      chars,
      where: `Layer ${layer.name}`,
      fix: 'choose a font_family that covers them, or ask the operator to install a font that does',
    }),
  )
}

/** Baseline below the top of a line box: the font's ascent and descent centred in the line. */
export function baselineOffset(face: FontFace, size: number, lineStep: number): number {
  const ascent = (face.ascender / face.unitsPerEm) * size
  const descent = (-face.descender / face.unitsPerEm) * size
  return (lineStep - (ascent + descent)) / 2 + ascent
}

export function familyAttribute(face: FontFace, fallback?: FontFace): string {
  return [face, fallback]
    .filter((f): f is FontFace => f !== undefined)
    .map((f) => `'${f.family.replace(/'/g, '')}'`)
    .join(', ')
}

function overflowMessage(
  layer: TextLayer,
  layout: { shrunk: boolean; cut: boolean; fontSize: number },
): string {
  const shrunk = `was shrunk to ${layout.fontSize}px`
  const cut = layer.overflow === 'clip' ? 'was cut' : 'was cut with an ellipsis'
  const what = layout.shrunk && layout.cut ? `${shrunk} and still ${cut}` : layout.shrunk ? shrunk : cut
  return `Layer ${layer.name}: the text did not fit its box and ${what}`
}

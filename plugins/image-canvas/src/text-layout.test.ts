import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { pixels, render, WHITE } from './canvas-test-support.ts'
import { FontCatalog, installedFonts, splitFamilies } from './font-catalog.ts'
import { parseFontFile } from './font-file.ts'
import { coversText, layoutText, measure } from './text-layout.ts'

const DEJAVU = '/usr/share/fonts/truetype/dejavu'
const regular = parseFontFile(`${DEJAVU}/DejaVuSans.ttf`, readFileSync(`${DEJAVU}/DejaVuSans.ttf`))

describe('font files and the catalog', () => {
  it('reads family, weight, style and metrics from the font file', () => {
    expect(regular).toMatchObject({ family: 'DejaVu Sans', weight: 400, italic: false, unitsPerEm: 2048 })
    expect(regular.ascender).toBeGreaterThan(0)
    expect(regular.descender).toBeLessThan(0)
    const bold = parseFontFile('b', readFileSync(`${DEJAVU}/DejaVuSans-BoldOblique.ttf`))
    expect(bold).toMatchObject({ family: 'DejaVu Sans', weight: 700, italic: true })
    expect(regular.advance('W'.codePointAt(0)!)).toBeGreaterThan(regular.advance('i'.codePointAt(0)!)!)
    expect(regular.advance(0x4f60)).toBeUndefined() // 你: not in DejaVu
  })

  it('reads OpenType (CFF) fonts too', () => {
    const file = '/usr/share/fonts/opentype/urw-base35/NimbusSans-Bold.otf'
    expect(parseFontFile(file, readFileSync(file))).toMatchObject({
      family: 'Nimbus Sans',
      weight: 700,
      italic: false,
    })
  })

  it('chooses the nearest face of the first installed family, else the fallback', () => {
    const fonts = installedFonts()
    expect(fonts.choose('Missing, DejaVu Serif', 700, true)).toMatchObject({
      face: { family: 'DejaVu Serif', weight: 700, italic: true },
      fellBack: false,
    })
    expect(fonts.choose('DejaVu Sans', 600, false).face.file).toBe(`${DEJAVU}/DejaVuSans-Bold.ttf`)
    expect(fonts.choose('DejaVu Sans', 400, false).face.file).toBe(`${DEJAVU}/DejaVuSans.ttf`)
    expect(fonts.choose('monospace', 400, false).face.family).toBe('DejaVu Sans Mono')
    expect(fonts.choose('Comic Nope', 400, false)).toMatchObject({
      face: { family: 'DejaVu Sans' },
      fellBack: true,
    })
    expect(splitFamilies(` "Open Sans", 'Inter' ,serif,`)).toEqual(['Open Sans', 'Inter', 'serif'])
  })

  it('fails loudly when not even the fallback family is installed', () => {
    expect(() => new FontCatalog([]).choose('Anything', 400, false)).toThrow('DejaVu Sans is not installed')
  })
})

describe('text measuring and layout', () => {
  it('measures about what resvg draws', async () => {
    const text = 'Measured Width Of A Line'
    const width = measure(text, 40, regular)
    const scene = {
      width: 800,
      height: 100,
      background: '#ffffff',
      layers: [{ type: 'text', name: 't', x: 0, y: 0, width: 800, height: 100, text, font_size: 40 }],
    }
    const img = await pixels((await render(scene)).file.bytes)
    const ink = img.inkBounds({ x: 0, y: 0, width: 800, height: 100 }, WHITE)!
    // ink is narrower than the advances by the side bearings of the first and last glyph
    expect(ink.maxX - ink.minX).toBeLessThanOrEqual(width)
    expect(ink.maxX - ink.minX).toBeGreaterThan(width * 0.95)
  })

  const box = { face: regular, fontSize: 20, minFontSize: 8, lineHeight: 1.2, width: 200, height: 100 }

  it('wraps at spaces, keeps explicit line breaks, and breaks words wider than the box', () => {
    const layout = layoutText({ ...box, overflow: 'ellipsis', text: 'alpha beta gamma delta epsilon\nzeta' })
    expect(layout).toMatchObject({ fontSize: 20, shrunk: false, cut: false })
    expect(layout.lines.at(-1)).toBe('zeta')
    for (const line of layout.lines) expect(measure(line, 20, regular)).toBeLessThanOrEqual(200)
    const long = layoutText({ ...box, overflow: 'ellipsis', text: 'x'.repeat(40) })
    expect(long.lines.length).toBeGreaterThan(1)
    expect(long.lines.join('')).toBe('x'.repeat(40))
  })

  it('ends the last allowed line with an ellipsis that fits', () => {
    const layout = layoutText({ ...box, overflow: 'ellipsis', maxLines: 2, text: 'word '.repeat(50) })
    expect(layout.lines).toHaveLength(2)
    expect(layout.lines[1]!.endsWith('\u2026')).toBe(true)
    expect(measure(layout.lines[1]!, 20, regular)).toBeLessThanOrEqual(200)
    expect(layout.cut).toBe(true)
    const clipped = layoutText({ ...box, overflow: 'clip', maxLines: 2, text: 'word '.repeat(50) })
    expect(clipped.lines[1]!.endsWith('\u2026')).toBe(false)
  })

  it('shrinks to the largest size that fits', () => {
    const text = 'A title that needs two lines at twenty pixels'
    const layout = layoutText({ ...box, overflow: 'shrink', maxLines: 1, text })
    expect(layout.shrunk).toBe(true)
    expect(layout.lines).toHaveLength(1)
    expect(measure(text, layout.fontSize, regular)).toBeLessThanOrEqual(200)
    expect(measure(text, layout.fontSize + 0.5, regular)).toBeGreaterThan(200)
  })

  it('fits a line in a box as tall as the font size, and flags a lower box', () => {
    const exact = layoutText({ ...box, overflow: 'ellipsis', height: 20, text: 'Short' })
    expect(exact).toMatchObject({ lines: ['Short'], cut: false })
    const two = layoutText({ ...box, overflow: 'ellipsis', height: 44, text: 'word '.repeat(30) })
    expect(two.lines).toHaveLength(2) // 24 + 20 px
    const low = layoutText({ ...box, overflow: 'ellipsis', height: 12, text: 'Short' })
    expect(low).toMatchObject({ lines: ['Short'], cut: true })
    const shrunk = layoutText({ ...box, overflow: 'shrink', height: 12, text: 'Short' })
    expect(shrunk).toMatchObject({ lines: ['Short'], shrunk: true, cut: false, fontSize: 12 })
  })

  it('knows which text a face covers', () => {
    expect(coversText(regular, 'Grüße, naïve café')).toBe(true)
    expect(coversText(regular, 'hello 你好')).toBe(false)
  })
})

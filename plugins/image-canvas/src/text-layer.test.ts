import { describe, expect, it } from 'vitest'
import { codes, pixels, render, WHITE } from './canvas-test-support.ts'

const box = { x: 20, y: 20, width: 360, height: 60 }

function textScene(layer: Record<string, unknown>) {
  return {
    width: 400,
    height: 200,
    background: '#ffffff',
    layers: [{ type: 'text', name: 'title', ...box, font_size: 24, color: '#000000', ...layer }],
  }
}

async function inkBounds(layer: Record<string, unknown>) {
  const img = await pixels((await render(textScene(layer))).file.bytes)
  const bounds = img.inkBounds({ x: 0, y: 0, width: 400, height: 200 }, WHITE)
  if (!bounds) throw new Error('no ink')
  return bounds
}

describe('text layers', () => {
  it('draws the text inside its box, and nothing where there is no text', async () => {
    const { file, warnings } = await render(textScene({ text: 'Hello canvas' }))
    const img = await pixels(file.bytes)
    expect(img.inkIn(box, WHITE)).toBeGreaterThan(200)
    expect(img.inkIn({ x: 0, y: 100, width: 400, height: 100 }, WHITE)).toBe(0)
    // black ink, not grey smudges
    let darkest = 255
    for (let x = box.x; x < box.x + 150; x++)
      for (let y = box.y; y < box.y + 30; y++) darkest = Math.min(darkest, img.at(x, y).r)
    expect(darkest).toBeLessThan(30)
    expect(warnings).toEqual([])
  })

  it('aligns left, centre and right', async () => {
    const left = await inkBounds({ text: 'Hello', align: 'left' })
    const center = await inkBounds({ text: 'Hello', align: 'center' })
    const right = await inkBounds({ text: 'Hello', align: 'right' })
    expect(left.minX - box.x).toBeGreaterThanOrEqual(0)
    expect(left.minX - box.x).toBeLessThan(5)
    expect(Math.abs((center.minX + center.maxX) / 2 - (box.x + box.width / 2))).toBeLessThan(3)
    expect(box.x + box.width - right.maxX).toBeGreaterThanOrEqual(0)
    expect(box.x + box.width - right.maxX).toBeLessThan(5)
  })

  it('places the text at the top, middle or bottom of its box', async () => {
    const top = await inkBounds({ text: 'Hello', vertical_align: 'top' })
    const middle = await inkBounds({ text: 'Hello', vertical_align: 'middle' })
    const bottom = await inkBounds({ text: 'Hello', vertical_align: 'bottom' })
    expect(top.minY - box.y).toBeGreaterThanOrEqual(0)
    expect(top.minY - box.y).toBeLessThan(10)
    expect(Math.abs((middle.minY + middle.maxY) / 2 - (box.y + box.height / 2))).toBeLessThan(4)
    expect(box.y + box.height - bottom.maxY).toBeGreaterThanOrEqual(0)
    expect(box.y + box.height - bottom.maxY).toBeLessThan(10)
  })

  it('wraps long text onto more lines inside the box without a warning when it fits', async () => {
    const { file, warnings } = await render(
      textScene({ text: 'one two three four five six seven eight nine ten eleven', height: 120 }),
    )
    const img = await pixels(file.bytes)
    // a second line of ink below the first (24px * 1.2 line height)
    expect(img.inkIn({ x: box.x, y: box.y + 30, width: box.width, height: 28 }, WHITE)).toBeGreaterThan(100)
    expect(
      img.inkIn({ x: box.x + box.width, y: 0, width: 400 - box.x - box.width, height: 200 }, WHITE),
    ).toBe(0)
    expect(warnings).toEqual([])
  })

  it('overflow shrink: shrinks the text into the box and warns text_overflow', async () => {
    const long = 'A headline far too long for one line of this box at the size it asks for'
    const { file, warnings } = await render(
      textScene({ text: long, font_size: 40, height: 48, overflow: 'shrink' }),
    )
    expect(warnings).toHaveLength(1)
    expect(warnings[0]!.code).toBe('text_overflow')
    expect(warnings[0]!.message).toMatch(
      /^Layer title: the text did not fit its box and was shrunk to [\d.]+px$/,
    )
    const img = await pixels(file.bytes)
    expect(img.inkIn(box, WHITE)).toBeGreaterThan(300)
    // nothing spills below the box
    expect(img.inkIn({ x: 0, y: box.y + 50, width: 400, height: 130 }, WHITE)).toBe(0)
  })

  it('overflow shrink stops at min_font_size and then cuts with an ellipsis', async () => {
    const long = 'word '.repeat(200)
    const { warnings } = await render(
      textScene({ text: long, font_size: 40, min_font_size: 20, height: 30, overflow: 'shrink' }),
    )
    expect(warnings).toEqual([
      {
        code: 'text_overflow',
        message:
          'Layer title: the text did not fit its box and was shrunk to 20px and still was cut with an ellipsis',
      },
    ])
  })

  it('overflow ellipsis and clip cut the text at max_lines and warn text_overflow', async () => {
    const long = 'word '.repeat(100)
    for (const overflow of ['ellipsis', 'clip']) {
      const { file, warnings } = await render(textScene({ text: long, height: 180, max_lines: 1, overflow }))
      expect(codes(warnings)).toEqual(['text_overflow'])
      expect(warnings[0]!.message).toContain(overflow === 'clip' ? 'was cut' : 'with an ellipsis')
      const img = await pixels(file.bytes)
      // one line only: nothing on the second
      expect(img.inkIn({ x: 0, y: box.y + 32, width: 400, height: 100 }, WHITE)).toBe(0)
    }
  })

  it('falls back to DejaVu Sans with font_fallback_used when no family of the list is installed', async () => {
    const { file, warnings } = await render(
      textScene({ text: 'Fallback', font_family: 'No Such Font, Another Missing' }),
    )
    expect(warnings).toEqual([
      {
        code: 'font_fallback_used',
        message:
          'Layer title: font family "No Such Font, Another Missing" is not installed; DejaVu Sans was used',
      },
    ])
    expect((await pixels(file.bytes)).inkIn(box, WHITE)).toBeGreaterThan(200)
  })

  it('uses installed families and generic names without a warning', async () => {
    for (const font_family of ['DejaVu Serif', 'serif', 'monospace', '"Nimbus Sans", sans-serif'])
      expect((await render(textScene({ text: 'Fine', font_family }))).warnings).toEqual([])
  })

  it('draws characters the face lacks with the fallback face and says so', async () => {
    const { file, warnings } = await render(textScene({ text: '你好' }))
    expect(codes(warnings)).toEqual(['font_fallback_used'])
    expect(warnings[0]!.message).toContain('Droid Sans Fallback')
    expect((await pixels(file.bytes)).inkIn(box, WHITE)).toBeGreaterThan(100)
  })

  it('names characters no installed font has, as the Chromium outputs do, and claims no fallback for them', async () => {
    // U+E000 and U+E001 (private use) and U+FFFF (a noncharacter): no font here has them
    // (chromium's font-check.test.ts asserts that of fc-list); a lone surrogate draws nothing
    const { file, warnings } = await render(textScene({ text: 'a\ud800b \uE000\uE001 \uffff \uE000' }))
    expect(warnings).toEqual([
      {
        code: 'asset_failed',
        message:
          'Layer title: no font has a glyph for \uE000 (U+E000), \uE001 (U+E001), \uffff (U+FFFF): they show as empty boxes; choose a font_family that covers them, or ask the operator to install a font that does',
      },
    ])
    expect(file.missingGlyphs).toEqual(['\uE000', '\uE001', '\uffff'])
    // the boxes are drawn: more ink than the two letters alone
    const letters = await pixels((await render(textScene({ text: 'ab' }))).file.bytes)
    expect((await pixels(file.bytes)).inkIn(box, WHITE)).toBeGreaterThan(letters.inkIn(box, WHITE) + 50)
  })

  it('names nothing when the face or its fallback covers every character', async () => {
    const { file, warnings } = await render(textScene({ text: 'Grüße — Ελληνικά ✓ 你好' }))
    expect(codes(warnings)).toEqual(['font_fallback_used'])
    expect(file.missingGlyphs).toEqual([])
  })

  it('draws bold heavier and extra light lighter than regular', async () => {
    const ink = async (font_weight: number) =>
      (await pixels((await render(textScene({ text: 'Weight', font_weight }))).file.bytes)).inkIn(box, WHITE)
    expect(await ink(700)).toBeGreaterThan((await ink(400)) * 1.2)
    expect(await ink(200)).toBeLessThan((await ink(400)) * 0.8) // DejaVu Sans ExtraLight
  })

  it('transforms the case and spaces letters, measuring the spacing', async () => {
    const upper = (await render(textScene({ text: 'Badge new', text_transform: 'uppercase' }))).file.bytes
    const written = (await render(textScene({ text: 'BADGE NEW' }))).file.bytes
    expect(upper.equals(written)).toBe(true)

    const plain = await inkBounds({ text: 'Spaced' })
    const spaced = await inkBounds({ text: 'Spaced', letter_spacing: 10 })
    // five gaps between six letters grow by 10 px each
    expect(spaced.maxX - spaced.minX - (plain.maxX - plain.minX)).toBeGreaterThan(45)
    expect(spaced.maxX - spaced.minX - (plain.maxX - plain.minX)).toBeLessThan(55)

    // spacing counts when lines are broken: this fits one line without it, not with it
    const { warnings } = await render(textScene({ text: 'Twelve chars', letter_spacing: 30, max_lines: 1 }))
    expect(codes(warnings)).toEqual(['text_overflow'])
    expect((await render(textScene({ text: 'Twelve chars', max_lines: 1 }))).warnings).toEqual([])
  })

  it('keeps markup in the text as text', async () => {
    const { file } = await render(textScene({ text: '<svg onload="x"> & </text>' }))
    expect((await pixels(file.bytes)).inkIn(box, WHITE)).toBeGreaterThan(200)
  })
})

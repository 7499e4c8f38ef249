import { readFileSync } from 'node:fs'
import { renderAsync } from '@resvg/resvg-js'
import { describe, expect, it } from 'vitest'
import { installedFonts } from './font-catalog.ts'
import { parseFontFile } from './font-file.ts'
import { trimFont, trimmedCovers, trimmedFontFile } from './trimmed-font.ts'

const { face } = installedFonts().choose('DejaVu Sans', 400, false)

async function drawn(fontFile: string, text: string): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="80"><text x="10" y="50" font-family="DejaVu Sans" font-size="28">${text}</text></svg>`
  const image = await renderAsync(svg, {
    font: { loadSystemFonts: false, fontFiles: [fontFile] },
    background: '#fff',
  })
  return image.pixels
}

describe('trimmed fonts', () => {
  it('tells which texts the trimmed copies draw', () => {
    expect(trimmedCovers('Crème brûlée “fi” — 5 € … ©')).toBe(true)
    expect(trimmedCovers('Привет')).toBe(false)
    expect(trimmedCovers('漢字')).toBe(false)
  })

  it('keeps the face, its metrics and glyph ids in a much smaller file', () => {
    const original = readFileSync(face.file)
    const trimmed = trimFont(original) as Buffer
    expect(trimmed.length).toBeLessThan(original.length / 2)
    const copy = parseFontFile('copy.ttf', trimmed)
    expect(copy).toMatchObject({ family: face.family, weight: face.weight, italic: face.italic })
    for (const char of 'Aé€…Ж漢') {
      const cp = char.codePointAt(0) as number
      expect(copy.advance(cp)).toBe(face.advance(cp))
    }
  })

  it('draws text within its scripts exactly as the whole font does', async () => {
    const text = 'Office ﬁ fi ffl — naïve café “Ærø” … 5 €'
    const copy = trimmedFontFile(face.file)
    expect(copy).not.toBe(face.file)
    expect((await drawn(copy, text)).equals(await drawn(face.file, text))).toBe(true)
  })
})

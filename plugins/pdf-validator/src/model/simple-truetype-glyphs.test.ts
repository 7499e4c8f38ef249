import { existsSync, readFileSync } from 'node:fs'
import { PDFDocument, PDFName, PDFNumber } from '@cantoo/pdf-lib'
import { describe, expect, it } from 'vitest'
import { buildModel } from './build-model.ts'

// A simple TrueType font's glyphs are read through the embedded program's cmap, and their Unicode
// values through the encoding's glyph names when there is no ToUnicode CMap (ISO 32000-1 9.6.6.4,
// 9.10.2). The program is DejaVu Sans, as Debian installs it.

const FONT = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf'

async function pdfWith(content: string, differences?: [number, string][]): Promise<Uint8Array> {
  const doc = await PDFDocument.create()
  const ctx = doc.context
  const program = ctx.flateStream(readFileSync(FONT))
  const descriptor = ctx.obj({
    Type: 'FontDescriptor',
    FontName: 'DejaVuSans',
    Flags: 32,
    FontBBox: [0, 0, 1000, 1000],
    ItalicAngle: 0,
    Ascent: 800,
    Descent: -200,
    CapHeight: 700,
    StemV: 80,
    FontFile2: ctx.register(program),
  })
  const encoding = differences
    ? ctx.obj({
        Type: 'Encoding',
        BaseEncoding: 'WinAnsiEncoding',
        Differences: differences.flatMap(([code, name]) => [PDFNumber.of(code), PDFName.of(name)]),
      })
    : PDFName.of('WinAnsiEncoding')
  const font = ctx.register(
    ctx.obj({
      Type: 'Font',
      Subtype: 'TrueType',
      BaseFont: 'DejaVuSans',
      FirstChar: 0,
      LastChar: 255,
      Widths: new Array(256).fill(500),
      Encoding: encoding,
      FontDescriptor: ctx.register(descriptor),
    }),
  )
  const page = doc.addPage([200, 200])
  page.node.setFontDictionary(PDFName.of('F1'), font)
  const stream = ctx.stream(`BT /F1 12 Tf 10 10 Td ${content} Tj ET`)
  page.node.set(PDFName.of('Contents'), ctx.register(stream))
  return doc.save({ useObjectStreams: false })
}

const glyphs = async (bytes: Uint8Array) =>
  (await buildModel(bytes))
    .filter((o) => o.type === 'Glyph')
    .map((o) => (o.unmodelled ? 'unmodelled' : o.props))

describe.skipIf(!existsSync(FONT))('simple TrueType glyphs', () => {
  it('reads octal escapes as codes and finds each glyph through the Unicode cmap', async () => {
    expect(await glyphs(await pdfWith('(A\\102\\351)'))).toEqual([
      { name: expect.stringMatching(/^gid[1-9]/), toUnicode: 'A', renderingMode: 0 },
      { name: expect.stringMatching(/^gid[1-9]/), toUnicode: 'B', renderingMode: 0 },
      { name: expect.stringMatching(/^gid[1-9]/), toUnicode: 'é', renderingMode: 0 },
    ])
  })

  it('takes Differences names through the Adobe Glyph List, and a missing glyph is .notdef', async () => {
    const props = await glyphs(
      await pdfWith('(AB)', [
        [65, 'Euro'],
        [66, 'uniE000'],
      ]),
    )
    expect(props).toEqual([
      { name: expect.stringMatching(/^gid[1-9]/), toUnicode: '€', renderingMode: 0 },
      // DejaVu Sans has no private-use glyph
      { name: '.notdef', toUnicode: '\uE000', renderingMode: 0 },
    ])
  })
})

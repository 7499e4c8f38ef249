import { tmpdir } from 'node:os'
import { PDFDict, PDFDocument, PDFName, PDFString } from '@cantoo/pdf-lib'
import { afterAll, describe, expect, it } from 'vitest'
import { stopPdfWorkers } from '../pdf-workers.ts'
import { pdfStructure } from './pdf-structure.fixture.ts'
import { pdfaProcessor } from './pdfa-processor.ts'
import { pdfaRuleBreaks } from './pdfa-rules.fixture.ts'

// Chromium prints none of this, but a PDF reaching the step may (a future engine, a merged file):
// each thing ISO 19005-2 forbids is removed or set right, or named in a finding.

afterAll(() => stopPdfWorkers())

async function forbiddenThings(): Promise<Buffer> {
  const doc = await PDFDocument.create()
  doc.setTitle('Odd file')
  const page = doc.addPage([300, 300])
  const { context } = doc
  const script = context.obj({ S: 'JavaScript', JS: PDFString.of('app.alert(1)') })
  const chain = context.register(context.obj({ S: 'URI', URI: PDFString.of('https://example.com') }))
  const nextPage = context.register(context.obj({ S: 'Named', N: 'NextPage', Next: chain }))
  context.lookup(chain, PDFDict).set(PDFName.of('Next'), context.obj([script, nextPage]))
  const appearance = context.register(
    context.stream('', { Type: 'XObject', Subtype: 'Form', BBox: [0, 0, 10, 10] }),
  )
  const annots = [
    // hidden and not printed, with a script and a rollover appearance
    context.obj({
      Type: 'Annot',
      Subtype: 'Square',
      Rect: [0, 0, 10, 10],
      F: 2,
      A: script,
      AP: { N: appearance, R: appearance },
    }),
    // no flags at all; a chain of actions with a script in it and a loop back to its start
    context.obj({ Type: 'Annot', Subtype: 'Link', Rect: [20, 20, 30, 30], A: chain }),
    // a media annotation, not allowed in PDF/A at all
    context.obj({ Type: 'Annot', Subtype: 'Sound', Rect: [40, 40, 50, 50] }),
    // a form field drawn by nobody
    context.obj({ Type: 'Annot', Subtype: 'Widget', FT: 'Tx', Rect: [60, 60, 160, 80], F: 4 }),
  ].map((a) => context.register(a))
  page.node.set(PDFName.of('Annots'), context.obj(annots))
  page.node.set(PDFName.of('AA'), context.obj({ O: script }))
  doc.catalog.set(PDFName.of('AA'), context.obj({ WC: script }))
  doc.catalog.set(PDFName.of('OpenAction'), script)
  doc.catalog.set(PDFName.of('NeedsRendering'), context.obj(true))
  context.register(
    context.stream(new Uint8Array(3), {
      Type: 'XObject',
      Subtype: 'Image',
      Width: 1,
      Height: 1,
      BitsPerComponent: 8,
      ColorSpace: 'DeviceRGB',
      Interpolate: true,
    }),
  )
  context.register(context.obj({ Type: 'FontDescriptor', FontName: 'ABCDEF+Odd', CIDSet: context.obj([]) }))
  return Buffer.from(await doc.save())
}

describe('PDF/A repairs of what Chromium does not print', () => {
  it('removes scripts, media annotations and screen-only flags; names the field without appearance', async () => {
    const input = await forbiddenThings()
    expect(pdfaRuleBreaks(pdfStructure(input), 2).length).toBeGreaterThan(8)
    const result = await pdfaProcessor.run(
      input,
      { pdfa: '2b' },
      {
        signal: AbortSignal.timeout(60_000),
        log() {},
        scratchDir: async () => tmpdir(),
        test: false,
      },
    )
    const pdf = pdfStructure(result.bytes)
    expect(pdfaRuleBreaks(pdf, 2)).toEqual([expect.stringMatching(/^6\.3\.3-1: .* has no \/AP$/)])
    expect(result.findings).toEqual([
      expect.objectContaining({ ruleId: '6.3.3-1', clause: '6.3.3', page: 1, severity: 'error' }),
    ])
    const annots = [...pdf.dicts.values()].filter((d) => d['/Type'] === '/Annot')
    expect(annots.map((a) => a['/Subtype']).sort()).toEqual(['/Link', '/Square', '/Widget'])
    const square = annots.find((a) => a['/Subtype'] === '/Square')!
    expect(square['/F']).toBe(4)
    expect(square['/A']).toBeUndefined()
    expect(Object.keys(pdf.resolve(square['/AP']) as object)).toEqual(['/N'])
    // the chain keeps the link and the page turn; the script and the loop back are gone
    const link = annots.find((a) => a['/Subtype'] === '/Link')!
    const uri = pdf.resolve(link['/A']) as Record<string, unknown>
    const turn = pdf.resolve(uri['/Next'] as string) as Record<string, unknown>
    expect(turn).toMatchObject({ '/S': '/Named', '/N': '/NextPage' })
    expect(turn['/Next']).toBeUndefined()
    expect(pdf.catalog['/OpenAction']).toBeUndefined()
    expect(pdf.catalog['/AA']).toBeUndefined()
  }, 120_000)

  it('declares a file attached to a page annotation under PDF/A-3b', async () => {
    const doc = await PDFDocument.create()
    const page = doc.addPage([300, 300])
    const { context } = doc
    const file = context.register(context.stream('a,b\n', { Type: 'EmbeddedFile' }))
    const spec = context.obj({ Type: 'Filespec', F: PDFString.of('pin.csv'), EF: { F: file } })
    const appearance = context.register(
      context.stream('', { Type: 'XObject', Subtype: 'Form', BBox: [0, 0, 10, 10] }),
    )
    const pin = context.obj({
      Type: 'Annot',
      Subtype: 'FileAttachment',
      Rect: [0, 0, 10, 10],
      FS: spec,
      AP: { N: appearance },
    })
    page.node.set(PDFName.of('Annots'), context.obj([context.register(pin)]))
    const input = Buffer.from(await doc.save())
    const result = await pdfaProcessor.run(
      input,
      { pdfa: '3b' },
      {
        signal: AbortSignal.timeout(60_000),
        log() {},
        scratchDir: async () => tmpdir(),
        test: false,
      },
    )
    const pdf = pdfStructure(result.bytes)
    const annot = [...pdf.dicts.values()].find((d) => d['/Subtype'] === '/FileAttachment')!
    const specRef = annot['/FS'] as string
    expect(pdf.resolve(pdf.catalog['/AF'])).toEqual([specRef])
    expect(pdf.resolve(specRef)).toMatchObject({ '/AFRelationship': '/Unspecified', '/UF': 'u:pin.csv' })
    const stream = pdf.resolve(file.toString()) as Record<string, unknown>
    expect(stream['/Subtype']).toBe('/application/octet-stream')
    expect(pdf.resolve(stream['/Params'] as string)).toHaveProperty('/ModDate')
    expect(pdfaRuleBreaks(pdf, 3)).toEqual([])
  }, 120_000)
})

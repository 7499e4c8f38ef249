import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { runPdfPostProcessorContract } from '@docsvc/core/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { attachTool } from '../attach-tool.ts'
import { stopPdfWorkers } from '../pdf-workers.ts'
import {
  type ChromiumPrinter,
  chromiumPrinter,
  EFFECTS_HTML,
  type PrintOptions,
  RICH_HTML,
} from './chromium-print.fixture.ts'
import { pdfStructure } from './pdf-structure.fixture.ts'
import { pdfaProcessor } from './pdfa-processor.ts'
import { embeddedFileSpecs, pdfaRuleBreaks } from './pdfa-rules.fixture.ts'

// The PDF/A step on what Chromium really prints (CJK, emoji, SVG, transparency, form inputs,
// links, tables, images), checked with qpdf and poppler like a reader, and against the veraPDF
// rules that touch such a file (pdfa-rules.fixture.ts).

let printer: ChromiumPrinter | undefined
const printed = new Map<string, Promise<Buffer>>()

/** One print per document and options, shared by the suites below. */
function print(html: string, options: PrintOptions = {}): Promise<Buffer> {
  const key = `${JSON.stringify(options)}:${html}`
  if (!printed.has(key)) {
    printed.set(
      key,
      (async () => {
        printer ??= await chromiumPrinter()
        return printer.print(html, options)
      })(),
    )
  }
  return printed.get(key)!
}

afterAll(async () => {
  await printer?.close()
  await stopPdfWorkers()
})

const ctx = () => ({
  signal: AbortSignal.timeout(120_000),
  log() {},
  scratchDir: async () => tmpdir(),
  test: false,
})

function pdftotext(bytes: Buffer): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'docsvc-pdfa-text-'))
  try {
    writeFileSync(path.join(dir, 'in.pdf'), bytes)
    return execFileSync('pdftotext', ['-enc', 'UTF-8', path.join(dir, 'in.pdf'), '-']).toString('utf8')
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** The attach step, as the chain runs it before the archive phase. */
async function withAttachments(pdf: Buffer): Promise<Buffer> {
  const out = await attachTool.run(
    [{ bytes: Buffer.from(pdf), format: 'pdf' } as never],
    {
      files: [
        { name: 'data.csv', bytes: Buffer.from('a,b\n1,2\n'), mime_type: 'text/csv', relationship: 'Data' },
        { name: 'notes.txt', bytes: Buffer.from('notes') },
      ],
    },
    { signal: AbortSignal.timeout(60_000), log() {} } as never,
  )
  const [file] = out.files
  if (!file || !('bytes' in file)) throw new Error('the attach step wrote no PDF')
  return file.bytes
}

runPdfPostProcessorContract('pdfa (PDF/A-2b on a Chromium print)', async () => ({
  processor: pdfaProcessor,
  options: { pdfa: '2b' },
  pdf: await print(RICH_HTML),
  async expectWorkDone(output) {
    expect(pdfaRuleBreaks(pdfStructure(output), 2)).toEqual([])
  },
}))

runPdfPostProcessorContract('pdfa (PDF/A-3b with attachments)', async () => ({
  processor: pdfaProcessor,
  options: { pdfa: '3b' },
  pdf: await withAttachments(await print(RICH_HTML)),
  async expectWorkDone(output) {
    expect(pdfaRuleBreaks(pdfStructure(output), 3)).toEqual([])
  },
}))

describe('PDF/A-2b of a Chromium print', () => {
  let input: Buffer
  let output: Buffer
  beforeAll(async () => {
    input = await print(RICH_HTML)
    output = (await pdfaProcessor.run(input, { pdfa: '2b' }, ctx())).bytes
  }, 180_000)

  it('starts from a print that breaks the rules the step is for (the checks can fail)', () => {
    const breaks = pdfaRuleBreaks(pdfStructure(input), 2)
    expect(breaks).toEqual(
      expect.arrayContaining([
        '6.1.3-1: no trailer /ID of two strings',
        '6.2.4.3-2: no output intent (DeviceRGB is used)',
        '6.6.2.1-1: no metadata stream',
      ]),
    )
  })

  it('keeps the text a reader extracts, CJK included', () => {
    const text = pdftotext(output)
    expect(text).toContain('Quarterly report')
    expect(text).toContain('日本語のテキスト')
    expect(text).toEqual(pdftotext(input))
  })

  it('has an sRGB output intent with a v2 ICC monitor profile', () => {
    const pdf = pdfStructure(output)
    const [intentRef] = pdf.resolve(pdf.catalog['/OutputIntents']) as string[]
    const intent = pdf.resolve(intentRef) as Record<string, unknown>
    expect(intent).toMatchObject({ '/S': '/GTS_PDFA1', '/OutputConditionIdentifier': 'u:sRGB IEC61966-2.1' })
    const icc = pdf.streamBytes(intent['/DestOutputProfile'] as string)
    expect(icc.subarray(12, 20).toString('latin1')).toBe('mntrRGB ')
    expect(icc[8]).toBe(2)
    expect(icc.readUInt32BE(0)).toBe(icc.length)
  })

  it('says PDF/A-2B in its XMP, in step with the Info dictionary pdfinfo shows', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'docsvc-pdfa-info-'))
    try {
      writeFileSync(path.join(dir, 'out.pdf'), output)
      const info = execFileSync('pdfinfo', [path.join(dir, 'out.pdf')]).toString()
      const meta = execFileSync('pdfinfo', ['-meta', path.join(dir, 'out.pdf')]).toString()
      expect(info).toMatch(/Title:\s+Archive sample/)
      expect(info).toMatch(/Metadata Stream:\s+yes/)
      expect(meta).toContain('<pdfaid:part>2</pdfaid:part>')
      expect(meta).toContain('<pdfaid:conformance>B</pdfaid:conformance>')
      expect(meta).toContain('<rdf:li xml:lang="x-default">Archive sample</rdf:li>')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('gives the file an /ID, keeps its links printable, and breaks none of the checked rules', () => {
    const pdf = pdfStructure(output)
    const [first, second] = pdf.trailer['/ID'] as string[]
    expect(first).toMatch(/^b:[0-9a-f]{32}$/)
    expect(second).toBe(first)
    const links = [...pdf.dicts.values()].filter((d) => d['/Subtype'] === '/Link')
    expect(links.length).toBeGreaterThanOrEqual(2)
    for (const link of links) expect(link['/F']).toBe(4)
    expect(pdfaRuleBreaks(pdf, 2)).toEqual([])
  })

  it('keeps a tagged print tagged', async () => {
    const tagged = (await pdfaProcessor.run(await print(RICH_HTML, { tagged: true }), { pdfa: '2b' }, ctx()))
      .bytes
    const pdf = pdfStructure(tagged)
    expect(pdf.catalog['/StructTreeRoot']).toBeDefined()
    expect(pdf.catalog['/MarkInfo']).toMatchObject({ '/Marked': true })
    expect(pdf.catalog['/Lang']).toBe('u:en')
    expect(pdfaRuleBreaks(pdf, 2)).toEqual([])
  }, 180_000)
})

describe('PDF/A-2b of graphics effects under a header, footer and outline', () => {
  it('keeps the outline and breaks none of the checked rules', async () => {
    const input = await print(EFFECTS_HTML, {
      tagged: true,
      outline: true,
      displayHeaderFooter: true,
      headerTemplate: '<div style="font-size:10px">Kopf <span class="title"></span></div>',
      footerTemplate: '<div style="font-size:10px;opacity:.5">Seite <span class="pageNumber"></span></div>',
    })
    const output = (await pdfaProcessor.run(input, { pdfa: '2b' }, ctx())).bytes
    const pdf = pdfStructure(output)
    expect(pdf.catalog['/Outlines']).toBeDefined()
    expect(pdftotext(output)).toContain('Seite 1')
    expect(pdfaRuleBreaks(pdf, 2)).toEqual([])
  }, 180_000)
})

describe('PDF/A-3b with attachments', () => {
  it('declares each file the attach step embedded with its relationship, MIME type and date, in /AF', async () => {
    const input = await withAttachments(await print(RICH_HTML))
    const pdf = pdfStructure((await pdfaProcessor.run(input, { pdfa: '3b' }, ctx())).bytes)
    const specs = embeddedFileSpecs(pdf)
    const byName = new Map(specs.map(({ spec }) => [String(spec['/UF']).replace(/^u:/, ''), spec]))
    expect(byName.get('data.csv')?.['/AFRelationship']).toBe('/Data')
    expect(byName.get('notes.txt')?.['/AFRelationship']).toBe('/Unspecified')
    const mimeOf = (name: string) => {
      const ef = pdf.resolve(byName.get(name)?.['/EF']) as Record<string, string>
      return (pdf.resolve(ef['/F']) as Record<string, unknown>)['/Subtype']
    }
    expect(mimeOf('data.csv')).toBe('/text/csv')
    expect(mimeOf('notes.txt')).toBe('/application/octet-stream')
    expect(pdf.resolve(pdf.catalog['/AF'])).toEqual(expect.arrayContaining(specs.map((s) => s.ref)))
    expect(pdfaRuleBreaks(pdf, 3)).toEqual([])
  }, 180_000)
})

describe('PDF/A-2b with an embedded file', () => {
  it('names the file in a 6.8-5 finding: PDF/A-2 embeds only PDF/A files, which nothing vouches for', async () => {
    const result = await pdfaProcessor.run(
      await withAttachments(await print(RICH_HTML)),
      { pdfa: '2b' },
      ctx(),
    )
    expect(result.findings).toEqual([
      expect.objectContaining({ ruleId: '6.8-5', clause: '6.8', severity: 'error' }),
      expect.objectContaining({ ruleId: '6.8-5', clause: '6.8', severity: 'error' }),
    ])
  }, 180_000)
})

import { execFileSync } from 'node:child_process'
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFString, StandardFonts } from '@cantoo/pdf-lib'
import type { Finding, PdfPostProcessContext } from '@docsvc/core/sdk'
import {
  pdfFonts,
  pdfText,
  pdfXmp,
  qpdfCheck,
  qpdfReport,
  qpdfRewrite,
  runPdfPostProcessorContract,
} from '@docsvc/core/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BrowserPool } from '../../plugins/chromium/src/browser-pool.ts'
import { outputContext, testPool } from '../../plugins/chromium/src/chromium-test-support.ts'
import { type PdfOptions, pdfPlan } from '../../plugins/chromium/src/pdf-options.ts'
import { PdfOutput } from '../../plugins/chromium/src/pdf-output.ts'
import { pdfUaProcessor } from '../../plugins/pdf-tools/src/index.ts'
import { protectTool } from '../../plugins/pdf-tools/src/protect-tool.ts'
import {
  flatTypes,
  parentTreeProblems,
  qpdfObjects,
  qpdfText,
  structureTree,
  unmarkedPainting,
} from './pdfua-support.ts'

// Issue 17 item 2 with real Chromium: the PDF/UA-1 step on tagged prints, read back with qpdf
// (catalog, XMP, annotations, structure tree, marked content) and poppler, as a checker sees it.

let pool: BrowserPool
let output: PdfOutput

beforeAll(async () => {
  pool = testPool([])
  await pool.start()
  output = new PdfOutput(pool)
}, 60_000)

afterAll(async () => {
  await pool?.stop()
})

const DOT =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='
const pageBreak = '<div style="break-before: page"></div>'

/** a document with what PDF/UA cares about: links, a table, images, SVG, CJK, decoration */
const RICH = `<!doctype html><html lang="de"><head><title>Quartalsbericht</title>
<style>.band { background: linear-gradient(#cde, #fff); height: 24px }</style></head><body>
<h1>Bericht</h1>
<p>Siehe <a href="https://example.com/report">den Bericht</a> und <a href="#teil2">Teil 2</a>.</p>
<div class="band"></div>
<img alt="Umsatzkurve" src="${DOT}" width="40" height="40">
<img alt="" src="${DOT}" width="40" height="40">
<div aria-hidden="true">Dekoration</div>
<svg width="40" height="40" role="presentation" aria-hidden="true"><circle cx="20" cy="20" r="15" fill="red"/></svg>
<table><tr><th>Region</th><th>Umsatz</th></tr><tr><td>Nord</td><td>12</td></tr></table>
<p lang="ja">日本語のテキスト</p>
${pageBreak}<h2 id="teil2">Teil 2</h2><p>Bild ohne Beschreibung:</p>
<img src="${DOT}" width="40" height="40">
</body></html>`

const HEADER_FOOTER: PdfOptions = {
  header_html: '<div style="font-size:10px">Kopfzeile</div>',
  footer_html: '<div style="font-size:10px">Seite <span class="pageNumber"></span></div>',
  margin: { top: '2cm', bottom: '2cm' },
}

const ctx = (): PdfPostProcessContext => ({
  signal: AbortSignal.timeout(60_000),
  log() {},
  scratchDir: async () => '/tmp',
  test: false,
})

async function print(html: string, options: PdfOptions = {}): Promise<Buffer> {
  const file = await output.render({ kind: 'html', html }, { pdfua: true, ...options }, outputContext())
  return file.bytes
}

async function ua(pdf: Buffer, options: Record<string, unknown> = {}) {
  const result = await pdfUaProcessor.run(pdf, { pdfua: true, ...options }, ctx())
  return { bytes: result.bytes, findings: result.findings ?? [] }
}

const rules = (findings: Finding[]) => findings.map((f) => f.ruleId)

runPdfPostProcessorContract('pdfua on a Chromium-printed tagged PDF', async () => {
  const pool = testPool([])
  await pool.start()
  try {
    const pdf = (
      await new PdfOutput(pool).render({ kind: 'html', html: RICH }, { pdfua: true }, outputContext())
    ).bytes
    return {
      processor: pdfUaProcessor,
      options: { pdfua: true },
      pdf,
      async expectWorkDone(out) {
        expect(pdfXmp(out)).toContain('<pdfuaid:part>1</pdfuaid:part>')
        expect(unmarkedPainting(out)).toEqual([])
        expect(pdfText(out)).toContain('日本語のテキスト')
      },
    }
  } finally {
    await pool.stop()
  }
})

describe('Chromium prints what PDF/UA builds on', () => {
  it('prints tagged with pdfua: true alone, and refuses pdfua with tagged: false at the field', async () => {
    const pdf = await print('<title>T</title><h1>Hello</h1>')
    expect(qpdfObjects(pdf).catalog['/StructTreeRoot']).toBeDefined()
    expect(() => pdfPlan({ pdfua: true, tagged: false }, () => {})).toThrow(
      expect.objectContaining({ code: 'validation_error' }),
    )
  }, 60_000)
})

describe('the undetermined language Chromium is given', () => {
  it('does not change how a document without lang prints: the same fonts as untagged', async () => {
    const html = '<p>直骨 漢字 한국어 Ünïcödé</p>'
    const fonts = async (options: PdfOptions) =>
      pdfFonts((await output.render({ kind: 'html', html }, options, outputContext())).bytes).map(
        (f) => f.type,
      )
    expect(await fonts({ pdfua: true })).toEqual(await fonts({}))
  }, 60_000)
})

describe('the PDF/UA-1 step on a Chromium print', () => {
  let out: { bytes: Buffer; findings: Finding[] }
  let before: Buffer

  beforeAll(async () => {
    before = await print(RICH, HEADER_FOOTER)
    out = await ua(before)
  }, 120_000)

  it('claims PDF/UA-1 in XMP with the title, shows the title, and keeps the language', () => {
    const xmp = pdfXmp(out.bytes)
    expect(xmp).toContain('<pdfuaid:part>1</pdfuaid:part>')
    expect(xmp).toMatch(/<dc:title><rdf:Alt><rdf:li xml:lang="x-default">Quartalsbericht<\/rdf:li>/)
    const q = qpdfObjects(out.bytes)
    expect(qpdfText(q.info['/Title'])).toBe('Quartalsbericht')
    expect(qpdfText(q.catalog['/Lang'])).toBe('de')
    expect(q.get(q.catalog['/ViewerPreferences'])).toMatchObject({ '/DisplayDocTitle': true })
    expect(q.get(q.catalog['/MarkInfo'])).toMatchObject({ '/Marked': true })
    expect(qpdfCheck(out.bytes).ok).toBe(true)
  })

  it('describes every link in /Contents, keeps it in the structure tree, and sets /Tabs /S', () => {
    const q = qpdfObjects(out.bytes)
    const links = q.pages.flatMap((page) => {
      const dict = q.get(page) as Record<string, unknown>
      const annots = (q.get(dict['/Annots'] as string) ?? []) as string[]
      if (annots.length > 0) expect(dict['/Tabs']).toBe('/S')
      return annots.map((a) => q.get(a) as Record<string, unknown>)
    })
    // what the link says, read from its marked content through the font's ToUnicode CMap
    expect(links.map((l) => qpdfText(l['/Contents'] as string))).toEqual(['den Bericht', 'Teil 2'])
    for (const link of links) expect(typeof link['/StructParent']).toBe('number')
    expect(flatTypes(structureTree(out.bytes)).filter((t) => t === 'Link')).toHaveLength(2)
  })

  it('marks header, footer, backgrounds and decoration as artifacts, so no content is unmarked', () => {
    // the check can fail: Chromium's own print leaves them outside every marked sequence
    expect(unmarkedPainting(before).length).toBeGreaterThan(0)
    expect(unmarkedPainting(out.bytes)).toEqual([])
    // what a reader extracts is unchanged, header and footer included
    const text = pdfText(out.bytes)
    for (const words of ['Kopfzeile', 'Seite 2', 'Bericht', 'Nord', '日本語のテキスト', 'Dekoration'])
      expect(text).toContain(words)
  })

  it('keeps the structure tree Chromium made: headings, table, figures with their alt text', () => {
    const types = flatTypes(structureTree(out.bytes))
    for (const type of ['Document', 'H1', 'H2', 'Table', 'TR', 'TH', 'TD', 'Figure'])
      expect(types).toContain(type)
    const figures = JSON.stringify(structureTree(out.bytes))
    expect(figures).toContain('"alt":"Umsatzkurve"')
  })

  it('does the same on a file an earlier step saved with object streams and split content', async () => {
    // each page's content becomes an array of streams, the objects go into object streams
    const doc = await PDFDocument.load(before, { updateMetadata: false })
    for (const page of doc.getPages()) {
      const first = doc.context.register(doc.context.flateStream('q Q\n'))
      page.node.set(PDFName.of('Contents'), doc.context.obj([first, page.node.get(PDFName.of('Contents'))!]))
    }
    const packed = qpdfRewrite(Buffer.from(await doc.save({ useObjectStreams: true })), [
      '--object-streams=generate',
    ])
    expect(qpdfReport(packed, ['--show-xref'])).toMatch(/compressed; stream = /)
    const again = await ua(packed)
    // the same findings (the objects are numbered anew)
    const seen = (findings: Finding[]) => findings.map((f) => [f.ruleId, f.page])
    expect(seen(again.findings)).toEqual(seen(out.findings))
    expect(unmarkedPainting(again.bytes)).toEqual([])
    expect(pdfXmp(again.bytes)).toContain('<pdfuaid:part>1</pdfuaid:part>')
    expect(qpdfCheck(again.bytes).ok).toBe(true)
  })

  it('reports the image without alt text with its page, and nothing else', () => {
    expect(out.findings).toEqual([
      expect.objectContaining({ ruleId: '7.3-1', clause: '7.3', severity: 'error', page: 2 }),
    ])
  })
})

describe('links outside the structure tree', () => {
  it('get a Link element with an object reference, and the parent tree stays consistent', async () => {
    const printed = await print(
      '<html lang="en"><title>L</title><p><a href="https://example.com/z">zed</a></p></html>',
    )
    const doc = await PDFDocument.load(printed, { updateMetadata: false })
    const annots = doc.getPages()[0]!.node.lookup(PDFName.of('Annots'), PDFArray)
    // as another producer might leave it: the annotation in no element
    doc.context.lookup(annots.get(0), PDFDict).delete(PDFName.of('StructParent'))
    const untagged = Buffer.from(await doc.save())
    expect(parentTreeProblems(untagged)).toEqual([])
    const { bytes, findings } = await ua(untagged)
    expect(findings).toEqual([])
    expect(parentTreeProblems(bytes)).toEqual([])
    expect(flatTypes(structureTree(bytes)).filter((t) => t === 'Link')).toHaveLength(1)
    const q = qpdfObjects(bytes)
    const page = q.get(q.pages[0]) as Record<string, string>
    const annot = q.get((q.get(page['/Annots']) as string[])[0]) as Record<string, unknown>
    expect(typeof annot['/StructParent']).toBe('number')

    // an annotation no element points at gets a Link element of its own
    const added = await PDFDocument.load(printed, { updateMetadata: false })
    const extra = added.context.register(
      added.context.obj({
        Type: 'Annot',
        Subtype: 'Link',
        Rect: [10, 10, 60, 30],
        A: { S: 'URI', URI: PDFString.of('https://example.com/extra') },
      }),
    )
    added.getPages()[0]!.node.lookup(PDFName.of('Annots'), PDFArray).push(extra)
    const more = await ua(Buffer.from(await added.save()))
    expect(parentTreeProblems(more.bytes)).toEqual([])
    expect(flatTypes(structureTree(more.bytes)).filter((t) => t === 'Link')).toHaveLength(2)
  }, 60_000)
})

describe('links without words', () => {
  it('are described by where they go: the URI, or the page a link inside the document opens', async () => {
    const html = `<html lang="en"><title>Icons</title><a href="https://example.com/icon"><img alt="" src="${DOT}" width="20" height="20"></a>
      <a href="#end"><img alt="" src="${DOT}" width="20" height="20"></a>${pageBreak}<p id="end">End</p></html>`
    const { bytes } = await ua(await print(html))
    const q = qpdfObjects(bytes)
    const page = q.get(q.pages[0]) as Record<string, string>
    const annots = (q.get(page['/Annots']) ?? []) as string[]
    const contents = annots.map((a) => qpdfText((q.get(a) as Record<string, string>)['/Contents']))
    // (Chromium may give one link several annotations, one per box it covers)
    expect([...new Set(contents)]).toEqual(['https://example.com/icon', 'Go to page 2'])
  }, 60_000)
})

describe('what only the author can give', () => {
  it('reports a document without a title instead of titling it with its address', async () => {
    const untitled = await ua(await print('<html lang="en"><p>No title here</p></html>'))
    expect(rules(untitled.findings)).toEqual(['7.1-9'])
    expect(pdfXmp(untitled.bytes)).not.toContain('dc:title')
    expect(qpdfObjects(untitled.bytes).info['/Title']).toBeUndefined()
    const titled = await ua(await print('<html lang="en"><p>No title here</p></html>'), {
      metadata: { title: 'Given title' },
    })
    expect(titled.findings).toEqual([])
    expect(pdfXmp(titled.bytes)).toContain('Given title')
  }, 60_000)

  it('reports a PDF without a language or a structure tree, and takes pdf.locale as the language', async () => {
    const doc = await PDFDocument.create()
    doc.addPage().drawText('plain', { font: await doc.embedFont(StandardFonts.Helvetica) })
    doc.setTitle('Plain')
    const plain = Buffer.from(await doc.save())
    const bare = await ua(plain)
    expect(rules(bare.findings).sort()).toEqual(['7.1-11', '7.2-34'])
    const withLocale = await ua(plain, { locale: 'fr-FR' })
    expect(rules(withLocale.findings)).toEqual(['7.1-11'])
    expect(qpdfText(qpdfObjects(withLocale.bytes).catalog['/Lang'])).toBe('fr-FR')
  })
})

describe('the document language', () => {
  it('is a finding when the document declares none, not the browser default en-US', async () => {
    const undeclared = await print('<title>T</title><p>Kein lang</p>')
    const bare = await ua(undeclared)
    expect(rules(bare.findings)).toEqual(['7.2-34'])
    expect(qpdfObjects(bare.bytes).catalog['/Lang']).toBeUndefined()
    // pdf.metadata.lang names it after the fact, for the content under the Document element too
    const named = await ua(undeclared, { metadata: { lang: 'de' } })
    expect(named.findings).toEqual([])
    expect(qpdfText(qpdfObjects(named.bytes).catalog['/Lang'])).toBe('de')
    const q = qpdfObjects(named.bytes)
    const root = q.get(q.catalog['/StructTreeRoot']) as Record<string, string>
    const top = q.get(root['/K']) as Record<string, unknown>
    expect(top['/S']).toBe('/Document')
    expect(top['/Lang']).toBeUndefined()
    // as printed, the Chromium plugin declared the language undetermined
    const printed = qpdfObjects(undeclared)
    const printedRoot = printed.get(printed.catalog['/StructTreeRoot']) as Record<string, string>
    expect(qpdfText((printed.get(printedRoot['/K']) as Record<string, string>)['/Lang'])).toBe('und')
  }, 60_000)

  it('is pdf.locale when the document declares none', async () => {
    const printed = await print('<title>T</title><p>Texte</p>', { locale: 'fr-FR' })
    expect(qpdfText(qpdfObjects(printed).catalog['/Lang'])).toBe('und')
    const out = await ua(printed, { locale: 'fr-FR' })
    expect(out.findings).toEqual([])
    expect(qpdfText(qpdfObjects(out.bytes).catalog['/Lang'])).toBe('fr-FR')
  }, 60_000)
})

describe('with pdf.protect', () => {
  it('keeps text extraction for accessibility allowed when copying is denied', async () => {
    const { bytes } = await ua(await print('<title>Secret</title><html lang="en"><p>Protected</p></html>'))
    const out = await protectTool.run(
      [{ bytes, name: 'document.pdf' }],
      { owner_password: 'owner', permissions: { copy: false } },
      { signal: AbortSignal.timeout(60_000), log() {}, scratchDir: async () => '/tmp' },
    )
    const file = out.files[0]!
    const protectedBytes = 'bytes' in file ? file.bytes : Buffer.alloc(0)
    const report = qpdfReport(protectedBytes, ['--show-encryption', '--password=owner'])
    expect(report).toContain('extract for accessibility: allowed')
    expect(report).toContain('extract for any purpose: not allowed')
    // PDF/UA-1 7.16: bit 10 (512) of /P
    const p = Number(/P = (-?\d+)/.exec(report)?.[1])
    expect(p & 512).toBe(512)
  }, 60_000)
})

describe('tagged without pdfua', () => {
  it('makes the same fixes without claiming PDF/UA', async () => {
    const file = await output.render(
      { kind: 'html', html: RICH },
      { tagged: true, ...HEADER_FOOTER },
      outputContext(),
    )
    const out = await pdfUaProcessor.run(file.bytes, { tagged: true }, ctx())
    expect(unmarkedPainting(out.bytes)).toEqual([])
    expect(pdfXmp(out.bytes)).not.toContain('pdfuaid:part')
    const untouched = await pdfUaProcessor.run(file.bytes, {}, ctx())
    expect(untouched.bytes.equals(file.bytes)).toBe(true)
    expect(execFileSync('pdfinfo', ['-'], { input: out.bytes, encoding: 'utf8' })).toMatch(/Tagged:\s+yes/)
  }, 60_000)
})

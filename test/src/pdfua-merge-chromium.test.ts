import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib'
import { pdfText, qpdfCheck, qpdfMerge } from '@docsvc/core/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BrowserPool } from '../../plugins/chromium/src/browser-pool.ts'
import { outputContext, testPool } from '../../plugins/chromium/src/chromium-test-support.ts'
import { PdfOutput } from '../../plugins/chromium/src/pdf-output.ts'
import { pdfUaProcessor } from '../../plugins/pdf-tools/src/index.ts'
import { mergeTool } from '../../plugins/pdf-tools/src/merge-tool.ts'
import type { PdfToolContext } from '../../plugins/pdf-tools/src/tool-types.ts'
import {
  elementPages,
  flatTypes,
  parentTreeProblems,
  qpdfObjects,
  qpdfText,
  structureTree,
} from './pdfua-support.ts'

// Issue 17 item 5: merging Chromium's tagged PDFs keeps one valid structure tree (decision 0104),
// checked with qpdf's JSON and poppler: both documents' headings, tables and links in the tree,
// the parent tree pointing each page and annotation at its own elements.

let pool: BrowserPool
let first: Buffer
let second: Buffer

const pageBreak = '<div style="break-before: page"></div>'

beforeAll(async () => {
  pool = testPool([])
  await pool.start()
  const output = new PdfOutput(pool)
  const print = async (html: string) =>
    (await output.render({ kind: 'html', html }, { pdfua: true }, outputContext())).bytes
  first = await print(
    `<html lang="de"><title>Erstes</title><h1>Erste Überschrift</h1><p>Text eins <a href="https://example.com/a">Link A</a></p>
    <table><tr><th>K</th></tr><tr><td>V</td></tr></table>${pageBreak}<h2>Zweite Seite</h2><p>Mehr</p></html>`,
  )
  second = await print(
    `<html lang="en"><title>Second</title><h1>Second heading</h1><p>Text two <a href="https://example.com/b">Link B</a></p>
    <table><tr><th>K2</th></tr><tr><td>V2</td></tr></table><img alt="A dot" src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==" width="20" height="20"></html>`,
  )
}, 60_000)

afterAll(async () => {
  await pool?.stop()
})

const ctx = (): PdfToolContext => ({
  signal: AbortSignal.timeout(60_000),
  log() {},
  scratchDir: async () => '/tmp',
})

async function merge(bookmarks?: string): Promise<Buffer> {
  const out = await mergeTool.run(
    [
      { bytes: first, name: 'first.pdf' },
      { bytes: second, name: 'second.pdf' },
    ],
    bookmarks ? { bookmarks } : {},
    ctx(),
  )
  const file = out.files[0]!
  return 'bytes' in file ? file.bytes : Buffer.alloc(0)
}

describe('merging tagged PDFs', () => {
  it('drops the structure trees with qpdf alone: the loss this step repairs', () => {
    const plain = qpdfMerge([first, second])
    expect(qpdfObjects(plain).catalog['/StructTreeRoot']).toBeUndefined()
  })

  it('keeps one structure tree with both documents, their headings on their own pages', async () => {
    const merged = await merge()
    expect(qpdfCheck(merged).ok).toBe(true)
    const text = pdfText(merged)
    for (const words of ['Erste Überschrift', 'Zweite Seite', 'Second heading', 'Text two'])
      expect(text).toContain(words)
    const tree = structureTree(merged)
    expect(tree.map((n) => n.type)).toEqual(['Document'])
    expect(tree[0]!.kids.map((n) => n.type)).toEqual(['Part', 'Part'])
    // the first document's H1 is on page 1 and its H2 on page 2; the second's H1 on page 3
    expect(elementPages(merged, 'H1')).toEqual([1, 3])
    expect(elementPages(merged, 'H2')).toEqual([2])
    expect(elementPages(merged, 'Link')).toEqual([1, 3])
    expect(flatTypes(tree).filter((t) => t === 'Table')).toHaveLength(2)
    expect(parentTreeProblems(merged)).toEqual([])
    // each document keeps its language
    const q = qpdfObjects(merged)
    const root = q.get(q.catalog['/StructTreeRoot']) as Record<string, string>
    const parts = q.get((q.get(root['/K']) as Record<string, string>)['/K']) as string[]
    expect(parts.map((p) => qpdfText((q.get(p) as Record<string, string>)['/Lang']))).toEqual(['de', 'en'])
    expect(q.get(q.catalog['/MarkInfo'])).toMatchObject({ '/Marked': true })
  }, 60_000)

  it("keeps the table header IDs apart, so each cell names its own document's header", async () => {
    const merged = await merge()
    const q = qpdfObjects(merged)
    const root = q.get(q.catalog['/StructTreeRoot']) as Record<string, string>
    const names = (q.get((q.get(root['/IDTree']) as Record<string, string>)['/Names']) ?? []) as string[]
    const ids = names.filter((_, i) => i % 2 === 0).map(qpdfText)
    expect(new Set(ids).size).toBe(ids.length)
    expect(ids.length).toBeGreaterThanOrEqual(2)
  }, 60_000)

  it("keeps the tagged source's tree beside an untagged one, without claiming all content is marked", async () => {
    const doc = await PDFDocument.create()
    doc.addPage().drawText('untagged page', { font: await doc.embedFont(StandardFonts.Helvetica) })
    const untagged = Buffer.from(await doc.save())
    const logs: string[] = []
    const out = await mergeTool.run(
      [
        { bytes: untagged, name: 'plain.pdf' },
        { bytes: second, name: 'second.pdf' },
      ],
      {},
      { ...ctx(), log: (m) => logs.push(m) },
    )
    const file = out.files[0]!
    const merged = 'bytes' in file ? file.bytes : Buffer.alloc(0)
    expect(qpdfCheck(merged).ok).toBe(true)
    expect(elementPages(merged, 'H1')).toEqual([2])
    expect(parentTreeProblems(merged)).toEqual([])
    expect(qpdfObjects(merged).catalog['/MarkInfo']).toBeUndefined()
    expect(logs.join('\n')).toContain('1 untagged sources stay untagged')
    expect(pdfText(merged)).toContain('untagged page')
  }, 60_000)

  it('gives a PDF the PDF/UA step finishes without findings, with bookmarks too', async () => {
    const merged = await merge('filenames')
    expect(parentTreeProblems(merged)).toEqual([])
    const ua = await pdfUaProcessor.run(
      merged,
      { pdfua: true, metadata: { title: 'Both' } },
      { signal: AbortSignal.timeout(60_000), log() {}, scratchDir: async () => '/tmp', test: false },
    )
    expect(ua.findings).toEqual([])
    expect(parentTreeProblems(ua.bytes)).toEqual([])
    expect(qpdfCheck(ua.bytes).ok).toBe(true)
  }, 60_000)
})

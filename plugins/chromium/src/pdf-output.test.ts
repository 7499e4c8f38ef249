import { ProblemError } from '@docsvc/core/sdk'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BrowserPool } from './browser-pool.ts'
import { outputContext, pdfInfo, pdfText, testPool } from './chromium-test-support.ts'
import { PdfOutput } from './pdf-output.ts'
import { countPdfPages } from './pdf-page-count.ts'

const pageBreak = '<div style="break-before: page"></div>'
const threePages = {
  kind: 'html' as const,
  html: `<h1>Invoice 42</h1><p>First page</p>${pageBreak}<p>Second page</p>${pageBreak}<p>Third page</p>`,
}

let pool: BrowserPool
let pdf: PdfOutput

beforeAll(async () => {
  pool = testPool([])
  await pool.start()
  pdf = new PdfOutput(pool)
})

afterAll(async () => {
  await pool.stop()
})

describe('pdf output', () => {
  it('prints the document: its text, its pages, and files[].pages counted from the PDF', async () => {
    const ctx = outputContext()
    const file = await pdf.render(threePages, {}, ctx)
    expect(file.format).toBe('pdf')
    expect(file.contentType).toBe('application/pdf')
    expect(file.bytes.subarray(0, 5).toString()).toBe('%PDF-')
    expect(file.pages).toBe(3)
    expect(pdfInfo(file.bytes).pages).toBe(3)
    const text = pdfText(file.bytes)
    expect(text).toContain('Invoice 42')
    expect(pdfText(file.bytes, 3)).toContain('Third page')
    expect(text).not.toContain('TEST')
    expect(ctx.warnings).toEqual([])
  })

  it('uses A4 by default, and Letter, A5, landscape and explicit sizes when asked', async () => {
    // Chromium rounds the sheet to whole CSS pixels: sizes match within a point
    const expectSize = async (options: Parameters<PdfOutput['render']>[1], width: number, height: number) => {
      const info = pdfInfo((await pdf.render(threePages, options, outputContext())).bytes)
      expect(Math.abs(info.width - width)).toBeLessThan(1.5)
      expect(Math.abs(info.height - height)).toBeLessThan(1.5)
    }
    await expectSize({}, 595.3, 841.9)
    await expectSize({ format: 'Letter' }, 612, 792)
    await expectSize({ format: 'A4', landscape: true }, 841.9, 595.3)
    await expectSize({ format: 'A5' }, 419.5, 595.3)
    await expectSize({ width: '100mm', height: '150mm' }, 283.5, 425.2)
  })

  it('prints header and footer templates with page numbers in the margins', async () => {
    const file = await pdf.render(
      threePages,
      {
        header_html: '<div style="font-size: 10px">ACME Ltd report</div>',
        footer_html:
          '<div style="font-size: 10px">Page <span class="pageNumber"></span> of <span class="totalPages"></span></div>',
        margin: { top: '2cm', bottom: '2cm', left: '1cm', right: '1cm' },
      },
      outputContext(),
    )
    for (const page of [1, 2, 3]) {
      const text = pdfText(file.bytes, page)
      expect(text).toContain('ACME Ltd report')
      expect(text).toContain(`Page ${page} of 3`)
    }
  })

  it('warns header_footer_overlap when a template is taller than its margin', async () => {
    const ctx = outputContext()
    await pdf.render(
      threePages,
      {
        header_html: '<div style="font-size: 30px; height: 120px">Tall header</div>',
        margin: { top: '10mm' },
      },
      ctx,
    )
    expect(ctx.warnings.map((w) => w.code)).toEqual(['header_footer_overlap'])
    // printed 20px from the edge: 20 + 120
    expect(ctx.warnings[0]?.message).toMatch(
      /header reaches 140px from the top of the sheet but margin.top is 37px/,
    )
  })

  it('measures templates the way Chromium prints them: side by side, sizeless text, 20px in', async () => {
    const box = (px: number) => `<div style="width: 100px; height: ${px}px; background: #000"></div>`
    const cases: [string, Record<string, unknown>, boolean][] = [
      // two 30px blocks stand side by side in the header row: it ends at 50px, inside 55px
      ['side by side', { header_html: box(30) + box(30), margin: { top: '55px' } }, false],
      // text without an absolute font size prints nothing at all
      ['sizeless text', { header_html: '<div>one<br>two<br>three</div>', margin: { top: '10px' } }, false],
      // a 50px footer ends 70px from the bottom: over a 60px margin
      ['footer over its margin', { footer_html: box(50), margin: { bottom: '60px' } }, true],
      ['footer inside its margin', { footer_html: box(50), margin: { bottom: '72px' } }, false],
      // a paragraph's margin does not collapse into the header: its text ends at 20 + 10 + 12
      [
        'paragraph margin',
        { header_html: '<p style="font-size: 10px">Report</p>', margin: { top: '36px' } },
        true,
      ],
      [
        'paragraph inside',
        { header_html: '<p style="font-size: 10px">Report</p>', margin: { top: '45px' } },
        false,
      ],
    ]
    for (const [label, options, overlaps] of cases) {
      const ctx = outputContext()
      await pdf.render(threePages, options, ctx)
      const codes = ctx.warnings.map((w) => w.code)
      expect(codes, label).toEqual(overlaps ? ['header_footer_overlap'] : [])
    }
  })

  it('prints only page_ranges', async () => {
    const file = await pdf.render(threePages, { page_ranges: '2-3' }, outputContext())
    expect(file.pages).toBe(2)
    expect(pdfText(file.bytes, 1)).toContain('Second page')
    expect(pdfText(file.bytes)).not.toContain('First page')
  })

  it('answers a page range outside the document with validation_error', async () => {
    const err = await pdf.render(threePages, { page_ranges: '7-9' }, outputContext()).catch((e) => e)
    expect(err).toBeInstanceOf(ProblemError)
    expect(err.code).toBe('validation_error')
    // the client reads what to change; Chromium's own words are the logged cause only
    expect(err.detail).toBe('pdf.page_ranges "7-9" names pages the document does not have: it has 3 pages.')
    expect(err.extras.errors).toEqual([
      {
        path: '/output/pdf/page_ranges',
        code: 'out_of_range',
        message: 'names pages the document does not have: it has 3 pages',
      },
    ])
    expect(err.extras.internal).toMatch(/printToPDF|page range/i)
  })

  it('fails with page_limit_exceeded above the plan page limit', async () => {
    const err = await pdf.render(threePages, {}, outputContext({ maxPages: 2 })).catch((e) => e)
    expect(err).toBeInstanceOf(ProblemError)
    expect(err.code).toBe('page_limit_exceeded')
    expect(err.message).toMatch(/3 pages; the plan allows 2/)
  })

  it('prints test-mode pages as they are: the kernel stamps TEST on the finished file', async () => {
    const file = await pdf.render(threePages, {}, outputContext({ test: true }))
    expect(pdfText(file.bytes)).not.toContain('TEST')
  })

  it('makes a tagged PDF with an outline (outline implies tagging)', async () => {
    const doc = { kind: 'html' as const, html: `<h1>Chapter one</h1>${pageBreak}<h1>Chapter two</h1>` }
    const file = await pdf.render(doc, { outline: true }, outputContext())
    expect(pdfInfo(file.bytes).tagged).toBe(true)
    expect(file.bytes.toString('latin1')).toContain('/Outlines')
    const ctx = outputContext()
    const untagged = await pdf.render(doc, { outline: true, tagged: false }, ctx)
    expect(pdfInfo(untagged.bytes).tagged).toBe(false)
    expect(ctx.warnings.map((w) => w.code)).toEqual(['feature_unavailable'])
  })

  it('prints backgrounds by default and not when print_background is false', async () => {
    const doc = {
      kind: 'html' as const,
      html: '<body style="background: rgb(10, 120, 200)"><p>blue</p></body>',
    }
    const withBg = await pdf.render(doc, {}, outputContext())
    const without = await pdf.render(doc, { print_background: false }, outputContext())
    expect(withBg.bytes.length).toBeGreaterThan(without.bytes.length)
  })
})

describe('countPdfPages', () => {
  it('reads the page tree of a PDF whose objects sit in compressed object streams', async () => {
    const { execFileSync } = await import('node:child_process')
    const { mkdtempSync, readFileSync, writeFileSync } = await import('node:fs')
    const dir = mkdtempSync('/tmp/docsvc-count-')
    const file = await pdf.render(threePages, {}, outputContext())
    writeFileSync(`${dir}/in.pdf`, file.bytes)
    execFileSync('qpdf', ['--object-streams=generate', `${dir}/in.pdf`, `${dir}/out.pdf`])
    const packed = readFileSync(`${dir}/out.pdf`)
    expect(packed.toString('latin1')).toContain('/ObjStm')
    expect(countPdfPages(packed)).toBe(3)
  })
})

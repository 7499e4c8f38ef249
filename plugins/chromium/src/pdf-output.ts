import type { OutputContext, RenderDocument, RenderedFile, RenderOutput } from '@docsvc/core/sdk'
import { ProblemError } from '@docsvc/core/sdk'
import type { BrowserPool } from './browser-pool.ts'
import { firstLine } from './browser-pool.ts'
import { CHROMIUM_ENGINE } from './chromium-config.ts'
import { checkHeaderFooterFit, type PdfOptions, PdfOptionsSchema, pdfPlan } from './pdf-options.ts'
import { countPdfPages } from './pdf-page-count.ts'
import { renderDocument } from './render-document.ts'

/** The `pdf` output: Chromium's print to PDF with page size, margins, header and footer. */
export class PdfOutput implements RenderOutput<PdfOptions> {
  readonly format = 'pdf'
  readonly engine = CHROMIUM_ENGINE
  readonly optionsSchema = PdfOptionsSchema
  /** the worker's browser pool this output renders with */
  readonly pool: BrowserPool

  constructor(pool: BrowserPool) {
    this.pool = pool
  }

  async render(doc: RenderDocument, options: PdfOptions, ctx: OutputContext): Promise<RenderedFile> {
    const plan = pdfPlan(options ?? {}, (code, message) => ctx.warn(code, message))
    let title: string | null = null
    let missingGlyphs: string[] = []
    const bytes = await renderDocument(this.pool, doc, ctx, {
      locale: options?.locale,
      onMissingGlyphs: (chars) => {
        missingGlyphs = chars
      },
      produce: async ({ page }) => {
        await checkHeaderFooterFit(page, options ?? {}, plan, (code, message) => ctx.warn(code, message))
        // Chromium titles an untitled document with its URL (about:blank): the kernel replaces that
        title = (await page.title()).trim() || null
        try {
          return await page.pdf(plan.print)
        } catch (err) {
          throw printError(err, options?.page_ranges)
        }
      },
    })
    const pages = countPdfPages(bytes)
    if (pages > ctx.maxPages)
      throw new ProblemError(
        'page_limit_exceeded',
        `the PDF has ${pages} pages; the plan allows ${ctx.maxPages}`,
        { pages, max_pages: ctx.maxPages },
      )
    return { format: 'pdf', contentType: 'application/pdf', bytes, pages, title, missingGlyphs }
  }
}

function printError(err: unknown, pageRanges: string | undefined): Error {
  const message = firstLine(err)
  if (pageRanges && /page range/i.test(message))
    return new ProblemError('validation_error', `page_ranges ${JSON.stringify(pageRanges)}: ${message}`, {
      errors: [{ path: '/output/pdf/page_ranges', code: 'out_of_range', message }],
    })
  return err instanceof Error ? err : new Error(message)
}

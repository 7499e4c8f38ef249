import type { OutputContext, RenderDocument, RenderedFile, RenderOutput } from '@docsvc/core/sdk'
import { causeText, ProblemError, problemFromCause } from '@docsvc/core/sdk'
import type { BrowserPool } from './browser-pool.ts'
import { CHROMIUM_ENGINE } from './chromium-config.ts'
import { declareUndeterminedLanguage } from './document-language.ts'
import type { TemplateToCheck } from './font-check.ts'
import { checkHeaderFooterFit, type PdfOptions, PdfOptionsSchema, pdfPlan } from './pdf-options.ts'
import { countPdfPages } from './pdf-page-count.ts'
import { renderDocument } from './render-document.ts'
import { preloadTemplateFonts, withTemplateAssets } from './template-assets.ts'

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

  async render(doc: RenderDocument, given: PdfOptions, ctx: OutputContext): Promise<RenderedFile> {
    // the header and footer load nothing while printing: their remote fonts and images go in as data: URLs
    const { options, fonts } = await withTemplateAssets(given ?? {}, {
      fetch: (url, o) => this.pool.guard.fetch(url, o),
      deadline: ctx.deadline,
      warn: (code, message) => ctx.warn(code, message),
    })
    const plan = pdfPlan(options, (code, message) => ctx.warn(code, message))
    let title: string | null = null
    let missingGlyphs: string[] = []
    const bytes = await renderDocument(this.pool, doc, ctx, {
      locale: options.locale,
      templates: templatesToCheck(options, plan.paper.width),
      onMissingGlyphs: (chars) => {
        missingGlyphs = chars
      },
      produce: async ({ page }) => {
        await checkHeaderFooterFit(page, options, plan, (code, message) => ctx.warn(code, message))
        await preloadTemplateFonts(page, fonts)
        // Chromium titles an untitled document with its URL (about:blank): the kernel replaces that
        title = (await page.title()).trim() || null
        if (plan.print.tagged) await declareUndeterminedLanguage(page)
        try {
          return await page.pdf(plan.print)
        } catch (err) {
          if (!options.page_ranges || !/page range/i.test(causeText(err))) throw err
          // the page count makes the answer actionable; it costs a second print, on failure only
          const { pageRanges: _asked, ...wholeDocument } = plan.print
          const pages = await page
            .pdf(wholeDocument)
            .then(countPdfPages)
            .catch(() => undefined)
          throw pageRangesProblem(options.page_ranges, pages, err)
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

// what can print a non-ASCII character: itself, an entity, or the title or URL the print fills in
const MAY_PRINT_NON_ASCII = /[^\p{ASCII}]|&|\b(title|url)\b/u

/**
 * The header and footer Chromium prints, for the glyph check: they have fonts of their own. A
 * template that can only print ASCII ("Page 1 of 2") is not looked at, which saves laying it
 * out again (~25 ms).
 */
function templatesToCheck(options: PdfOptions, width: number): TemplateToCheck[] {
  const given = [
    ['header template', options.header_html],
    ['footer template', options.footer_html],
  ] as const
  return given.flatMap(([where, html]) =>
    html && MAY_PRINT_NON_ASCII.test(html) ? [{ where, html, width }] : [],
  )
}

/** `page_ranges` naming pages past the end: 422 validation_error (SPEC 7.3) at the field. */
function pageRangesProblem(pageRanges: string, pages: number | undefined, cause: unknown): ProblemError {
  const message =
    pages === undefined
      ? `names pages the document does not have`
      : `names pages the document does not have: it has ${pages} page${pages === 1 ? '' : 's'}`
  return problemFromCause(
    'validation_error',
    `pdf.page_ranges ${JSON.stringify(pageRanges)} ${message}.`,
    cause,
    {
      errors: [{ path: '/output/pdf/page_ranges', code: 'out_of_range', message }],
    },
  )
}

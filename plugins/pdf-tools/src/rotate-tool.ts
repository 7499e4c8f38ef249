import type { PdfTool } from '@docsvc/core/sdk'
import { pageSyntaxProblems, qpdfPageRange, resolvePages } from './page-ranges.ts'
import { qpdfStep, requireWithinPageLimit, stepWhileCounting, writeClearSource } from './pdf-probe.ts'
import { withWorkDir } from './qpdf.ts'
import type { FieldProblem, PdfToolContext, PdfToolOutput, PdfToolSource, ToolOptions } from './tool-types.ts'

/** `rotate`: adds `degrees` to the rotation of the listed pages (negative: anticlockwise). */
export const rotateTool: PdfTool = {
  name: 'rotate',
  check: (options: ToolOptions): FieldProblem[] => pageSyntaxProblems('/pages', options.pages),
  async run(sources: PdfToolSource[], options: ToolOptions, ctx: PdfToolContext): Promise<PdfToolOutput> {
    const [source] = sources
    if (!source) return { files: [] }
    return withWorkDir(ctx, async (work) => {
      const file = await writeClearSource(work, source, ctx.signal)
      const list = typeof options.pages === 'string' ? options.pages : 'all'
      const degrees = Number(options.degrees)
      // qpdf's + and - add to the page's rotation instead of setting it
      const angle = `${degrees < 0 ? '-' : '+'}${Math.abs(degrees)}`
      let listed: number[] = []
      // rotated while the pages are counted; a page past the end or the plan's limit stops it
      const pages = await stepWhileCounting(
        work,
        file,
        ctx.signal,
        (signal) => qpdfStep([file, `--rotate=${angle}:${qpdfPageRange(list)}`, 'rotated.pdf'], work, signal),
        (count) => {
          requireWithinPageLimit(count, ctx.maxPages, 'the source')
          listed = resolvePages(list, count, 'pages')
        },
      )
      ctx.log(`rotated ${listed.length} of ${pages} pages by ${degrees}`)
      return { files: [{ format: 'pdf', bytes: await work.read('rotated.pdf'), pages }] }
    })
  },
}

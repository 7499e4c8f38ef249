import type { PdfTool } from '@docsvc/core/sdk'
import { pageSyntaxProblems, resolvePages } from './page-ranges.ts'
import { clearSource, qpdfStep } from './pdf-probe.ts'
import { withWorkDir } from './qpdf.ts'
import type { FieldProblem, PdfToolContext, PdfToolOutput, PdfToolSource, ToolOptions } from './tool-types.ts'

/** `rotate`: adds `degrees` to the rotation of the listed pages (negative: anticlockwise). */
export const rotateTool: PdfTool = {
  name: 'rotate',
  check: (options: ToolOptions): FieldProblem[] => pageSyntaxProblems('/pages', options.pages),
  async run(sources: PdfToolSource[], options: ToolOptions, ctx: PdfToolContext): Promise<PdfToolOutput> {
    const [source] = sources
    if (!source) return { files: [] }
    return withWorkDir(async (work) => {
      const { file, pages } = await clearSource(work, source.bytes, ctx.signal)
      const listed = resolvePages(typeof options.pages === 'string' ? options.pages : 'all', pages, 'pages')
      const degrees = Number(options.degrees)
      // qpdf's + and - add to the page's rotation instead of setting it
      const angle = `${degrees < 0 ? '-' : '+'}${Math.abs(degrees)}`
      await qpdfStep([file, `--rotate=${angle}:${listed.join(',')}`, 'rotated.pdf'], work, ctx.signal)
      ctx.log(`rotated ${listed.length} of ${pages} pages by ${degrees}`)
      return { files: [{ format: 'pdf', bytes: await work.read('rotated.pdf'), pages }] }
    })
  },
}

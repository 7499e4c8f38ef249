import { mapWithLimit, type PdfTool } from '@docsvc/core/sdk'
import { flatTreePageCount } from './flat-page-count.ts'
import { addSourceBookmarks } from './outline.ts'
import { encryptionOf, pageCount, qpdfStep, requireClear, sourceLabel } from './pdf-probe.ts'
import { withWorkDir } from './qpdf.ts'
import type { PdfToolContext, PdfToolOutput, PdfToolSource, ToolOptions } from './tool-types.ts'

/** `merge`: the sources' pages in order in one PDF; `bookmarks: filenames` adds one per source. */
export const mergeTool: PdfTool = {
  name: 'merge',
  async run(sources: PdfToolSource[], options: ToolOptions, ctx: PdfToolContext): Promise<PdfToolOutput> {
    return withWorkDir(ctx, async (work) => {
      const files = await Promise.all(
        sources.map(async (s, i) => {
          const file = await work.place(`in-${i + 1}.pdf`, s)
          requireClear(await encryptionOf(work, file, s.bytes, ctx.signal), sourceLabel(i, sources.length))
          return file
        }),
      )
      const count = (file: string, i: number) =>
        pageCount(work, file, sourceLabel(i, sources.length), ctx.signal)
      try {
        await qpdfStep(['--empty', '--pages', ...files, '--', 'merged.pdf'], work, ctx.signal)
      } catch (err) {
        // name the source qpdf could not read (each is read on its own only now, on failure)
        for (const [i, file] of files.entries()) await count(file, i)
        throw err
      }
      let bytes = await work.read('merged.pdf')
      let pages: number
      if (options.bookmarks === 'filenames') {
        // a bookmark per source needs each one's page count: one qpdf run each, two at a time
        const counts = await mapWithLimit(files, 2, count)
        pages = counts.reduce((n, c) => n + c, 0)
        bytes = await addSourceBookmarks(
          bytes,
          sources.map((s, i) => ({ title: s.name, pages: counts[i]! })),
        )
      } else {
        pages =
          flatTreePageCount(bytes) ?? (await pageCount(work, 'merged.pdf', 'the merged PDF', ctx.signal))
      }
      ctx.log(`merged ${sources.length} PDFs, ${pages} pages`)
      return { files: [{ format: 'pdf', bytes, pages }] }
    })
  },
}

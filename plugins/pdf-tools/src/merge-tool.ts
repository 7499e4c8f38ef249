import { mapWithLimit, type PdfTool, ProblemError } from '@docsvc/core/sdk'
import type { MergeStructureOutput } from './accessibility/merge-structure-task.ts'
import { flatTreePageCount } from './flat-page-count.ts'
import { pageCountBound } from './page-bound.ts'
import {
  encryptionOf,
  pageCount,
  qpdfStep,
  requireClear,
  requireWithinPageLimit,
  sourceLabel,
} from './pdf-probe.ts'
import { asBuffer, exclusiveBuffer, runPdfTask } from './pdf-workers.ts'
import { type WorkDir, withWorkDir } from './qpdf.ts'
import type { PdfToolContext, PdfToolOutput, PdfToolSource, ToolOptions } from './tool-types.ts'

const BOOKMARKS_TASK = new URL('./tasks/bookmarks-task.ts', import.meta.url)
const MERGE_STRUCTURE_TASK = new URL('./accessibility/merge-structure-task.ts', import.meta.url)

/**
 * Whether a source may have a structure tree: its catalog says /StructTreeRoot in the clear, or
 * it has object streams, where the catalog may hide (those are read by pdf-lib to be sure).
 */
function mayBeTagged(bytes: Buffer): boolean {
  return bytes.includes('/StructTreeRoot') || bytes.includes('/ObjStm')
}

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
      // a bookmark per source needs each one's page count: one qpdf run each, two at a time
      let counts = options.bookmarks === 'filenames' ? await mapWithLimit(files, 2, count) : undefined
      counts = await checkPageLimit(sources, files, counts, ctx.maxPages, count)
      try {
        await qpdfStep(['--empty', '--pages', ...files, '--', 'merged.pdf'], work, ctx.signal)
      } catch (err) {
        // name the source qpdf could not read (each is read on its own only now, on failure)
        for (const [i, file] of files.entries()) await count(file, i)
        throw err
      }
      let bytes = await work.read('merged.pdf')
      if (sources.some((s) => mayBeTagged(s.bytes)))
        bytes = await withStructureTree(bytes, sources, work, ctx)
      let pages: number
      if (options.bookmarks === 'filenames' && counts) {
        pages = counts.reduce((n, c) => n + c, 0)
        const entries = sources.map((s, i) => ({ title: s.name, pages: counts[i]! }))
        const marked = await runPdfTask<Uint8Array>(
          BOOKMARKS_TASK,
          { pdf: bytes, entries },
          { signal: ctx.signal, subject: 'Adding the bookmarks', transfer: exclusiveBuffer(bytes) },
        )
        bytes = asBuffer(marked)
      } else {
        pages = flatTreePageCount(bytes) ?? (await mergedPageCount(work, ctx.signal))
      }
      ctx.log(`merged ${sources.length} PDFs, ${pages} pages`)
      return { files: [{ format: 'pdf', bytes, pages }] }
    })
  },
}

/**
 * The merged PDF with one structure tree from its tagged sources (decision 0104). Sources qpdf
 * reads but pdf-lib cannot (or that overrun the PDF thread's budget) still merge, untagged, as
 * before: the log says the trees were lost.
 */
async function withStructureTree(
  merged: Buffer,
  sources: PdfToolSource[],
  work: WorkDir,
  ctx: PdfToolContext,
): Promise<Buffer> {
  try {
    const tree = await runPdfTask<MergeStructureOutput>(
      MERGE_STRUCTURE_TASK,
      { merged, sources: sources.map((s) => s.bytes) },
      { signal: ctx.signal, subject: 'Merging the structure trees', transfer: exclusiveBuffer(merged) },
    )
    if (tree.tagged > 0)
      ctx.log(
        `one structure tree from ${tree.tagged} tagged sources${tree.untagged > 0 ? `; ${tree.untagged} untagged sources stay untagged` : ''}`,
      )
    return asBuffer(tree.pdf)
  } catch (err) {
    if (ctx.signal.aborted || !(err instanceof ProblemError)) throw err
    ctx.log(`the structure trees could not be merged (${err.detail ?? err.code}); the merged PDF is untagged`)
    // the bytes moved to the thread: the file is still in the work folder
    return work.read('merged.pdf')
  }
}

function mergedPageCount(work: WorkDir, signal: AbortSignal): Promise<number> {
  return pageCount(work, 'merged.pdf', 'the merged PDF', signal)
}

/**
 * The sources' pages together against the plan's limit, before merging. Each file's
 * `/Type /Page` occurrences bound its pages from above without a qpdf run: when the bounds fit,
 * the sources do. Otherwise (object streams hide pages, or the bounds are too high) qpdf counts
 * each source; those counts are returned for reuse.
 */
async function checkPageLimit(
  sources: PdfToolSource[],
  files: string[],
  counts: number[] | undefined,
  maxPages: number | undefined,
  count: (file: string, i: number) => Promise<number>,
): Promise<number[] | undefined> {
  if (maxPages === undefined) return counts
  if (!counts) {
    const bounds = sources.map((s) => pageCountBound(s.bytes))
    const bound = bounds.reduce<number | undefined>(
      (n, b) => (n === undefined || b === undefined ? undefined : n + b),
      0,
    )
    if (bound !== undefined && bound <= maxPages) return undefined
    counts = await mapWithLimit(files, 2, count)
  }
  requireWithinPageLimit(
    counts.reduce((n, c) => n + c, 0),
    maxPages,
    sources.length > 1 ? 'the sources' : 'the source',
  )
  return counts
}

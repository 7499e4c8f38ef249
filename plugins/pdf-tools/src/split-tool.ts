import { readdir } from 'node:fs/promises'
import { mapWithLimit, type PdfTool, ProblemError } from '@docsvc/core/sdk'
import { zipSync } from 'fflate'
import { pageCountBound } from './page-bound.ts'
import { pageSyntaxProblems, resolvePages } from './page-ranges.ts'
import {
  pageCount,
  qpdfStep,
  requireWithinPageLimit,
  sideBySide,
  stepWhileCounting,
  writeClearSource,
} from './pdf-probe.ts'
import { type WorkDir, withWorkDir } from './qpdf.ts'
import type {
  FieldProblem,
  PdfToolContext,
  PdfToolFile,
  PdfToolOutput,
  PdfToolSource,
  ToolOptions,
} from './tool-types.ts'

/** SPEC 8: a split makes at most 200 files. */
export const MAX_SPLIT_OUTPUTS = 200
const READ_CONCURRENCY = 16

function rangesOf(options: ToolOptions): string[] | undefined {
  return Array.isArray(options.ranges) ? (options.ranges as string[]) : undefined
}

function everyOf(options: ToolOptions): number | undefined {
  return typeof options.every === 'number' ? options.every : undefined
}

/** `<stem>-<n>.pdf` and `<stem>.zip`: the stem is `filename` without `.pdf`, else `split`. */
export function splitStem(filename: unknown): string {
  const stem = typeof filename === 'string' ? filename.trim().replace(/\.pdf$/i, '') : ''
  return stem || 'split'
}

/** `split`: one PDF per range or per run of `every` pages, or one zip holding them. */
export const splitTool: PdfTool = {
  name: 'split',
  // one zip, or one file per range; with `every` the count waits for the page count
  fileCount: (options: ToolOptions) => (options.zip === true ? 1 : rangesOf(options)?.length),
  check(options: ToolOptions): FieldProblem[] {
    const ranges = rangesOf(options)
    const every = everyOf(options)
    if ((ranges === undefined) === (every === undefined)) {
      return [{ path: '/ranges', code: 'one_of', message: 'give ranges or every, one of the two' }]
    }
    return (ranges ?? []).flatMap((r, i) => pageSyntaxProblems(`/ranges/${i}`, r))
  },
  async run(sources: PdfToolSource[], options: ToolOptions, ctx: PdfToolContext): Promise<PdfToolOutput> {
    const [source] = sources
    if (!source) return { files: [] }
    const stem = splitStem(options.filename)
    // the parts stay in the render's scratch folder: the kernel moves them into the store as
    // they are, so none of them is read into memory unless a zip needs it
    return withWorkDir(ctx, async (work) => {
      const file = await writeClearSource(work, source, ctx.signal)
      const every = everyOf(options)
      const { pages, parts } =
        every !== undefined
          ? await splitEvery(work, file, source.bytes, every, ctx)
          : await splitRanges(work, file, rangesOf(options) ?? [], ctx)
      ctx.log(`split ${pages} pages into ${parts.length} files`)
      const filename = (i: number) => `${stem}-${i + 1}.pdf`
      if (options.zip === true) {
        const bytes = await mapWithLimit(parts, READ_CONCURRENCY, (p) => work.read(p.name))
        const zip = zipSync(Object.fromEntries(bytes.map((b, i) => [filename(i), b])), { level: 1 })
        return { files: [{ format: 'zip', bytes: Buffer.from(zip), filename: `${stem}.zip` }] }
      }
      const files: PdfToolFile[] = parts.map((p, i) => ({
        format: 'pdf',
        path: work.pathOf(p.name),
        size: work.size(p.name),
        pages: p.pages,
        filename: filename(i),
      }))
      return { files }
    })
  },
}

function tooMany(count: number): ProblemError {
  const message = `the split would make ${count} files; at most ${MAX_SPLIT_OUTPUTS} are allowed`
  return new ProblemError('validation_error', `${message}.`, {
    errors: [{ path: '/every', code: 'too_many_outputs', message }],
  })
}

type SplitContext = Pick<PdfToolContext, 'signal' | 'maxPages'>

async function splitEvery(work: WorkDir, file: string, source: Buffer, every: number, ctx: SplitContext) {
  const { signal } = ctx
  // (a file that shows no page at all goes the counted way)
  const bound = every === 1 ? pageCountBound(source) : undefined
  if (bound !== undefined && bound > 0 && bound <= MAX_SPLIT_OUTPUTS && bound <= (ctx.maxPages ?? bound)) {
    const parts = await splitOddEven(work, file, signal)
    // the bound can miss pages of a broken file: the parts are counted too
    if (parts.length > MAX_SPLIT_OUTPUTS) throw tooMany(parts.length)
    return { pages: parts.length, parts }
  }
  const pages = await stepWhileCounting(
    work,
    file,
    signal,
    (stepSignal) => qpdfStep([`--split-pages=${every}`, file, 'part.pdf'], work, stepSignal),
    (count) => {
      requireWithinPageLimit(count, ctx.maxPages, 'the source')
      const outputs = Math.ceil(count / every)
      if (outputs > MAX_SPLIT_OUTPUTS) throw tooMany(outputs)
    },
  )
  // one qpdf run writes every part (part-01-02.pdf ...); zero-padded names sort in page order
  const names = (await readdir(work.root)).filter((n) => /^part-\d+(-\d+)?\.pdf$/.test(n)).sort()
  const parts = names.map((name, i) => ({ name, pages: Math.min(every, pages - i * every) }))
  return { pages, parts }
}

/**
 * Every page on its own, by two qpdf runs side by side (odd pages, even pages): reading the
 * document is most of a run's time, and on two cores the pair finishes ~20% sooner than one run
 * with its page count beside it. For PDFs whose page count is known to be within the limit.
 */
async function splitOddEven(work: WorkDir, file: string, signal: AbortSignal) {
  await sideBySide(
    signal,
    ['odd', 'even'].map(
      (half) => (stepSignal: AbortSignal) =>
        qpdfStep(
          ['--split-pages=1', file, '--pages', file, `1-z:${half}`, '--', `${half}.pdf`],
          work,
          stepSignal,
        ),
    ),
  )
  const names = await readdir(work.root)
  // zero-padded names sort in page order within each half; page 2k-1 is odd's k-th, 2k even's
  const [odd, even] = ['odd', 'even'].map((half) =>
    names.filter((n) => new RegExp(`^${half}-\\d+\\.pdf$`).test(n)).sort(),
  ) as [string[], string[]]
  return odd.flatMap((name, k) => [name, ...(even[k] ? [even[k]] : [])]).map((name) => ({ name, pages: 1 }))
}

async function splitRanges(work: WorkDir, file: string, ranges: string[], ctx: SplitContext) {
  const { signal } = ctx
  const pages = await pageCount(work, file, 'the source', signal)
  requireWithinPageLimit(pages, ctx.maxPages, 'the source')
  const lists = ranges.map((r, i) => resolvePages(r, pages, `ranges[${i}]`))
  // one qpdf run per range, two at a time (one per core of a small machine)
  const parts = await mapWithLimit(lists, 2, async (list, i) => {
    const out = `range-${i + 1}.pdf`
    // the source stays the primary input, so document-level data (info, language) carries over
    await qpdfStep([file, '--pages', file, list.join(','), '--', out], work, signal)
    return { name: out, pages: list.length }
  })
  return { pages, parts }
}

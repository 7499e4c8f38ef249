import { ProblemError } from '@docsvc/core/sdk'
import type { FieldProblem } from './tool-types.ts'

// The page syntax of rotate and split (SPEC 4.4): `all`, `7`, `1-3`, `4-` and lists of them,
// pages counted from 1. Checked in two steps: the syntax when the render is created, the pages
// against the document once it is read.

export interface PageRun {
  from: number
  /** undefined: to the last page (`4-`) */
  to: number | undefined
}

const PART = /^(\d+)(?:\s*(-)\s*(\d+)?)?$/

/** The runs of a page list, or the reason it cannot be one. */
export function parsePages(text: string): PageRun[] | string {
  const trimmed = text.trim()
  if (trimmed === 'all') return [{ from: 1, to: undefined }]
  if (trimmed === '') return 'is empty; use all, 7, 1-3, 4- or a list like 1,3-5'
  const runs: PageRun[] = []
  for (const raw of trimmed.split(',')) {
    const part = raw.trim()
    const match = PART.exec(part)
    if (!match) return `has "${part}", which is not a page, a range like 1-3 or an open range like 4-`
    const from = Number(match[1])
    const to = match[2] ? (match[3] === undefined ? undefined : Number(match[3])) : from
    if (from < 1) return `has page ${from}; pages count from 1`
    if (to !== undefined && to < from) return `has "${part}", a range that runs backwards`
    runs.push({ from, to })
  }
  return runs
}

/** A field problem for a malformed page list, for the checks at creation. */
export function pageSyntaxProblems(path: string, text: unknown): FieldProblem[] {
  if (typeof text !== 'string') return []
  const parsed = parsePages(text)
  return typeof parsed === 'string'
    ? [{ path, code: 'invalid_pages', message: `${path.slice(1)} ${parsed}` }]
    : []
}

/**
 * The pages a list names, in its order, for a document of `count` pages; a page outside the
 * document is a validation_error naming it (SPEC 4.4).
 */
export function resolvePages(text: string, count: number, field: string): number[] {
  const parsed = parsePages(text)
  if (typeof parsed === 'string') throw outside(field, `${field} ${parsed}`)
  const pages: number[] = []
  for (const run of parsed) {
    const to = run.to ?? count
    const beyond = Math.max(run.from, to)
    if (beyond > count) {
      throw outside(
        field,
        `${field} names page ${beyond}, but the document has ${count} page${count === 1 ? '' : 's'}`,
      )
    }
    for (let p = run.from; p <= to; p++) pages.push(p)
  }
  return pages
}

/** A (well-formed) page list in qpdf's range syntax, which needs no page count: `4-` is `4-z`. */
export function qpdfPageRange(text: string): string {
  const parsed = parsePages(text)
  if (typeof parsed === 'string') throw outside('pages', `pages ${parsed}`)
  return parsed.map((run) => (run.to === run.from ? `${run.from}` : `${run.from}-${run.to ?? 'z'}`)).join(',')
}

function outside(field: string, message: string): ProblemError {
  return new ProblemError('validation_error', `${message}.`, {
    errors: [{ path: `/${field.replace(/\[(\d+)\]/g, '/$1')}`, code: 'page_out_of_range', message }],
  })
}

import { ProblemError } from '@docsvc/core/sdk'
import { isPasswordFailure, qpdf, unreadablePdf, type WorkDir } from './qpdf.ts'

// What the tools need to know about a source before working on it, at the fewest qpdf runs:
// each run is a process start, which costs more than the work on a small PDF.

export type Encryption = 'none' | 'owner_only' | 'password'

/** `source 2` in problem details: which of several inputs it was. */
export function sourceLabel(index: number, count: number): string {
  return count > 1 ? `source ${index + 1}` : 'the source'
}

/**
 * How a file is encrypted. An encrypted file names its /Encrypt dictionary in its trailer, so a
 * file without those bytes is clear; qpdf decides the rest (the name can also occur by chance).
 */
export async function encryptionOf(
  work: WorkDir,
  file: string,
  bytes: Buffer,
  signal: AbortSignal,
): Promise<Encryption> {
  if (!bytes.includes('/Encrypt')) return 'none'
  // exit 0: a user password is needed; 3: encrypted, opens without one; 2: clear (or unreadable)
  const result = await qpdf(['--requires-password', file], signal, work.root)
  return result.code === 0 ? 'password' : result.code === 3 ? 'owner_only' : 'none'
}

/** The page count; a file qpdf cannot read is 422 invalid_pdf_source (repairable damage is repaired). */
export async function pageCount(
  work: WorkDir,
  file: string,
  label: string,
  signal: AbortSignal,
): Promise<number> {
  const result = await qpdf(['--show-npages', file], signal, work.root)
  const pages = Number.parseInt(result.stdout.trim(), 10)
  if (result.code === 2 || !Number.isInteger(pages)) {
    if (isPasswordFailure(result))
      throw new ProblemError('pdf_password_required', `${label} needs a password.`)
    throw unreadablePdf(label, result)
  }
  return pages
}

/**
 * Refuses a source (or a merge's sources together) with more pages than the plan allows, before
 * any work is done on it: 422 page_limit_exceeded. `maxPages` is absent for the finishing steps
 * of a render, whose PDF was counted when it was printed.
 */
export function requireWithinPageLimit(pages: number, maxPages: number | undefined, label: string): void {
  if (maxPages === undefined || pages <= maxPages) return
  throw new ProblemError('page_limit_exceeded', `${pages} pages in ${label}; the plan allows ${maxPages}.`, {
    pages,
    max_pages: maxPages,
  })
}

/** Tools that change a PDF need it in the clear (SPEC 4.4): any encryption is a 422. */
export function requireClear(encryption: Encryption, label: string): void {
  if (encryption === 'none') return
  throw new ProblemError(
    'pdf_password_required',
    `${label} is encrypted; unlock it first (POST /v1/pdf-tools/unlock).`,
  )
}

/** Writes the one source into the work folder and checks it is clear (tools that change a PDF). */
export async function writeClearSource(
  work: WorkDir,
  source: { bytes: Buffer; path?: string },
  signal: AbortSignal,
): Promise<string> {
  const file = await work.place('in-1.pdf', source)
  requireClear(await encryptionOf(work, file, source.bytes, signal), 'the source')
  return file
}

/** Runs a qpdf step that writes an output; its failures become the problems SPEC names. */
export async function qpdfStep(
  args: string[],
  work: WorkDir,
  signal: AbortSignal,
  label = 'the source',
): Promise<void> {
  const result = await qpdf(args, signal, work.root)
  if (result.code === 0 || result.code === 3) return
  if (isPasswordFailure(result)) throw new ProblemError('pdf_password_required', 'The password is wrong.')
  throw unreadablePdf(label, result)
}

/**
 * Starts a qpdf step and reads the page count beside it: two processes on two cores instead of
 * one after the other. `check` may refuse the count (too many outputs, a page past the end);
 * the step is then killed, and has ended, before the refusal is thrown.
 */
export async function stepWhileCounting(
  work: WorkDir,
  file: string,
  signal: AbortSignal,
  step: (signal: AbortSignal) => Promise<void>,
  check: (pages: number) => void = () => {},
): Promise<number> {
  const stop = new AbortController()
  const stepping = step(AbortSignal.any([signal, stop.signal]))
  // handled now: it may fail before it is awaited below
  stepping.catch(() => {})
  let pages: number
  try {
    pages = await pageCount(work, file, 'the source', signal)
    check(pages)
  } catch (err) {
    stop.abort(err)
    await stepping.catch(() => {})
    throw err
  }
  await stepping
  return pages
}

/**
 * Runs qpdf steps side by side (one per core). When one fails the others are killed, and have
 * ended, before its failure is thrown.
 */
export async function sideBySide(
  signal: AbortSignal,
  steps: ((signal: AbortSignal) => Promise<void>)[],
): Promise<void> {
  const stop = new AbortController()
  const each = AbortSignal.any([signal, stop.signal])
  const results = await Promise.allSettled(
    steps.map((step) =>
      step(each).catch((err) => {
        stop.abort(err)
        throw err
      }),
    ),
  )
  const failed = results.find((r) => r.status === 'rejected')
  if (failed) throw failed.reason
}

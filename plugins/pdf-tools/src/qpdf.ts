import { linkSync, statSync } from 'node:fs'
import { mkdtemp, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { ProblemError, problemFromCause, runProgram } from '@docsvc/core/sdk'

// qpdf does the byte work (DESIGN.md §2), as a bounded child process on files in a private
// folder of the render: it never sees a caller's path, and the folder goes away with the render.

const TIME_LIMIT_MS = 120_000
const OUTPUT_LIMIT = 1024 * 1024

export interface QpdfResult {
  /** 0 success, 3 success with warnings (qpdf repaired something), 2 error */
  code: number
  stdout: string
  stderr: string
}

/** Runs qpdf; resolves with its exit code instead of throwing, so callers map codes to problems. */
export async function qpdf(args: string[], signal: AbortSignal, cwd: string): Promise<QpdfResult> {
  let result: Awaited<ReturnType<typeof runProgram>>
  try {
    result = await runProgram('qpdf', ['--no-warn', ...args], {
      cwd,
      signal,
      timeoutMs: TIME_LIMIT_MS,
      maxBuffer: OUTPUT_LIMIT,
    })
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT')
      throw new Error('qpdf is not installed on this worker')
    throw err
  }
  if (result.timedOut) throw new ProblemError('render_failed', 'qpdf took too long on this PDF.')
  if (result.exitCode === null) throw new Error(`qpdf ended by ${result.signal}`)
  return { code: result.exitCode, stdout: result.stdout, stderr: result.stderr }
}

/**
 * A private folder for one tool run, inside the render's scratch folder. The kernel removes that
 * once the render's files are stored, after the answer: no request waits for the cleanup of a
 * hundred merge sources, and files returned by path (split parts) stay until they are stored.
 */
export async function withWorkDir<T>(
  ctx: { scratchDir(): Promise<string> },
  fn: (dir: WorkDir) => Promise<T>,
): Promise<T> {
  return fn(new WorkDir(await mkdtemp(path.join(await ctx.scratchDir(), 'qpdf-'))))
}

export class WorkDir {
  readonly root: string

  constructor(root: string) {
    this.root = root
  }

  /**
   * Puts a source in the folder as `name`: a hard link to the file where the kernel keeps it on
   * this disk (no bytes written; the link also outlives a delete of the original), else its bytes.
   * The link is made synchronously: it takes microseconds, through the thread pool a merge's 200
   * of them took ~5 ms.
   */
  async place(name: string, source: { bytes: Buffer; path?: string }): Promise<string> {
    if (source.path) {
      try {
        linkSync(source.path, this.pathOf(name))
        return name
      } catch {
        // another file system, or gone meanwhile: the bytes in memory are the same
      }
    }
    return this.write(name, source.bytes)
  }

  async write(name: string, bytes: Buffer): Promise<string> {
    await writeFile(this.pathOf(name), bytes)
    return name
  }

  read(name: string): Promise<Buffer> {
    return readFile(this.pathOf(name))
  }

  /** A file's size; synchronous, as a stat of a file just written takes microseconds (through
   * the thread pool, 200 of them take ~15x longer). */
  size(name: string): number {
    return statSync(this.pathOf(name)).size
  }

  pathOf(name: string): string {
    return path.join(this.root, name)
  }
}

/** True when qpdf's complaint is about the password (wrong, or none given). */
export function isPasswordFailure(result: QpdfResult): boolean {
  return /invalid password/i.test(result.stderr)
}

/** The first error line of qpdf, without the file name it prefixes, for problem details. */
/**
 * 422 invalid_pdf_source for a file qpdf could not open. qpdf's own line (offsets, object
 * numbers, a temporary file's name) is logged as the cause, not sent.
 */
export function unreadablePdf(label: string, result: QpdfResult): ProblemError {
  return problemFromCause(
    'invalid_pdf_source',
    `${label[0]!.toUpperCase()}${label.slice(1)} is not a readable PDF: it is damaged, cut short or not a PDF at all.`,
    qpdfMessage(result),
  )
}

export function qpdfMessage(result: QpdfResult): string {
  const line =
    result.stderr
      .split('\n')
      .map((l) => l.trim())
      .find((l) => l.startsWith('qpdf:') || /error|damaged|unable/i.test(l)) ?? 'qpdf could not read it'
  return line.replace(/^qpdf:\s*/, '').replace(/^[^:]*\.pdf(?: \([^)]*\))?:\s*/, '')
}

import { statSync } from 'node:fs'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { ProblemError, runProgram } from '@docsvc/core/sdk'

// qpdf does the byte work (DESIGN.md §2), as a bounded child process on files in a private
// temporary folder: it never sees a caller's path, and the folder goes away with the job.

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

/** A private folder for one job's files, removed afterwards whatever happens. */
export async function withWorkDir<T>(fn: (dir: WorkDir) => Promise<T>): Promise<T> {
  const root = await mkdtemp(path.join(tmpdir(), 'docsvc-pdf-tools-'))
  try {
    return await fn(new WorkDir(root))
  } finally {
    await rm(root, { recursive: true, force: true })
  }
}

export class WorkDir {
  readonly root: string

  constructor(root: string) {
    this.root = root
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
export function qpdfMessage(result: QpdfResult): string {
  const line =
    result.stderr
      .split('\n')
      .map((l) => l.trim())
      .find((l) => l.startsWith('qpdf:') || /error|damaged|unable/i.test(l)) ?? 'qpdf could not read it'
  return line.replace(/^qpdf:\s*/, '').replace(/^[^:]*\.pdf(?: \([^)]*\))?:\s*/, '')
}

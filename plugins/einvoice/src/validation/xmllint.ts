import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { runProgram } from '@docsvc/core/sdk'

// libxml2's xmllint (Debian libxml2-utils, MIT licence) checks the XML against the XSD as a
// bounded child process: off the event loop, without network (--nonet: every import resolves
// inside the schema folder), ended on its time limit, its output capped, killed on abort.

const OUTPUT_LIMIT = 256 * 1024
const DEFAULT_TIME_LIMIT_MS = 30_000

export interface XmllintRun {
  /** 0 valid, 1 or 2 not well-formed, 3 invalid against the schema, 4 or 5 the schema itself failed */
  exitCode: number
  stderr: string
  /** its messages passed the output cap, so it was stopped: far more errors than shown */
  truncated: boolean
}

/** Runs `xmllint --noout --nonet --schema <xsd>` on the XML (written to a private temporary folder). */
export async function xmllint(
  xml: Buffer,
  schema: string,
  options: { signal: AbortSignal; timeoutMs?: number },
): Promise<XmllintRun> {
  const dir = await mkdtemp(path.join(tmpdir(), 'docsvc-xsd-'))
  try {
    await writeFile(path.join(dir, 'invoice.xml'), xml)
    let result: Awaited<ReturnType<typeof runProgram>>
    try {
      result = await runProgram('xmllint', ['--noout', '--nonet', '--schema', schema, 'invoice.xml'], {
        cwd: dir,
        signal: options.signal,
        timeoutMs: options.timeoutMs ?? DEFAULT_TIME_LIMIT_MS,
        maxBuffer: OUTPUT_LIMIT,
      })
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code
      if (code === 'ENOENT')
        throw new Error('xmllint is not installed on this worker (Debian package libxml2-utils)')
      // only a document with thousands of errors says that much
      if (code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER') return { exitCode: 3, stderr: '', truncated: true }
      throw err
    }
    if (result.timedOut) throw new Error('xmllint took too long')
    if (result.exitCode === null) throw new Error(`xmllint ended by ${result.signal}`)
    return { exitCode: result.exitCode, stderr: result.stderr, truncated: false }
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

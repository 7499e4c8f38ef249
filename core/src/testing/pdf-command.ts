import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

// Running the independent PDF tools (poppler, qpdf, Ghostscript, mupdf) on bytes in a scratch file.

/** Calls `fn` with the bytes in a file of their own, removed afterwards. */
export function withFile<T>(bytes: Buffer, ext: string, fn: (file: string) => T): T {
  const dir = mkdtempSync(path.join(tmpdir(), 'docsvc-pdf-'))
  const file = path.join(dir, `out.${ext}`)
  writeFileSync(file, bytes)
  try {
    return fn(file)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** The command's exit code and its stdout and stderr, without throwing on a failure. */
export function run(command: string, args: string[], cwd?: string): { code: number; out: string } {
  try {
    const out = execFileSync(command, args, {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(cwd ? { cwd } : {}),
    })
    return { code: 0, out }
  } catch (err) {
    const e = err as { status?: number; stdout?: string; stderr?: string }
    return { code: e.status ?? 1, out: `${e.stdout ?? ''}${e.stderr ?? ''}` }
  }
}

import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

// Independent readers of what the service produced: poppler's pdftotext and pdfinfo.

function withFile<T>(bytes: Buffer, ext: string, fn: (file: string) => T): T {
  const dir = mkdtempSync(path.join(tmpdir(), 'docsvc-pdf-'))
  const file = path.join(dir, `out.${ext}`)
  writeFileSync(file, bytes)
  try {
    return fn(file)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

export function pdfText(bytes: Buffer): string {
  return withFile(bytes, 'pdf', (file) =>
    execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }),
  )
}

/** Text of each page, in order. */
export function pdfPageTexts(bytes: Buffer): string[] {
  return pdfText(bytes).split('\f').slice(0, -1)
}

export function pdfInfo(bytes: Buffer): Record<string, string> {
  const out = withFile(bytes, 'pdf', (file) => execFileSync('pdfinfo', [file], { encoding: 'utf8' }))
  return Object.fromEntries(
    out
      .split('\n')
      .map((line) => /^([^:]+):\s*(.*)$/.exec(line))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => [m[1]!.trim(), m[2]!.trim()]),
  )
}

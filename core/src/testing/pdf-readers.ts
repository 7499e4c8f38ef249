import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { run, withFile } from './pdf-command.ts'

// Independent readers of what the service produced, so a test asserts on what a user sees:
// poppler (pdftotext, pdfinfo, pdfdetach, pdffonts), qpdf and mupdf's mutool.

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
  return infoFields(withFile(bytes, 'pdf', (file) => execFileSync('pdfinfo', [file], { encoding: 'utf8' })))
}

// pdfinfo prints `Name:   value` lines
function infoFields(out: string): Record<string, string> {
  return Object.fromEntries(
    out
      .split('\n')
      .map((line) => /^([^:]+):\s*(.*)$/.exec(line))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => [m[1]!.trim(), m[2]!.trim()]),
  )
}

/** `qpdf --check` (with the password, if any): true when the file has no errors. */
export function qpdfCheck(bytes: Buffer, password?: string): { ok: boolean; output: string } {
  return withFile(bytes, 'pdf', (file) => {
    const result = run('qpdf', [
      ...(password !== undefined ? [`--password=${password}`] : []),
      '--check',
      file,
    ])
    return { ok: result.code === 0, output: result.out }
  })
}

/** pdfinfo's fields, opened with a (user or owner) password. */
export function pdfInfoWithPassword(bytes: Buffer, password: string): Record<string, string> | undefined {
  return withFile(bytes, 'pdf', (file) => {
    const result = run('pdfinfo', ['-upw', password, file])
    return result.code === 0 ? infoFields(result.out) : undefined
  })
}

/** Each page's size (points) and rotation, as pdfinfo reports them. */
export function pdfPages(
  bytes: Buffer,
  password?: string,
): { width: number; height: number; rotation: number }[] {
  return withFile(bytes, 'pdf', (file) => {
    const result = run('pdfinfo', [
      ...(password !== undefined ? ['-upw', password] : []),
      '-f',
      '1',
      '-l',
      '100000',
      file,
    ])
    const pages: { width: number; height: number; rotation: number }[] = []
    for (const m of result.out.matchAll(/^Page\s+(\d+) size:\s+([\d.]+) x ([\d.]+) pts/gm))
      pages[Number(m[1]) - 1] = { width: Number(m[2]), height: Number(m[3]), rotation: 0 }
    for (const m of result.out.matchAll(/^Page\s+(\d+) rot:\s+(\d+)/gm))
      pages[Number(m[1]) - 1]!.rotation = Number(m[2])
    return pages
  })
}

/** The embedded files pdfdetach lists, by name. */
export function pdfAttachmentNames(bytes: Buffer): string[] {
  return withFile(bytes, 'pdf', (file) =>
    run('pdfdetach', ['-list', file])
      .out.split('\n')
      .map((l) => /^\d+:\s*(.*)$/.exec(l.trim())?.[1])
      .filter((n): n is string => n !== undefined),
  )
}

/** One embedded file's bytes, saved by pdfdetach. */
export function pdfAttachment(bytes: Buffer, index: number): Buffer {
  return withFile(bytes, 'pdf', (file) => {
    const out = `${file}.attachment`
    run('pdfdetach', ['-save', String(index), '-o', out, file])
    return readFileSync(out)
  })
}

/** Whether mupdf opens the file (with the password, if any) and can draw every page. */
export function mutoolOpens(bytes: Buffer, password?: string): boolean {
  return withFile(bytes, 'pdf', (file) => {
    const pw = password !== undefined ? ['-p', password] : []
    const draw = run('mutool', ['draw', ...pw, '-o', '/dev/null', '-F', 'txt', file])
    return draw.code === 0 && !/cannot|error/i.test(draw.out)
  })
}

/** The XMP packet, as poppler reads it. */
export function pdfXmp(bytes: Buffer): string {
  return withFile(bytes, 'pdf', (file) => run('pdfinfo', ['-meta', file]).out)
}

/** What the qpdf command prints for the file with `args` (e.g. --show-encryption, --json). */
export function qpdfReport(bytes: Buffer, args: string[]): string {
  return withFile(bytes, 'pdf', (file) => run('qpdf', [...args, file]).out)
}

/** pdffonts' table: one row per font with its name, type and whether it is embedded. */
export function pdfFonts(bytes: Buffer): { name: string; type: string; embedded: boolean }[] {
  const out = withFile(bytes, 'pdf', (file) => execFileSync('pdffonts', [file], { encoding: 'utf8' }))
  return out
    .split('\n')
    .slice(2)
    .map((line) => /^(\S+)\s+(.+?)\s{2,}\S+\s+(yes|no)\s+(yes|no)\s+(yes|no)/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ name: m[1]!, type: m[2]!, embedded: m[3] === 'yes' }))
}

/** One page drawn by mupdf to a PNG at `dpi`. */
export function pdfPagePng(bytes: Buffer, page: number, dpi = 36): Buffer {
  return withFile(bytes, 'pdf', (file) => {
    const out = `${file}.png`
    const result = run('mutool', ['draw', '-q', '-r', String(dpi), '-o', out, file, String(page)])
    if (result.code !== 0) throw new Error(`mutool draw failed: ${result.out}`)
    return readFileSync(out)
  })
}

/** Where poppler finds each word of the first page, in points from the top left of the sheet. */
export function pdfWordBoxes(bytes: Buffer): { word: string; xMin: number; yMin: number }[] {
  const out = withFile(bytes, 'pdf', (file) =>
    execFileSync('pdftotext', ['-bbox', '-f', '1', '-l', '1', file, '-'], { encoding: 'utf8' }),
  )
  return [...out.matchAll(/<word xMin="(-?[\d.]+)" yMin="(-?[\d.]+)"[^>]*>([^<]*)<\/word>/g)].map((m) => ({
    word: m[3]!,
    xMin: Number(m[1]),
    yMin: Number(m[2]),
  }))
}

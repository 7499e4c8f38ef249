import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { run } from './pdf-command.ts'

// PDFs no code of ours made (Ghostscript's, qpdf's), as inputs for the PDF tools and the TEST stamp.

function psString(text: string): string {
  return `(${text.replace(/[\\()]/g, (c) => `\\${c}`)})`
}

/** A PDF made by Ghostscript: one page per text, each page `width` x `height` points. */
export function ghostscriptPdf(
  pages: string[],
  size: { width: number; height: number } = { width: 595, height: 842 },
): Buffer {
  const dir = mkdtempSync(path.join(tmpdir(), 'docsvc-gs-'))
  try {
    const program = pages
      .map(
        (text) =>
          `/Helvetica findfont 24 scalefont setfont 72 ${size.height - 100} moveto ${psString(text)} show showpage`,
      )
      .join('\n')
    writeFileSync(path.join(dir, 'pages.ps'), program)
    const out = path.join(dir, 'out.pdf')
    const args = [
      '-q',
      '-dNOPAUSE',
      '-dBATCH',
      '-dSAFER',
      '-sDEVICE=pdfwrite',
      `-dDEVICEWIDTHPOINTS=${size.width}`,
      `-dDEVICEHEIGHTPOINTS=${size.height}`,
      '-dFIXEDMEDIA',
      `-sOutputFile=${out}`,
      path.join(dir, 'pages.ps'),
    ]
    const result = run('gs', args)
    if (result.code !== 0) throw new Error(`gs failed: ${result.out}`)
    return readFileSync(out)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** The PDF rewritten by the qpdf command with `args` (e.g. --linearize, or --encrypt ... --). */
export function qpdfRewrite(bytes: Buffer, args: string[]): Buffer {
  const dir = mkdtempSync(path.join(tmpdir(), 'docsvc-qpdf-'))
  try {
    writeFileSync(path.join(dir, 'in.pdf'), bytes)
    const result = run('qpdf', [...args, 'in.pdf', 'out.pdf'], dir)
    if (result.code !== 0 && result.code !== 3) throw new Error(`qpdf failed: ${result.out}`)
    return readFileSync(path.join(dir, 'out.pdf'))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** The sources' pages in one PDF, as the qpdf command merges them (`--empty --pages ...`). */
export function qpdfMerge(sources: Buffer[]): Buffer {
  const dir = mkdtempSync(path.join(tmpdir(), 'docsvc-qpdf-'))
  try {
    const files = sources.map((bytes, i) => {
      writeFileSync(path.join(dir, `in-${i}.pdf`), bytes)
      return `in-${i}.pdf`
    })
    const result = run('qpdf', ['--empty', '--pages', ...files, '--', 'out.pdf'], dir)
    if (result.code !== 0 && result.code !== 3) throw new Error(`qpdf failed: ${result.out}`)
    return readFileSync(path.join(dir, 'out.pdf'))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

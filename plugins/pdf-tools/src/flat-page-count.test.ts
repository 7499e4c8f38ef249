import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { flatTreePageCount } from './flat-page-count.ts'

const work = mkdtempSync(path.join(tmpdir(), 'flat-count-'))

function ghostscript(name: string, pages: number): string {
  const file = path.join(work, `${name}.pdf`)
  const ps = path.join(work, `${name}.ps`)
  writeFileSync(
    ps,
    Array.from(
      { length: pages },
      (_, i) => `/Helvetica findfont 20 scalefont setfont 72 700 moveto (${name} ${i}) show showpage`,
    ).join('\n'),
  )
  execFileSync('gs', [
    '-q',
    '-dNOPAUSE',
    '-dBATCH',
    '-dSAFER',
    '-sDEVICE=pdfwrite',
    `-sOutputFile=${file}`,
    ps,
  ])
  return file
}

function merged(args: string[]): Buffer {
  const out = path.join(work, `merged-${Math.random().toString(36).slice(2)}.pdf`)
  execFileSync('qpdf', ['--empty', '--pages', ...args, '--', out])
  return readFileSync(out)
}

describe('flatTreePageCount', () => {
  const three = ghostscript('three', 3)
  const five = ghostscript('five', 5)

  it('reads the count of a file qpdf merged, as qpdf itself does', () => {
    const bytes = merged([three, five, three])
    expect(flatTreePageCount(bytes)).toBe(11)
  })

  it('reads it too when the sources had object streams', () => {
    const packed = path.join(work, 'packed.pdf')
    execFileSync('qpdf', ['--object-streams=generate', five, packed])
    expect(flatTreePageCount(merged([packed, three]))).toBe(8)
  })

  it('answers undefined for files not shaped that way, so the caller asks qpdf', () => {
    const packed = path.join(work, 'packed-out.pdf')
    execFileSync('qpdf', ['--object-streams=generate', five, packed])
    // the page tree inside an object stream: not readable as text
    expect(flatTreePageCount(readFileSync(packed))).toBeUndefined()
    const bytes = merged([three])
    // a count that the /Page dictionaries do not back
    expect(
      flatTreePageCount(Buffer.from(bytes.toString('latin1').replace('/Count 3', '/Count 4'), 'latin1')),
    ).toBeUndefined()
    // a second /Pages dictionary: a tree, not a flat list
    expect(
      flatTreePageCount(Buffer.concat([bytes, Buffer.from('<< /Count 1 /Type /Pages >>')])),
    ).toBeUndefined()
    expect(flatTreePageCount(Buffer.from('%PDF-1.7 not really'))).toBeUndefined()
  })
})

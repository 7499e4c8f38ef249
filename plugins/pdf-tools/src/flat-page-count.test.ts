import { ghostscriptPdf, qpdfMerge, qpdfRewrite } from '@docsvc/core/testing'
import { describe, expect, it } from 'vitest'
import { flatTreePageCount } from './flat-page-count.ts'

const pages = (n: number, label: string) => Array.from({ length: n }, (_, i) => `${label} ${i + 1}`)

describe('flatTreePageCount', () => {
  const three = ghostscriptPdf(pages(3, 'three'))
  const five = ghostscriptPdf(pages(5, 'five'))
  const packed = qpdfRewrite(five, ['--object-streams=generate'])

  it('reads the count of a file qpdf merged, as qpdf itself does', () => {
    expect(flatTreePageCount(qpdfMerge([three, five, three]))).toBe(11)
  })

  it('reads it too when the sources had object streams', () => {
    expect(flatTreePageCount(qpdfMerge([packed, three]))).toBe(8)
  })

  it('answers undefined for files not shaped that way, so the caller asks qpdf', () => {
    // the page tree inside an object stream: not readable as text
    expect(flatTreePageCount(packed)).toBeUndefined()
    const merged = qpdfMerge([three])
    // a count that the /Page dictionaries do not back
    const miscounted = Buffer.from(merged.toString('latin1').replace('/Count 3', '/Count 4'), 'latin1')
    expect(flatTreePageCount(miscounted)).toBeUndefined()
    // a second /Pages dictionary: a tree, not a flat list
    expect(
      flatTreePageCount(Buffer.concat([merged, Buffer.from('<< /Count 1 /Type /Pages >>')])),
    ).toBeUndefined()
    expect(flatTreePageCount(Buffer.from('%PDF-1.7 not really'))).toBeUndefined()
  })
})

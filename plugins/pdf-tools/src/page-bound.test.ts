import { ghostscriptPdf, qpdfRewrite } from '@docsvc/core/testing'
import { describe, expect, it } from 'vitest'
import { PAGE_BOUND_MAX_BYTES, pageCountBound } from './page-bound.ts'

describe('pageCountBound', () => {
  const three = ghostscriptPdf(['one', 'two', 'three'])

  it('counts the page dictionaries of a file without object streams', () => {
    expect(pageCountBound(three)).toBe(3)
    expect(pageCountBound(qpdfRewrite(three, ['--object-streams=disable']))).toBe(3)
  })

  it('gives no bound when object streams may hide pages, or for a file too large to scan', () => {
    expect(pageCountBound(qpdfRewrite(three, ['--object-streams=generate']))).toBeUndefined()
    const large = Buffer.concat([three, Buffer.alloc(PAGE_BOUND_MAX_BYTES)])
    expect(pageCountBound(large)).toBeUndefined()
  })

  it('counts /Type /Page in its spellings, never /Pages', () => {
    const text =
      '<< /Type /Pages /Kids [] >> << /Type/Page >> << /Type\n/Page /Parent 1 0 R >> << /Type /PageLabel >>'
    expect(pageCountBound(Buffer.from(text, 'latin1'))).toBe(2)
  })
})

import { describe, expect, it } from 'vitest'
import { pageSyntaxProblems, parsePages, qpdfPageRange, resolvePages } from './page-ranges.ts'

describe('page lists of rotate and split', () => {
  it('reads all, single pages, ranges, open ranges and lists of them', () => {
    expect(parsePages('all')).toEqual([{ from: 1, to: undefined }])
    expect(parsePages('7')).toEqual([{ from: 7, to: 7 }])
    expect(parsePages(' 1, 3-5 ,4- ')).toEqual([
      { from: 1, to: 1 },
      { from: 3, to: 5 },
      { from: 4, to: undefined },
    ])
    expect(resolvePages('1,3-5', 5, 'pages')).toEqual([1, 3, 4, 5])
    expect(resolvePages('4-', 6, 'pages')).toEqual([4, 5, 6])
    expect(resolvePages('all', 3, 'pages')).toEqual([1, 2, 3])
  })

  it('refuses 0, -1, 3-1, a-b and an empty list, naming the field', () => {
    for (const text of ['0', '-1', '3-1', 'a-b', '', '1,,2', '2-3-4']) {
      const problems = pageSyntaxProblems('/pages', text)
      expect(problems, text).toHaveLength(1)
      expect(problems[0]).toMatchObject({ path: '/pages', code: 'invalid_pages' })
    }
    expect(pageSyntaxProblems('/ranges/2', '3-1')[0]!.message).toContain('runs backwards')
  })

  it('names a page beyond the document', () => {
    expect(() => resolvePages('1,3-5', 4, 'pages')).toThrow(/page 5, but the document has 4 pages/)
    expect(() => resolvePages('5-', 4, 'ranges[1]')).toThrowError(
      expect.objectContaining({
        code: 'validation_error',
        extras: { errors: [expect.objectContaining({ path: '/ranges/1' })] },
      }),
    )
  })

  it('writes a list in qpdf range syntax, open ranges to the last page (z)', () => {
    expect(qpdfPageRange('all')).toBe('1-z')
    expect(qpdfPageRange('1, 3-5 ,7,4-')).toBe('1,3-5,7,4-z')
    expect(qpdfPageRange('2-2')).toBe('2')
  })
})

import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { PROBLEM_CODES, type ProblemCode, RESERVED_PROBLEM_CODES } from './problem-codes.ts'

const ROOT = fileURLToPath(new URL('../../..', import.meta.url))
const SOURCE_DIRS = ['core/src', 'plugins', 'providers', 'cli/src']
const TABLE = path.join(ROOT, 'core/src/kernel/problem-codes.ts')

/** Every TypeScript and JavaScript source file that is not a test, fixture or the table itself. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory())
      return entry.name === 'node_modules' || entry.name === 'dist' ? [] : sourceFiles(full)
    if (!/\.(ts|js)$/.test(entry.name) || /\.(test|fixture)\.(ts|js)$/.test(entry.name)) return []
    return full === TABLE ? [] : [full]
  })
}

// A code counts as answered when some source names it as a string ('code' or "code"): a
// ProblemError, a render error, a `code:` field. Tests do not count: they only expect codes.
const sources = SOURCE_DIRS.flatMap((dir) => sourceFiles(path.join(ROOT, dir))).map((file) =>
  readFileSync(file, 'utf8'),
)
const named = (code: string) =>
  sources.some((text) => text.includes(`'${code}'`) || text.includes(`"${code}"`))
const codes = Object.keys(PROBLEM_CODES) as ProblemCode[]

describe('the problem table (SPEC 7.3)', () => {
  it('has no code that nothing answers unless it is reserved for a named issue', () => {
    const silent = codes.filter((code) => !named(code) && !RESERVED_PROBLEM_CODES[code])
    expect(silent, 'answer these where they belong, or reserve them in RESERVED_PROBLEM_CODES').toEqual([])
  })

  it('reserves only codes nothing answers yet: a code that got its case leaves the list', () => {
    const answered = Object.keys(RESERVED_PROBLEM_CODES).filter(named)
    expect(answered, 'remove these from RESERVED_PROBLEM_CODES').toEqual([])
  })

  it('names an open issue for each reserved code', () => {
    for (const [code, reason] of Object.entries(RESERVED_PROBLEM_CODES)) {
      expect(codes, code).toContain(code)
      expect(reason, code).toMatch(/^issue \d+ /)
    }
  })
})

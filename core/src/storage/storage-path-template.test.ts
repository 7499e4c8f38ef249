import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { checkStoragePut } from '../sdk/storage-contracts.ts'
import {
  DEFAULT_PATH_TEMPLATE,
  expandPathTemplate,
  PATH_PLACEHOLDERS,
  type PathPlaceholder,
  type PathValues,
  pathTemplateProblems,
} from './storage-path-template.ts'

const NAMES = Object.keys(PATH_PLACEHOLDERS) as PathPlaceholder[]
// the shared put rules every destination applies (no `..`, no absolute path, no control character)
const LIMITS = { maxObjectBytes: 1, maxPathBytes: 64 * 1024 }
const isSafe = (path: string) => {
  checkStoragePut(LIMITS, path, 0)
  return true
}

const hostileValue = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 300 }),
  fc.string({ unit: 'binary', maxLength: 50 }),
  fc.constantFrom(
    '',
    '.',
    '..',
    '../..',
    '/',
    '/etc/passwd',
    '\\',
    'a\\..\\b',
    '\u0000',
    '\n',
    '\u0085',
    '\ud800',
    '....',
  ),
  fc
    .array(fc.constantFrom('.', '/', '..', '\\', 'a', '\u0000', '%2e'), { maxLength: 12 })
    .map((a) => a.join('')),
)
const hostileValues: fc.Arbitrary<PathValues> = fc.record(
  Object.fromEntries(NAMES.map((n) => [n, hostileValue])) as Record<PathPlaceholder, fc.Arbitrary<string>>,
)

// valid templates: segments of literal text (dots allowed, not alone) and placeholders
const literal = fc.stringMatching(/^[A-Za-z0-9_.\- ]{1,8}$/)
const piece = fc.oneof(
  literal,
  fc.constantFrom(...NAMES).map((n) => `{{ ${n} }}`),
)
const segment = fc
  .array(piece, { minLength: 1, maxLength: 4 })
  .map((pieces) => pieces.join(''))
  .filter((s) => s !== '.' && s !== '..')
const validTemplate = fc
  .tuple(
    fc.array(segment, { maxLength: 4 }),
    fc.constantFrom('{{ file.index }}', '{{ file.name }}.{{ file.ext }}'),
  )
  .map(([dirs, last]) => [...dirs, last].join('/'))

describe('path templates (SPEC 2.8 path_template)', () => {
  it('accepts the default and expands it', () => {
    expect(pathTemplateProblems(DEFAULT_PATH_TEMPLATE)).toEqual([])
    const values = Object.fromEntries(NAMES.map((n) => [n, 'v'])) as PathValues
    expect(
      expandPathTemplate('{{date.year}}/{{ render.reference }}/{{file.index}}-{{file.name}}.{{file.ext}}', {
        ...values,
        'date.year': '2026',
        'render.reference': 'INV-7',
        'file.index': '0',
        'file.name': 'invoice',
        'file.ext': 'pdf',
      }),
    ).toBe('2026/INV-7/0-invoice.pdf')
  })

  it.each([
    ['../{{ file.index }}', 'unsafe_path'],
    ['a/../{{ file.index }}', 'unsafe_path'],
    ['./{{ file.index }}', 'unsafe_path'],
    ['/abs/{{ file.index }}', 'unsafe_path'],
    ['a//{{ file.index }}', 'unsafe_path'],
    ['{{ file.index }}/', 'unsafe_path'],
    ['a\\{{ file.index }}', 'unsafe_path'],
    ['a\u0000{{ file.index }}', 'unsafe_path'],
    ['a\n{{ file.index }}', 'unsafe_path'],
    ['{{ render.secret }}/{{ file.index }}', 'unknown_placeholder'],
    ['{{ file.index }}{{', 'unclosed_placeholder'],
    ['{{ render.id }}.pdf', 'missing_file_placeholder'],
  ])('refuses %j (%s)', (template, code) => {
    expect(pathTemplateProblems(template).map((p) => p.code)).toContain(code)
    expect(pathTemplateProblems(template)[0]!.path).toBe('/path_template')
  })

  it('never lets a value of any valid template leave its segment or the destination', () => {
    fc.assert(
      fc.property(validTemplate, hostileValues, (template, values) => {
        expect(pathTemplateProblems(template)).toEqual([])
        const path = expandPathTemplate(template, values)
        expect(isSafe(path)).toBe(true)
        // values add no segment: the template's slashes are the path's slashes
        expect(path.split('/').length).toBe(template.split('/').length)
      }),
      { numRuns: 2000 },
    )
  })

  it('expands every template it accepts, however it was written, to a safe path', () => {
    const anyTemplate = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 60 }),
      fc
        .array(
          fc.oneof(
            fc.constantFrom('/', '.', '..', '\\', '{{', '}}', ' ', '{{ file.index }}', '{{ file.name }}'),
            literal,
          ),
          {
            maxLength: 10,
          },
        )
        .map((a) => a.join('')),
    )
    fc.assert(
      fc.property(anyTemplate, hostileValues, (template, values) => {
        if (pathTemplateProblems(template).length > 0) return
        expect(isSafe(expandPathTemplate(template, values))).toBe(true)
      }),
      { numRuns: 2000 },
    )
  })
})

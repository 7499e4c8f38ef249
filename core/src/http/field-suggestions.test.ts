import { Type } from 'typebox'
import { describe, expect, it } from 'vitest'
import { fieldsAt, suggestField } from './field-suggestions.ts'

const Pdf = Type.Object({
  landscape: Type.Optional(Type.Boolean()),
  page_ranges: Type.Optional(Type.String()),
  format: Type.Optional(Type.String()),
})
const Wait = Type.Object({ until: Type.Optional(Type.String()), selector: Type.Optional(Type.String()) })
const Body = Type.Object({
  url: Type.String(),
  filename: Type.Optional(Type.String()),
  pdf: Type.Optional(Type.Union([Pdf, Type.Null()])),
  wait: Type.Optional(Wait),
  events: Type.Optional(Type.Array(Type.Object({ kind: Type.String() }))),
})

describe('did you mean', () => {
  it('reads the fields of an object through unions and arrays', () => {
    expect(fieldsAt(Body, ['pdf'])).toEqual(['landscape', 'page_ranges', 'format'])
    expect(fieldsAt(Body, ['events', '0'])).toEqual(['kind'])
    expect(fieldsAt(Body, ['nothing'])).toEqual([])
  })

  it('finds a typo beside the field, in any case or separator style', () => {
    expect(suggestField(Body, [], 'filenme')).toBe('filename')
    expect(suggestField(Body, ['pdf'], 'pageRanges')).toBe('pdf.page_ranges')
    expect(suggestField(Body, ['pdf'], 'page_range')).toBe('pdf.page_ranges')
  })

  it('finds a field sent one level too high', () => {
    expect(suggestField(Body, [], 'landscape')).toBe('pdf.landscape')
    expect(suggestField(Body, [], 'selector')).toBe('wait.selector')
  })

  it('finds a field sent one level too deep, and one named after its object (waitUntil)', () => {
    expect(suggestField(Body, ['pdf'], 'wait')).toBe('wait')
    expect(suggestField(Body, ['pdf'], 'waitUntil')).toBe('wait.until')
  })

  it('suggests nothing when no field is close', () => {
    expect(suggestField(Body, [], 'colour')).toBeUndefined()
    expect(suggestField(Body, ['pdf'], 'watermark')).toBeUndefined()
  })
})

import type { TObject, TSchema } from 'typebox'
import { Value } from 'typebox/value'
import { describe, expect, it } from 'vitest'
import { fieldStatus, matrixPaths, modelFields, PROFILE_IDS, profileSchema } from './profile-matrix.ts'

const minimal = {
  number: 'RE-1',
  issue_date: '2026-11-25',
  type_code: '380',
  currency: 'EUR',
  seller: { name: 'Muster GmbH', address: { country: 'DE' } },
  buyer: { name: 'Beispiel AG' },
  totals: { tax_exclusive: '100', vat_total: '19', tax_inclusive: '119', due_payable: '119' },
}

function walk(schema: TSchema, visit: (o: TObject) => void) {
  const s = schema as Record<string, unknown>
  if (s.type === 'array') return walk(s.items as TSchema, visit)
  if (s.type !== 'object' || !s.properties) return
  visit(schema as TObject)
  for (const child of Object.values(s.properties as Record<string, TSchema>)) walk(child, visit)
}

describe('the per-profile field matrix', () => {
  it('names only fields the schema has, and every field names its EN 16931 term', () => {
    const paths = new Set(modelFields().map((f) => f.path))
    expect(matrixPaths().filter((p) => !paths.has(p))).toEqual([])
    expect(
      modelFields().filter((f) => !/^B[TG]-\d+/.test(f.term) || !f.description.startsWith(f.term)),
    ).toEqual([])
  })

  it('gives every profile a schema whose required fields it carries', () => {
    for (const profile of PROFILE_IDS)
      walk(profileSchema(profile), (o) => {
        const missing = ((o.required ?? []) as string[]).filter((k) => !(k in o.properties))
        expect(missing, profile).toEqual([])
      })
  })

  it('refuses what a profile does not carry instead of dropping it', () => {
    expect(Value.Check(profileSchema('MINIMUM'), minimal)).toBe(true)
    expect(Value.Check(profileSchema('MINIMUM'), { ...minimal, notes: [{ text: 'hello' }] })).toBe(false)
    expect(Value.Check(profileSchema('BASIC_WL'), { ...minimal, notes: [{ text: 'hello' }] })).toBe(true)
    expect(fieldStatus('lines', 'MINIMUM', false)).toBe('computing_only')
    expect(fieldStatus('lines[].description', 'BASIC', false)).toBe('not_carried')
    expect(fieldStatus('lines[].description', 'EN16931', false)).toBe('optional')
  })

  it('adds the XRechnung requirements (BR-DE-*) only to XRECHNUNG', () => {
    expect(fieldStatus('buyer_reference', 'XRECHNUNG', false)).toBe('required')
    expect(fieldStatus('buyer_reference', 'EN16931', false)).toBe('optional')
    expect(fieldStatus('seller.contact.email', 'XRECHNUNG', false)).toBe('required')
    const xr = profileSchema('XRECHNUNG')
    expect(Value.Check(xr, minimal)).toBe(false)
    expect(xr.required).toEqual(expect.arrayContaining(['buyer_reference', 'payment', 'lines']))
  })
})

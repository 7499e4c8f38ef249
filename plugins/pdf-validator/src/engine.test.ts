import { describe, expect, it } from 'vitest'
import { evaluate } from './engine.ts'
import type { ModelTypes } from './model/model-object.ts'
import { compileExpression, freeNames } from './profile/compile-test.ts'

describe('profile expressions', () => {
  it('reads the object properties a test names, not its strings, regular expressions or arrow parameters', () => {
    expect(freeNames('headerOffset == 0 && /^%PDF-1\\.[0-7]$/.test(header)')).toEqual([
      'headerOffset',
      'header',
    ])
    expect(
      freeNames("entries.split('&').filter(elem => elem != 'UR3').length == 0 || entries == ''"),
    ).toEqual(['entries'])
    expect(freeNames('fontName.search(/[A-Z]{6}\\+/) != 0 || Math.abs(top - bottom) >= 3')).toEqual([
      'fontName',
      'top',
      'bottom',
    ])
  })

  it("says veraPDF's Java idioms in JavaScript", () => {
    expect(compileExpression('lastID != null && lastID.length() > 0').run({ lastID: 'ab' })).toBe(true)
    expect(compileExpression('lastID != null && lastID.length() > 0').run({ lastID: '' })).toBe(false)
    expect(
      compileExpression("parentsTags.contains('Artifact') == false").run({ parentsTags: ['P', 'Artifact'] }),
    ).toBe(false)
  })
})

describe('the engine', () => {
  const types: ModelTypes = { CosDocument: { props: ['headerOffset', 'header'] } }

  it('claims only the rules whose object and properties the model builds, and reports the broken ones', () => {
    const { rulesChecked, findings } = evaluate('pdfa-2b', types, [
      { type: 'CosDocument', context: 'document', props: { headerOffset: 3, header: '%PDF-1.7' } },
    ])
    // 6.1.2-1 reads headerOffset and header; 6.1.2-2 reads headerByte1..4, which this model lacks
    expect(rulesChecked).toEqual(['6.1.2-1'])
    expect(findings).toEqual([
      expect.objectContaining({ ruleId: '6.1.2-1', clause: '6.1.2', severity: 'error', object: 'document' }),
    ])
    expect(findings[0]?.message).toContain('offset = 3')
  })

  it('drops a rule from rulesChecked, and does not run it, where an object leaves a property it reads unsettled', () => {
    const { rulesChecked, findings } = evaluate('pdfa-2b', types, [
      {
        type: 'CosDocument',
        context: 'document',
        props: { headerOffset: 3, header: null },
        unknown: ['header'],
      },
    ])
    expect(rulesChecked).toEqual([])
    expect(findings).toEqual([])
  })
})

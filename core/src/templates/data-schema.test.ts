import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { dataProblems, dataSchemaError } from './data-schema.ts'

const MODULE = fileURLToPath(new URL('./data-schema.ts', import.meta.url))

describe("tenants' data schemas", () => {
  it('check a catastrophic-backtracking pattern in linear time (issue 13 item 5)', () => {
    // in a child process with a deadline: with a backtracking engine this call holds its thread
    // for hours, and a test in our own process could not even time out
    const script = `
      import { dataProblems } from ${JSON.stringify(MODULE)}
      const schema = { type: 'object', properties: { name: { type: 'string', pattern: '^(a+)+$' } } }
      const problems = dataProblems(schema, { name: 'a'.repeat(5000) + '!' }, '/data')
      console.log(JSON.stringify(problems.map((p) => p.path + ' ' + p.code)))
    `
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      timeout: 20_000,
      encoding: 'utf8',
    })
    expect(child.signal, 'the check did not finish within 20 s').toBeNull()
    expect(child.stderr).toBe('')
    expect(JSON.parse(child.stdout)).toEqual(['/data/name pattern'])
  })

  it('keep JSON Schema pattern semantics: unanchored, and patternProperties', () => {
    const schema = {
      type: 'object',
      properties: { sku: { type: 'string', pattern: '[0-9]{3}' } },
      patternProperties: { '^x-': { type: 'number' } },
    }
    expect(dataProblems(schema, { sku: 'AB-123-C', 'x-rate': 2 }, '/data')).toEqual([])
    expect(dataProblems(schema, { sku: 'AB-12', 'x-rate': 'two' }, '/data').map((p) => p.path)).toEqual([
      '/data/sku',
      '/data/x-rate',
    ])
  })

  it('word problems as every request problem is: values listed once, unknown fields named', () => {
    const schema = {
      type: 'object',
      properties: { status: { anyOf: [{ const: 'paid' }, { const: 'due' }] } },
      additionalProperties: false,
    }
    expect(dataProblems(schema, { status: 'open', colour: 'red' }, '/data')).toEqual([
      { path: '/data/colour', code: 'unknown_field', message: 'is not a known field' },
      { path: '/data/status', code: 'enum', message: 'must be one of: paid, due' },
    ])
  })

  it('refuse lookaround and backreferences, which have no linear-time match, with a reason', () => {
    for (const pattern of ['^(?=a)a$', '(a)\\1']) {
      const error = dataSchemaError({ type: 'string', pattern })
      expect(error, pattern).toMatch(/regexp/i)
    }
  })
})

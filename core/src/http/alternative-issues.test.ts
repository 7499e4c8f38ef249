import { Ajv } from 'ajv'
import { Type } from 'typebox'
import { describe, expect, it } from 'vitest'
import { issuesToProblems } from './validation-errors.ts'

// ajv's errors for unions, as the formatter turns them into errors[]: one error at the field
// listing the accepted values, or the errors inside the alternative the value was meant for.

const ajv = new Ajv({ allErrors: true, strict: false })
const Body = Type.Object(
  {
    format: Type.Optional(Type.Union([Type.Literal('A4'), Type.Literal('Letter'), Type.Null()])),
    degrees: Type.Optional(Type.Union([90, 180, 270].map((d) => Type.Literal(d)))),
    delivery: Type.Optional(
      Type.Union([
        Type.Literal('url'),
        Type.Literal('binary'),
        Type.Object(
          {
            type: Type.Union([Type.Literal('url'), Type.Literal('binary')]),
            note: Type.Optional(Type.String()),
          },
          { additionalProperties: false },
        ),
        Type.Null(),
      ]),
    ),
    events: Type.Optional(
      Type.Array(Type.Union([Type.Literal('render.succeeded'), Type.Literal('render.failed')])),
    ),
    name: Type.Optional(Type.Union([Type.String({ minLength: 1 }), Type.Null()])),
    theme: Type.Optional(Type.Enum(['light', 'dark'])),
  },
  { additionalProperties: false },
)
const validate = ajv.compile(Body)

function problemsOf(value: unknown) {
  expect(validate(value)).toBe(false)
  return issuesToProblems(validate.errors ?? [])
}

describe('union errors', () => {
  it('lists the values of a union of literals once, at the field, with the other kinds it takes', () => {
    expect(problemsOf({ format: 'a4' })).toEqual([
      { path: '/format', code: 'enum', message: 'must be one of: A4, Letter (or null)' },
    ])
    // a value of the wrong type reads the same: the type errors of the literals are not repeated
    expect(problemsOf({ format: 4 })).toEqual([
      { path: '/format', code: 'enum', message: 'must be one of: A4, Letter (or null)' },
    ])
  })

  it('lists numbers as numbers', () => {
    expect(problemsOf({ degrees: 45 })).toEqual([
      { path: '/degrees', code: 'enum', message: 'must be one of: 90, 180, 270' },
    ])
  })

  it('names an object alternative as a kind beside the values', () => {
    expect(problemsOf({ delivery: 'bin' })).toEqual([
      { path: '/delivery', code: 'enum', message: 'must be one of: url, binary (or an object or null)' },
    ])
  })

  it('reports inside the object when the value is one: its field, not the union', () => {
    expect(problemsOf({ delivery: { type: 'bin' } })).toEqual([
      { path: '/delivery/type', code: 'enum', message: 'must be one of: url, binary' },
    ])
    expect(problemsOf({ delivery: { type: 'url', colour: 1 } })).toEqual([
      { path: '/delivery/colour', code: 'unknown_field', message: 'is not a known field' },
    ])
  })

  it('points at the array item', () => {
    expect(problemsOf({ events: ['render.succeeded', 'render.done'] })).toEqual([
      { path: '/events/1', code: 'enum', message: 'must be one of: render.succeeded, render.failed' },
    ])
  })

  it('keeps the specific error of the alternative a value is of (a too short string)', () => {
    expect(problemsOf({ name: '' })).toEqual([expect.objectContaining({ path: '/name', code: 'minLength' })])
  })

  it('words enum keywords the same way', () => {
    expect(problemsOf({ theme: 'blue' })).toEqual([
      { path: '/theme', code: 'enum', message: 'must be one of: light, dark' },
    ])
  })
})

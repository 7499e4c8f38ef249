import type { BadInputCase, BadInputTarget } from './bad-input-case.ts'
import { PROBE_FIELD_TYPES } from './bad-input-routes.ts'
import { problemOf } from './problem-check.ts'
import type { SeededRandom } from './seeded-random.ts'
import { fetchWire, type WireResponse } from './wire-client.ts'

// Cases aimed at the JSON bodies the routes read.

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'
const PROBE = '/v1/probe/itm_1'

function postJson(t: BadInputTarget, body: string | Buffer, { key = true, type = 'application/json' } = {}) {
  const headers: Record<string, string> = { 'content-type': type }
  if (key) headers.authorization = `Bearer ${t.key}`
  return () => fetchWire(`${t.base}${PROBE}`, { method: 'POST', headers, body })
}

/** The answer's errors[] names this JSON Pointer. */
function pointsAt(path: string, code?: string) {
  return (res: WireResponse): string[] => {
    const errors = problemOf(res).errors ?? []
    const hit = errors.some((e) => e.path === path && (code === undefined || e.code === code))
    return hit
      ? []
      : [`errors[] lacks ${path}${code ? ` (${code})` : ''}: ${JSON.stringify(errors.slice(0, 5))}`]
  }
}

export function randomBodies(r: SeededRandom, t: BadInputTarget, count: number): BadInputCase[] {
  const makers: [string, () => string | Buffer][] = [
    ['random bytes', () => r.bytes(r.int(2, 4096))],
    ['random unicode', () => r.unicode(r.int(2, 500))],
    ['truncated JSON', () => '{"name":"abc","tags":["x"'.slice(0, r.int(1, 24))],
    ['trailing garbage', () => `{"name":"a"}${r.text(r.int(1, 20), ALNUM)}`],
    ['single quotes', () => "{'name':'a'}"],
    ['comments', () => '{"name":"a" /* hi */}'],
    ['NaN', () => '{"name":"a","ratio":NaN}'],
    ['lone surrogate escape', () => '{"name":"\\ud800x","count":"'],
  ]
  const cases: BadInputCase[] = Array.from({ length: count }, (_, i) => {
    const [kind, make] = makers[i % makers.length] as [string, () => string | Buffer]
    const body = make()
    const keyed = r.next() < 0.85
    return {
      label: `${keyed ? '' : 'unkeyed '}JSON POST body/${kind}(${body.length})`,
      send: postJson(t, body, { key: keyed }),
      expect: keyed
        ? { status: 400, codes: ['invalid_json', 'validation_error'] }
        : { status: 401, codes: ['authentication_required'] },
    }
  })
  const otherTypes: [string, number | undefined][] = [
    ['text/plain', 415],
    ['application/x-www-form-urlencoded', 415],
    ['multipart/form-data; boundary=xyz', 415],
    ['application/xml', 415],
    ['application/json; charset=utf-999', 400],
    ['application/vnd.weird+json', 400],
    [r.text(r.int(1, 30), ALNUM), undefined],
    ['', 415],
  ]
  for (const [type, status] of otherTypes) {
    cases.push({
      label: `JSON POST with Content-Type ${JSON.stringify(type)}`,
      send: postJson(t, r.next() < 0.5 ? r.bytes(64) : '{"nope":1}', { type }),
      ...(status ? { expect: { status } } : {}),
    })
  }
  return cases
}

const WRONG_VALUES: Record<string, string[]> = {
  string: ['5', 'true', 'null', '[]', '{}', '1.5'],
  integer: ['"7"', '1.5', 'true', 'null', '[]', '{}', '1e400', '"1"'],
  number: ['"1.5"', 'false', 'null', '[1]', '{}'],
  boolean: ['"true"', '1', '0', 'null', '[]'],
  array: ['"a,b"', '1', '{}', 'null', 'true'],
  object: ['"fast"', '[]', '1', 'null', 'false'],
}

export function wrongTypes(r: SeededRandom, t: BadInputTarget, count: number): BadInputCase[] {
  const fields = Object.keys(PROBE_FIELD_TYPES)
  const cases: BadInputCase[] = Array.from({ length: count }, () => {
    const field = r.pick(fields)
    const value = r.pick(WRONG_VALUES[PROBE_FIELD_TYPES[field] as string] as string[])
    const body = field === 'name' ? `{"name":${value}}` : `{"name":"ok","${field}":${value}}`
    return {
      label: `wrong type ${body}`,
      send: postJson(t, body),
      expect: { status: 400, codes: ['validation_error'] },
      check: pointsAt(`/${field}`),
    }
  })
  const outOfRange: [string, string, string][] = [
    ['{}', '/name', 'required'],
    ['{"name":""}', '/name', 'minLength'],
    [`{"name":"${'n'.repeat(101)}"}`, '/name', 'maxLength'],
    ['{"name":"a","count":-1}', '/count', 'minimum'],
    ['{"name":"a","count":1001}', '/count', 'maximum'],
    [`{"name":"a","tags":${JSON.stringify(Array(21).fill('t'))}}`, '/tags', 'maxItems'],
    ['{"name":"a","tags":["ok",5]}', '/tags/1', 'type'],
    ['{"name":"a","options":{"mode":"slow"}}', '/options/mode', 'enum'],
    ['{"name":"a","options":{"depth":"deep"}}', '/options/depth', 'type'],
    ['{"name":"a","extra":1}', '/extra', 'unknown_field'],
    ['{"name":"a","options":{"x~y/z":1}}', '/options/x~0y~1z', 'unknown_field'],
    [`{"name":"a","${r.unicode(5).replace(/["\\]/g, '')}":1}`, '', 'unknown_field'],
  ]
  for (const [body, path, code] of outOfRange) {
    cases.push({
      label: `invalid ${body.slice(0, 60)}`,
      send: postJson(t, body),
      expect: { status: 400, codes: ['validation_error'] },
      // the unicode field name's pointer is not predictable here; the code is
      check:
        path === ''
          ? (res) => (problemOf(res).errors?.some((e) => e.code === code) ? [] : ['no unknown_field'])
          : pointsAt(path, code),
    })
  }
  for (const body of ['null', 'true', '5', '"str"', '[]', '[{"name":"a"}]']) {
    cases.push({
      label: `top-level ${body}`,
      send: postJson(t, body),
      expect: { status: 400, codes: ['validation_error'] },
      check: pointsAt(''),
    })
  }
  return cases
}

export function deepAndHuge(t: BadInputTarget): BadInputCase[] {
  const deep = (n: number) => '['.repeat(n) + ']'.repeat(n)
  const deepObject = (n: number) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`
  const invalidJson = { status: 400, codes: ['invalid_json'] } as const
  const invalid = { status: 400, codes: ['validation_error'] } as const
  return [
    { label: '10,000-deep arrays', send: postJson(t, deep(10_000)), expect: invalidJson },
    { label: '10,000-deep objects', send: postJson(t, deepObject(10_000)), expect: invalidJson },
    {
      label: '10,000-deep inside a field',
      send: postJson(t, `{"name":"a","options":${deepObject(10_000)}}`),
      expect: invalidJson,
    },
    { label: '100,000 unclosed brackets', send: postJson(t, '['.repeat(100_000)), expect: invalidJson },
    {
      // brackets inside a string are text, not nesting
      label: '10,000 brackets inside a string',
      send: postJson(t, `{"name":"${'['.repeat(10_000)}"}`),
      expect: invalid,
      check: pointsAt('/name', 'maxLength'),
    },
    {
      label: 'escaped quote then brackets inside a string',
      send: postJson(t, `{"name":"\\"${'{'.repeat(600)}"}`),
      expect: invalid,
      check: pointsAt('/name', 'maxLength'),
    },
    {
      label: '1,000,000-element top-level array',
      send: postJson(t, JSON.stringify(Array(1_000_000).fill(0))),
      expect: invalid,
      check: pointsAt(''),
    },
    {
      label: '200,000 valid tags',
      send: postJson(t, JSON.stringify({ name: 'a', tags: Array(200_000).fill('t') })),
      expect: invalid,
      check: pointsAt('/tags', 'maxItems'),
    },
    {
      label: '20,000 tags of the wrong type',
      send: postJson(t, JSON.stringify({ name: 'a', tags: Array(20_000).fill(1) })),
      expect: invalid,
      check: pointsAt('/tags', 'maxItems'),
    },
    {
      label: '10,000 unknown option keys',
      send: postJson(
        t,
        JSON.stringify({
          name: 'a',
          options: Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`k${i}`, i])),
        }),
      ),
      expect: invalid,
    },
    {
      label: '1,000,000 nested pairs',
      send: postJson(t, JSON.stringify(Array.from({ length: 500_000 }, (_, i) => [i, i]))),
      expect: invalid,
    },
  ]
}

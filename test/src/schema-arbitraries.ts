import fc from 'fast-check'

// fast-check arbitraries from the JSON Schema subset the OpenAPI document uses (type, enum,
// anyOf, properties/required/additionalProperties, items, lengths, ranges, pattern, format).
// Three flavours: values the schema accepts, values at its edges, and values it should refuse.
// Whether an "invalid" value really is invalid is not checked: the fuzzing asserts only how the
// service answers (never a 5xx; every 4xx a known problem), so a miss costs nothing.

export type Schema = Record<string, unknown>
export type Flavour = 'valid' | 'boundary' | 'invalid'

const MAX_DEPTH = 4
/** Lengths and counts the schema leaves open get a ceiling, so requests stay small. */
const OPEN_LENGTH = 40
const OPEN_ITEMS = 4
/** An exact maximum above this is sent at this length instead (a boundary, not a memory test). */
const BIG_LENGTH = 70_000

/** Strings that trip careless code: NUL, lone surrogates, RTL marks, HTML, SQL, template syntax. */
const NASTY_STRINGS = [
  '',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff\ud800',
  '\u202e\u200b\ufeff',
  '👩‍👩‍👧‍👦🏳️‍🌈',
  '<script>alert(1)</script>',
  "'; drop table renders; --",
  '{{ 7 * 7 }}{% for x in (1..1000000) %}',
  '../../../../etc/passwd',
  '%00%2e%2e%2f',
  'null',
  '__proto__',
  ' ',
  '\r\n\r\nX-Injected: 1',
]

/** Outbound URLs stay on literal addresses or reserved names: fuzzing sends nothing to the internet. */
const URLS = [
  'https://93.184.215.14/hook',
  'http://127.0.0.1:1/x',
  'http://[::1]/x',
  'http://169.254.169.254/latest/meta-data/',
  'https://localhost:8443/',
  'file:///etc/passwd',
  'ftp://example.invalid/x',
  'https://user:secret@example.invalid/',
  'javascript:alert(1)',
  'not a url',
  'data:text/html,<p>x</p>',
]

const types = (s: Schema): string[] =>
  typeof s.type === 'string' ? [s.type] : Array.isArray(s.type) ? (s.type as string[]) : []
const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined)

function anyJson(depth: number): fc.Arbitrary<unknown> {
  return fc.jsonValue({ maxDepth: Math.max(0, MAX_DEPTH - depth) })
}

/** A value of some JSON type other than those the schema allows. */
function wrongType(s: Schema): fc.Arbitrary<unknown> {
  const allowed = new Set(types(s))
  if (allowed.has('integer')) allowed.add('number')
  const all: [string, fc.Arbitrary<unknown>][] = [
    ['string', fc.constantFrom('7', 'true', '', '[]')],
    ['number', fc.constantFrom(1.5, -1, 0, 1e308)],
    ['boolean', fc.boolean()],
    ['null', fc.constant(null)],
    ['array', fc.constantFrom([], [1], ['a', 'b'])],
    ['object', fc.constantFrom({}, { a: 1 })],
  ]
  const others = all.filter(([t]) => !allowed.has(t)).map(([, a]) => a)
  // a schema allowing every type has no wrong one: a value it accepts does no harm
  return others.length > 0 ? fc.oneof(...others) : anyJson(0)
}

function stringValue(s: Schema, flavour: Flavour, name: string): fc.Arbitrary<string> {
  const min = num(s.minLength) ?? 0
  const max = num(s.maxLength)
  if (typeof s.pattern === 'string') return fc.stringMatching(new RegExp(s.pattern))
  if (s.format === 'date-time') return fc.date({ noInvalidDate: true }).map((d) => d.toISOString())
  if (/url|uri/i.test(name)) return fc.constantFrom(...URLS)
  const cap = Math.max(min, Math.min(max ?? OPEN_LENGTH, OPEN_LENGTH))
  const text = fc.string({
    minLength: min,
    maxLength: cap,
    unit: fc.constantFrom('grapheme', 'binary', 'grapheme-ascii') as never,
  })
  const nasty = fc
    .constantFrom(...NASTY_STRINGS)
    .filter((v) => v.length >= min && (max === undefined || v.length <= max))
  if (flavour === 'boundary') {
    const edges = [min, ...(max !== undefined ? [Math.min(max, BIG_LENGTH)] : [BIG_LENGTH])]
    return fc.oneof(
      fc.constantFrom(...edges).map((n) => 'x'.repeat(n)),
      nasty,
      text,
    )
  }
  return fc.oneof({ arbitrary: text, weight: 4 }, { arbitrary: nasty, weight: 1 })
}

function invalidString(s: Schema): fc.Arbitrary<unknown> {
  const min = num(s.minLength)
  const max = num(s.maxLength)
  const options: fc.Arbitrary<unknown>[] = [wrongType(s)]
  if (min !== undefined && min > 0) options.push(fc.constant('y'.repeat(min - 1)))
  if (max !== undefined) options.push(fc.constant('y'.repeat(Math.min(max + 1, BIG_LENGTH + 1))))
  if (typeof s.pattern === 'string') options.push(fc.constantFrom('x', 'tpl_', 'TPL_ABC', '1 ', '-1'))
  if (s.format === 'date-time') options.push(fc.constantFrom('2026-13-45', 'yesterday', '0', ''))
  return fc.oneof(...options)
}

function numberValue(s: Schema, flavour: Flavour): fc.Arbitrary<number> {
  const integer = types(s).includes('integer')
  const min = num(s.minimum) ?? (integer ? Number.MIN_SAFE_INTEGER : -1e12)
  const max = num(s.maximum) ?? (integer ? Number.MAX_SAFE_INTEGER : 1e12)
  if (flavour === 'boundary') return fc.constantFrom(min, max, ...(min <= 0 && max >= 0 ? [0] : []))
  // small whole numbers inside the range (a number's bounds need not be whole: scale 0.1 to 2)
  const low = Math.max(Math.ceil(min), -1000)
  const high = Math.min(Math.floor(max), 1000)
  const any = integer
    ? fc.integer({ min: Math.ceil(min), max: Math.floor(max) })
    : fc.double({ min, max, noNaN: true, noDefaultInfinity: true })
  return low <= high ? fc.oneof(fc.integer({ min: low, max: high }), any) : any
}

function invalidNumber(s: Schema): fc.Arbitrary<unknown> {
  const options: fc.Arbitrary<unknown>[] = [wrongType(s)]
  const min = num(s.minimum)
  const max = num(s.maximum)
  if (min !== undefined) options.push(fc.constant(min - 1))
  if (max !== undefined) options.push(fc.constant(max + 1))
  if (types(s).includes('integer')) options.push(fc.constantFrom(1.5, 2 ** 64, -(2 ** 63) - 1))
  return fc.oneof(...options)
}

function arrayValue(s: Schema, flavour: Flavour, depth: number, name: string): fc.Arbitrary<unknown[]> {
  const items = (s.items as Schema | undefined) ?? {}
  const item = arbitraryFor(items, flavour === 'boundary' ? 'valid' : flavour, depth + 1, name)
  const minLength = num(s.minItems) ?? 0
  const maxItems = num(s.maxItems)
  if (flavour === 'boundary' && maxItems !== undefined && !s.uniqueItems) {
    const at = Math.min(maxItems, 1000)
    return fc.oneof(
      fc.array(item, { minLength: at, maxLength: at }),
      fc.array(item, { minLength, maxLength: minLength }),
    )
  }
  const maxLength = Math.max(minLength, Math.min(maxItems ?? OPEN_ITEMS, OPEN_ITEMS))
  return s.uniqueItems
    ? fc.uniqueArray(item, { minLength, maxLength, selector: (v) => JSON.stringify(v) })
    : fc.array(item, { minLength, maxLength })
}

function invalidArray(s: Schema, depth: number, name: string): fc.Arbitrary<unknown> {
  const items = (s.items as Schema | undefined) ?? {}
  const options: fc.Arbitrary<unknown>[] = [
    wrongType(s),
    fc.array(arbitraryFor(items, 'invalid', depth + 1, name), { minLength: 1, maxLength: 3 }),
  ]
  const maxItems = num(s.maxItems)
  if (maxItems !== undefined)
    options.push(
      fc.array(arbitraryFor(items, 'valid', depth + 1, name), {
        minLength: Math.min(maxItems + 1, 1001),
        maxLength: Math.min(maxItems + 1, 1001),
      }),
    )
  const minItems = num(s.minItems)
  if (minItems !== undefined && minItems > 0) options.push(fc.constant([]))
  return fc.oneof(...options)
}

function objectValue(s: Schema, flavour: Flavour, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const properties = (s.properties as Record<string, Schema> | undefined) ?? {}
  const required = (s.required as string[] | undefined) ?? []
  if (depth >= MAX_DEPTH) {
    // deep enough: only what must be there
    const model = Object.fromEntries(
      required.map((k) => [k, arbitraryFor(properties[k] ?? {}, 'valid', depth + 1, k)]),
    )
    return fc.record(model) as fc.Arbitrary<Record<string, unknown>>
  }
  const model = Object.fromEntries(
    Object.entries(properties).map(([k, v]) => [k, arbitraryFor(v, flavour, depth + 1, k)]),
  )
  const requiredKeys = required.filter((k) => k in properties)
  const optional = Object.keys(properties).filter((k) => !requiredKeys.includes(k))
  const anySubset = fc.record(model, { requiredKeys })
  // rules the schema cannot say (exactly one of several sources; fields that exclude each other)
  // pass more often with few optional fields: the handlers behind them get reached
  const pick = (keys: string[]) =>
    fc.record(Object.fromEntries(keys.map((k) => [k, model[k] as fc.Arbitrary<unknown>])))
  const sparse = [pick(requiredKeys), ...optional.map((k) => pick([...requiredKeys, k]))]
  const known = optional.length > 0 ? fc.oneof(anySubset, fc.oneof(...sparse)) : anySubset
  const extra = s.additionalProperties
  if (extra === false || Object.keys(properties).length > 0)
    return known as fc.Arbitrary<Record<string, unknown>>
  const values =
    extra && typeof extra === 'object' && Object.keys(extra).length > 0
      ? arbitraryFor(extra as Schema, flavour, depth + 1, '')
      : anyJson(depth + 1)
  const maxKeys = Math.min(num(s.maxProperties) ?? OPEN_ITEMS, OPEN_ITEMS)
  return fc.dictionary(fc.string({ maxLength: 12 }), values, { maxKeys }) as fc.Arbitrary<
    Record<string, unknown>
  >
}

function invalidObject(s: Schema, depth: number): fc.Arbitrary<unknown> {
  const properties = (s.properties as Record<string, Schema> | undefined) ?? {}
  const required = (s.required as string[] | undefined) ?? []
  const valid = objectValue(s, 'valid', depth)
  const options: fc.Arbitrary<unknown>[] = [wrongType(s)]
  if (required.length > 0)
    options.push(
      fc.tuple(valid, fc.constantFrom(...required)).map(([v, k]) => {
        const { [k]: _dropped, ...rest } = v
        return rest
      }),
    )
  if (s.additionalProperties === false)
    options.push(
      fc
        .tuple(valid, fc.constantFrom('unknown_field', '__proto__', 'constructor', 'a/b~c', ''))
        .map(([v, k]) => {
          const out = { ...v }
          Object.defineProperty(out, k, { value: 1, enumerable: true, configurable: true, writable: true })
          return out
        }),
    )
  const names = Object.keys(properties)
  if (names.length > 0 && depth < MAX_DEPTH)
    options.push(
      fc
        .constantFrom(...names)
        .chain((k) =>
          fc.tuple(valid, fc.constant(k), arbitraryFor(properties[k] as Schema, 'invalid', depth + 1, k)),
        )
        .map(([v, k, bad]) => ({ ...v, [k]: bad })),
    )
  const maxProperties = num(s.maxProperties)
  if (maxProperties !== undefined)
    options.push(
      fc.constant(Object.fromEntries(Array.from({ length: maxProperties + 1 }, (_, i) => [`k${i}`, 'v']))),
    )
  return fc.oneof(...options)
}

/** An arbitrary for `schema` in the given flavour; `name` is the property it sits under. */
export function arbitraryFor(s: Schema, flavour: Flavour, depth = 0, name = ''): fc.Arbitrary<unknown> {
  if (Array.isArray(s.anyOf)) {
    const branches = (s.anyOf as Schema[]).map((b) => arbitraryFor(b, flavour, depth, name))
    return flavour === 'invalid' ? fc.oneof(wrongType({ type: [] }), ...branches) : fc.oneof(...branches)
  }
  if (Array.isArray(s.enum)) {
    const allowed = s.enum as unknown[]
    if (flavour !== 'invalid') return fc.constantFrom(...allowed)
    return fc.oneof(
      fc.constantFrom('', 'UNKNOWN', `${String(allowed[0])} `, String(allowed[0]).toUpperCase()),
      wrongType(s),
    )
  }
  if ('const' in s) return flavour === 'invalid' ? wrongType(s) : fc.constant(s.const)
  const [type] = types(s)
  if (type === undefined) return anyJson(depth)
  switch (type) {
    case 'string':
      return flavour === 'invalid' ? invalidString(s) : stringValue(s, flavour, name)
    case 'integer':
    case 'number':
      return flavour === 'invalid' ? invalidNumber(s) : numberValue(s, flavour)
    case 'boolean':
      return flavour === 'invalid' ? wrongType(s) : fc.boolean()
    case 'null':
      return flavour === 'invalid' ? wrongType(s) : fc.constant(null)
    case 'array':
      return flavour === 'invalid' ? invalidArray(s, depth, name) : arrayValue(s, flavour, depth, name)
    case 'object':
      return flavour === 'invalid' ? invalidObject(s, depth) : objectValue(s, flavour, depth)
    default:
      return anyJson(depth)
  }
}

/** The smallest value the schema accepts: required properties only, shortest strings, lowest numbers. */
export function minimalValue(s: Schema): unknown {
  if (Array.isArray(s.anyOf)) return minimalValue((s.anyOf as Schema[])[0] as Schema)
  if (Array.isArray(s.enum)) return (s.enum as unknown[])[0]
  if ('const' in s) return s.const
  if ('default' in s) return s.default
  const [type] = types(s)
  switch (type) {
    case 'string':
      if (typeof s.pattern === 'string')
        return fc.sample(fc.stringMatching(new RegExp(s.pattern)), { seed: 1, numRuns: 1 })[0]
      if (s.format === 'date-time') return new Date(0).toISOString()
      return 'x'.repeat(Math.max(1, num(s.minLength) ?? 0))
    case 'integer':
    case 'number':
      return num(s.minimum) ?? 1
    case 'boolean':
      return false
    case 'null':
      return null
    case 'array': {
      const n = num(s.minItems) ?? 0
      return Array.from({ length: n }, () => minimalValue((s.items as Schema) ?? {}))
    }
    case 'object': {
      const properties = (s.properties as Record<string, Schema> | undefined) ?? {}
      const required = (s.required as string[] | undefined) ?? []
      return Object.fromEntries(required.map((k) => [k, minimalValue(properties[k] ?? {})]))
    }
    default:
      return {}
  }
}

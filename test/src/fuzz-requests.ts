import fc from 'fast-check'
import { multipartBody } from '../../core/src/uploads/multipart-body.fixture.ts'
import { fillPath, type Operation, pathParams } from './openapi-document.ts'
import type { ResourceIds } from './resource-fixtures.ts'
import { arbitraryFor, type Flavour, type Schema } from './schema-arbitraries.ts'

// One HTTP request per draw for an operation of the OpenAPI document: path parameters, query
// string, headers and body generated from the operation's schemas, in one of three flavours.

export interface FuzzRequest {
  flavour: Flavour
  method: string
  /** path and query, percent-encoded */
  target: string
  headers: Record<string, string>
  body?: string | Buffer
}

export interface FuzzKeys {
  test: string
  live: string
}

/** Path parameter values: a real id of the workspace, a well-formed stranger, or junk. */
function pathValue(name: string, ids: ResourceIds, flavour: Flavour, method: string): fc.Arbitrary<string> {
  // a DELETE of a fixture would leave the rest of the run a 410 for it
  const known = method === 'delete' ? undefined : ids[name]
  const lookalike = known
    ? fc.stringMatching(/^[0-9a-z]{1,40}$/).map((tail) => `${known.replace(/_.*$/, '_')}${tail}`)
    : fc.stringMatching(/^[a-z]{2,4}_[0-9a-z]{20,30}$/)
  const junk = fc.oneof(
    fc.string({ minLength: 1, maxLength: 60, unit: 'binary' }),
    fc.constantFrom('..', '.', '%', '0', '-1', '99999999999999999999', 'null', 'x'.repeat(2000)),
  )
  if (flavour === 'invalid') return junk
  return known ? fc.oneof({ arbitrary: fc.constant(known), weight: 3 }, lookalike) : lookalike
}

function queryString(operation: Operation, flavour: Flavour): fc.Arbitrary<[string, string][]> {
  const query = (operation.parameters ?? []).filter((p) => p.in === 'query')
  const pairs = query.map((p) => {
    const value = arbitraryFor((p.schema ?? {}) as Schema, flavour, 1, p.name).map((v): string[] =>
      Array.isArray(v)
        ? v.map((x) => (typeof x === 'string' ? x : JSON.stringify(x)))
        : [typeof v === 'string' ? v : JSON.stringify(v)],
    )
    const present = p.required ? fc.constant(true) : fc.boolean()
    return fc
      .tuple(present, value)
      .map(([on, values]) => (on ? values.map((v): [string, string] => [p.name, v]) : []))
  })
  if (flavour !== 'invalid') return fc.tuple(...pairs).map((known) => known.flat())
  const unknown = fc.oneof(
    { arbitrary: fc.constant([] as [string, string][]), weight: 2 },
    fc.constantFrom<[string, string][]>(
      [['unknown', '1']],
      [['__proto__[x]', '1']],
      [
        ['limit', '1'],
        ['limit', '2'],
      ],
      [['cursor', '!!!not-a-cursor']],
    ),
  )
  return fc.tuple(fc.tuple(...pairs), unknown).map(([known, extra]) => [...known.flat(), ...extra])
}

/**
 * Headers a client may send: its key (the test key; now and then the live one), a content type,
 * extras. Valid and boundary requests keep to what the API takes; invalid ones may drop the key
 * or send another content type.
 */
function headersFor(
  keys: FuzzKeys,
  hasBody: boolean,
  flavour: Flavour,
): fc.Arbitrary<Record<string, string>> {
  const valid = flavour !== 'invalid'
  const auth = fc.oneof(
    { arbitrary: fc.constant({ authorization: `Bearer ${keys.test}` }), weight: 8 },
    fc.constant({ 'x-api-key': keys.test }),
    fc.constant({ authorization: `Bearer ${keys.live}` }),
    ...(valid ? [] : [fc.constant({})]),
  )
  const contentType = !hasBody
    ? fc.constant(undefined)
    : valid
      ? fc.constantFrom('application/json', 'application/json; charset=utf-8')
      : fc.constantFrom(
          'application/json',
          'application/json; charset=utf-8',
          'application/json; charset=latin1',
          'text/plain',
          'application/x-www-form-urlencoded',
          'multipart/form-data; boundary=x',
          'application/problem+json',
        )
  const ascii = fc.string({ unit: 'binary-ascii', maxLength: 80 }).map((s) => s.replace(/[^\x20-\x7e]/g, ''))
  const extras = fc.record(
    {
      'idempotency-key': valid ? fc.uuid() : fc.oneof(ascii, fc.constant('k'.repeat(300))),
      'x-request-id': ascii,
      accept: fc.constantFrom(
        'application/pdf',
        '*/*',
        'text/html',
        'image/png;q=0.5',
        'application/problem+json',
      ),
      'accept-encoding': fc.constantFrom('gzip', 'br', 'identity;q=0', '*'),
      range: fc.constantFrom('bytes=0-10', 'bytes=-5', 'bytes=10-0', 'items=1-2'),
      'if-none-match': fc.constantFrom('*', '"x"', 'W/"y"'),
    },
    { requiredKeys: [] },
  )
  return fc.tuple(auth, contentType, extras).map(([a, type, extra]) => ({
    ...a,
    ...(type ? { 'content-type': type } : {}),
    ...extra,
  }))
}

/**
 * A body for an operation without a JSON body (POSTs without input; the upload, whose documented
 * multipart form is built here):
 * valid is none at all or one file in the field `file`; invalid is anything else.
 */
function undocumentedBody(flavour: Flavour): fc.Arbitrary<{ body?: Buffer; type?: string }> {
  if (flavour !== 'invalid')
    return fc.oneof(
      fc.constant({}),
      fc.constantFrom('%PDF-1.4\n%%EOF\n', 'a,b\n1,2\n').map((text) => {
        const { payload, headers } = multipartBody([
          {
            name: 'file',
            value: text,
            filename: text.startsWith('%PDF') ? 'doc.pdf' : 'data.csv',
            contentType: text.startsWith('%PDF') ? 'application/pdf' : 'text/csv',
          },
        ])
        return { body: payload, type: headers['content-type'] as string }
      }),
    )
  return fc.oneof(
    fc.constant({}),
    fc.constant({ body: Buffer.from('{}'), type: 'application/json' }),
    fc
      .uint8Array({ maxLength: 300 })
      .map((b) => ({ body: Buffer.from(b), type: 'application/octet-stream' })),
    fc
      .tuple(
        fc.constantFrom('file', 'files', 'upload', ''),
        fc.uint8Array({ maxLength: 200 }),
        fc.constantFrom(
          'doc.pdf',
          'data.csv',
          '../../etc/passwd',
          'ünï.pdf',
          'a.pdf\u0000.exe',
          '',
          'a'.repeat(300),
        ),
        fc.constantFrom('application/pdf', 'text/csv', 'image/png', 'application/x-msdownload'),
        fc.boolean(),
      )
      .map(([name, bytes, filename, contentType, pdfHead]) => {
        const value = Buffer.concat([Buffer.from(pdfHead ? '%PDF-1.4\n' : ''), Buffer.from(bytes)])
        const { payload, headers } = multipartBody([{ name, value, filename, contentType }])
        return { body: payload, type: headers['content-type'] as string }
      }),
  )
}

/** The value with every `<thing>_id` field the fixtures know set to the fixture's id. */
function withKnownIds(value: unknown, ids: ResourceIds): unknown {
  if (Array.isArray(value)) return value.map((v) => withKnownIds(v, ids))
  if (value === null || typeof value !== 'object') return value
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [
      k,
      k.endsWith('_id') && typeof v === 'string' && ids[k] !== undefined ? ids[k] : withKnownIds(v, ids),
    ]),
  )
}

/** Bodies that are not JSON at all, for operations that take JSON. */
const NOT_JSON = fc.oneof(
  fc.constantFrom('', '{', '{"a":', 'nul', '[1,]', '{"a":1}{"b":2}', '\ufeff{}', '{"a":NaN}'),
  fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b).toString('latin1')),
)

/** Render-creating operations wait for their render when sync: a sync render needs the worker. */
export function requestsFor(
  path: string,
  method: string,
  operation: Operation,
  ids: ResourceIds,
  keys: FuzzKeys,
): fc.Arbitrary<FuzzRequest> {
  const schema = operation.requestBody?.content['application/json']?.schema as Schema | undefined
  const params = pathParams(path)
  // each flavour's arbitrary is built once: building one per draw costs more than drawing
  const build = (flavour: Flavour): fc.Arbitrary<FuzzRequest> => {
    const values = fc.tuple(...params.map((p) => pathValue(p, ids, flavour, method)))
    const jsonBody: fc.Arbitrary<{ body?: string; type?: string }> = schema
      ? flavour === 'invalid'
        ? fc.oneof(
            {
              arbitrary: arbitraryFor(schema, flavour).map((v) => ({ body: JSON.stringify(v) ?? 'null' })),
              weight: 4,
            },
            NOT_JSON.map((body) => ({ body })),
          )
        : fc
            .tuple(arbitraryFor(schema, flavour), fc.boolean())
            .map(([v, plant]) => ({ body: JSON.stringify(plant ? withKnownIds(v, ids) : v) ?? 'null' }))
      : method === 'get' || method === 'delete'
        ? fc.constant({})
        : undocumentedBody(flavour)
    const hasBody = schema !== undefined
    return fc
      .tuple(values, queryString(operation, flavour), headersFor(keys, hasBody, flavour), jsonBody)
      .map(([pathValues, query, headers, { body, type }]): FuzzRequest => {
        const filled = fillPath(path, Object.fromEntries(params.map((p, i) => [p, pathValues[i] as string])))
        const search = new URLSearchParams(query).toString()
        const all = { ...headers, ...(type ? { 'content-type': type } : {}) }
        if (body === undefined) delete all['content-type']
        return {
          flavour,
          method: method.toUpperCase(),
          target: search ? `${filled}?${search}` : filled,
          headers: all,
          ...(body !== undefined ? { body } : {}),
        }
      })
  }
  return fc.oneof(
    { arbitrary: build('valid'), weight: 2 },
    { arbitrary: build('boundary'), weight: 1 },
    { arbitrary: build('invalid'), weight: 2 },
  )
}

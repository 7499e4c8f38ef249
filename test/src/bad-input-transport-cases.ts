import type { BadInputCase, BadInputTarget } from './bad-input-case.ts'
import type { SeededRandom } from './seeded-random.ts'
import { type RequestSpec, sendRaw, sendRequest } from './wire-client.ts'

// Cases aimed at the HTTP layer itself: bytes that are not HTTP, oversized and malformed
// headers, garbled credentials, unknown methods. Sent over node:net so nothing is cleaned up.

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'
const ALNUM = `${UPPER}abcdefghijklmnopqrstuvwxyz0123456789`
const PRINTABLE = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join('')
const KEY_CODES = ['authentication_required', 'invalid_api_key'] as const

/** No key and a path that needs one, or no route: the answer is a 4xx whatever the headers say. */
function unkeyedTarget(r: SeededRandom): Pick<RequestSpec, 'method' | 'target' | 'body'> {
  return r.pick([
    { method: 'GET', target: '/v1/account' },
    { method: 'POST', target: '/v1/probe/itm_1', body: '{"name":"a"}' },
    { method: 'GET', target: '/not-a-route/x' },
    { method: 'DELETE', target: '/v1/account' },
  ])
}

export function garbageRequests(r: SeededRandom, { port }: BadInputTarget, count: number): BadInputCase[] {
  const makers: [string, () => Buffer | string][] = [
    ['random bytes', () => r.bytes(r.int(1, 2048))],
    [
      'request line + binary',
      () => Buffer.concat([Buffer.from('GET / HTTP/1.1\r\n'), r.bytes(r.int(1, 1024))]),
    ],
    ['printable junk', () => `${r.text(r.int(1, 200), PRINTABLE)}\r\n\r\n`],
    ['unknown method token', () => `${r.text(r.int(3, 10), UPPER)} /v1/account HTTP/1.1\r\nHost: x\r\n\r\n`],
    [
      'bad version',
      () => `GET /v1/account HTTP/${r.pick(['9.9', '0.9', '1', '2.0', 'x', '1.1.1'])}\r\nHost: x\r\n\r\n`,
    ],
    [
      'TLS hello on plain port',
      () => Buffer.concat([Buffer.from([0x16, 0x03, 0x01, 0x02, 0x00, 0x01]), r.bytes(200)]),
    ],
    ['HTTP/2 preface', () => Buffer.concat([Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'), r.bytes(64)])],
    [
      'binary header line',
      () =>
        Buffer.concat([
          Buffer.from('GET /v1/account HTTP/1.1\r\nHost: x\r\n'),
          r.bytes(r.int(1, 300)),
          Buffer.from('\r\n\r\n'),
        ]),
    ],
    ['truncated request', () => 'GET /v1/account HTTP/1.1\r\nHost: x\r\nX-Half: '],
  ]
  return Array.from({ length: count }, (_, i) => {
    const [kind, make] = makers[i % makers.length] as [string, () => Buffer | string]
    const bytes = make()
    return {
      label: `garbage/${kind}(${bytes.length} bytes)`,
      // half-close: a parser still waiting for more meets end of input instead of our timeout
      send: () => sendRaw(port, bytes, { halfClose: true }),
    }
  })
}

export function oversizedHeaders(r: SeededRandom, { port }: BadInputTarget): BadInputCase[] {
  const big = (n: number) => r.text(n, ALNUM)
  const specs: [string, RequestSpec][] = [
    ['one 64-256 KB header', { target: '/v1/account', headers: [['X-Filler', big(r.int(65_536, 262_144))]] }],
    [
      'thousands of headers',
      {
        target: '/v1/account',
        headers: Array.from({ length: r.int(1000, 3000) }, (_, i) => [`X-H${i}`, big(30)]),
      },
    ],
    ['70 KB path', { target: `/v1/${big(70_000)}` }],
    ['70 KB query', { target: `/v1/probe?q=${big(70_000)}` }],
    ['64 KB bearer key', { target: '/v1/account', headers: [['Authorization', `Bearer ${big(65_536)}`]] }],
    ['70 KB X-API-Key', { target: '/v1/account', headers: [['X-API-Key', big(70_000)]] }],
    ['80 KB cookie', { target: '/v1/account', headers: [['Cookie', `s=${big(80_000)}`]] }],
    ['64 KB of unicode', { target: '/v1/account', headers: [['X-Text', Buffer.from(r.unicode(20_000))]] }],
    [
      '64 KB header on POST',
      { method: 'POST', target: '/v1/probe/itm_1', headers: [['X-Filler', big(65_536)]], body: '{}' },
    ],
  ]
  return specs.map(([kind, spec]) => ({
    label: `oversized headers/${kind}`,
    send: () => sendRequest(port, spec, { halfClose: r.next() < 0.5 }),
    expect: { status: 431, codes: ['headers_too_large'] },
  }))
}

export function malformedHeaders(r: SeededRandom, { port }: BadInputTarget, count: number): BadInputCase[] {
  const ctl = () => String.fromCharCode(r.pick([0, 1, 2, 7, 8, 0x0b, 0x0c, 0x0e, 0x1b, 0x1f, 0x7f]))
  const mutations: [string, () => [string, string | Buffer][]][] = [
    ['control character in value', () => [['X-Thing', `a${ctl()}b`]]],
    ['NUL in value', () => [['X-Thing', Buffer.from([0x61, 0x00, 0x62])]]],
    ['bare CR in value', () => [['X-Thing', 'a\rb']]],
    ['LF injection', () => [['X-Thing', 'a\nX-Injected: 1']]],
    ['space in name', () => [['X Bad', '1']]],
    ['separator in name', () => [[r.pick(['X(b)', 'X@b', 'X"b"', 'X,b', 'X/b', '[x]']), '1']]],
    ['unicode name', () => [[r.unicode(r.int(1, 8)).replace(/[\r\n:]/g, 'x'), '1']]],
    ['empty name', () => [['', ': value']]],
    ['no colon', () => [['', 'NoColonHere']]],
    ['obs-fold', () => [['X-Fold', 'a\r\n  folded']]],
    [
      'bad Content-Length',
      () => [['Content-Length', r.pick(['-1', 'abc', '1,2', '99999999999999999999', '0x10', '1e3', '+5'])]],
    ],
    [
      'two Content-Lengths',
      () => [
        ['Content-Length', '12'],
        ['Content-Length', '13'],
      ],
    ],
    [
      'bad Transfer-Encoding',
      () => [
        ['Transfer-Encoding', r.pick(['chunked, identity', 'gzip', 'xchunked', 'chunked\x0b', 'identity'])],
      ],
    ],
    [
      'Content-Length and Transfer-Encoding',
      () => [
        ['Content-Length', '5'],
        ['Transfer-Encoding', 'chunked'],
      ],
    ],
    [
      'unicode Content-Type',
      () => [['Content-Type', Buffer.from(r.unicode(r.int(1, 40)).replace(/[\r\n]/g, ' '))]],
    ],
    ['unicode Host', () => [['Host', Buffer.from(r.unicode(r.int(1, 30)).replace(/[\r\n]/g, ' '))]]],
    ['second Host', () => [['Host', 'evil.example']]],
    ['latin-1 Accept', () => [['Accept', Buffer.from([0xe9, 0xff, 0xa0, 0x80])]]],
    ['odd Expect', () => [['Expect', r.pick(['200-ok', '100-continue, x', 'ä'])]]],
    [
      'junk Upgrade',
      () => [
        ['Connection', 'Upgrade'],
        ['Upgrade', r.text(r.int(1, 20), PRINTABLE)],
      ],
    ],
    ['junk Range', () => [['Range', r.text(r.int(1, 60), PRINTABLE)]]],
  ]
  return Array.from({ length: count }, (_, i) => {
    const [kind, mutate] = mutations[i % mutations.length] as [string, () => [string, string | Buffer][]]
    const target = unkeyedTarget(r)
    const spec: RequestSpec = { ...target, headers: mutate() }
    return {
      label: `malformed header/${kind} on ${target.method} ${target.target}`,
      send: () => sendRequest(port, spec, { halfClose: true }),
    }
  })
}

/** The valid key with one thing wrong: always 401 invalid_api_key. */
function nearValidKeys(r: SeededRandom, key: string): string[] {
  const flip = (s: string, at: number) => s.slice(0, at) + (s[at] === 'a' ? 'b' : 'a') + s.slice(at + 1)
  return [
    flip(key, key.length - 1 - r.int(0, 39)),
    flip(key, 9 + r.int(0, 23)),
    key.replace(/^doc_(test|live)_/, (_m, mode: string) => `doc_${mode === 'test' ? 'live' : 'test'}_`),
    key.slice(0, -1),
    `${key}x`,
    key.toUpperCase(),
    key.replace(/_/g, '-'),
  ]
}

export function garbledKeys(r: SeededRandom, { port, key }: BadInputTarget, count: number): BadInputCase[] {
  const cases: BadInputCase[] = []
  for (const header of ['Authorization', 'X-API-Key'] as const) {
    const wrap = (v: string | Buffer): string | Buffer =>
      header === 'X-API-Key' ? v : Buffer.concat([Buffer.from('Bearer '), Buffer.from(v)])
    const garbles: [string, () => string | Buffer, boolean][] = [
      // [kind, value, does Node's parser let it through to us]
      ['random unicode', () => Buffer.from(r.unicode(r.int(1, 200)).replace(/[\r\n\0]/g, '?')), true],
      ['10 KB string', () => r.text(10_240, ALNUM), true],
      ['3000 code points', () => Buffer.from(r.unicode(3000).replace(/[\r\n\0]/g, '?')), true],
      ['NUL inside', () => Buffer.from(`doc_test_${r.text(10, ALNUM)}\0${r.text(10, ALNUM)}`), false],
      [
        'latin-1 bytes',
        () => Buffer.from(Array.from({ length: r.int(1, 64) }, () => r.int(0x80, 0xff))),
        true,
      ],
      ['printable junk', () => r.text(r.int(1, 300), PRINTABLE).trim() || 'x', true],
    ]
    for (let i = 0; i < count; i++) {
      const [kind, make, reachesUs] = garbles[i % garbles.length] as [string, () => string | Buffer, boolean]
      const value = wrap(make())
      cases.push({
        label: `garbled ${header}/${kind}`,
        send: () =>
          sendRequest(
            port,
            { target: '/v1/account', headers: [[header, value]] },
            { halfClose: r.next() < 0.5 },
          ),
        expect: reachesUs ? { status: 401, codes: KEY_CODES } : { status: (s) => s === 400 || s === 401 },
      })
    }
    for (const near of nearValidKeys(r, key)) {
      cases.push({
        label: `near-valid ${header}`,
        send: () => sendRequest(port, { target: '/v1/account', headers: [[header, wrap(near)]] }),
        expect: { status: 401, codes: ['invalid_api_key'] },
      })
    }
  }
  const schemes = [
    'Basic dXNlcjpwYXNz',
    'Bearer',
    'Bearer ',
    'Token abc',
    'Bearer a b',
    'bearer\tx',
    'Bearer\u00a0x',
  ]
  for (const value of schemes) {
    cases.push({
      label: `Authorization scheme ${JSON.stringify(value)}`,
      send: () =>
        sendRequest(port, {
          target: '/v1/account',
          headers: [['Authorization', Buffer.from(value, 'latin1')]],
        }),
      expect: { status: 401, codes: KEY_CODES },
    })
  }
  return cases
}

const ROUTABLE_METHODS = [
  'GET',
  'POST',
  'PUT',
  'PATCH',
  'DELETE',
  'OPTIONS',
  'TRACE',
  'PROPFIND',
  'PROPPATCH',
  'MKCOL',
  'COPY',
  'MOVE',
  'LOCK',
  'UNLOCK',
  'SEARCH',
  'PURGE',
  'REPORT',
  'MKACTIVITY',
  'CHECKOUT',
  'MERGE',
  'M-SEARCH',
  'NOTIFY',
  'SUBSCRIBE',
  'UNSUBSCRIBE',
  'LINK',
  'UNLINK',
  'SOURCE',
  'QUERY',
  'ACL',
  'BIND',
  'MKCALENDAR',
]
const INVALID_METHODS = [
  'get',
  'GETT',
  'FOO',
  'G@T',
  'BREW',
  'DESCRIBE',
  'SETUP',
  'PLAY',
  'TEARDOWN',
  'X'.repeat(40),
]
const UNROUTED_PATHS = [
  '/',
  '/v1',
  '/v1/',
  '/v2/account',
  '/v1/accounts',
  '/v1/account/extra',
  '/admin/v1/workspaces',
  '/v1/openapi.json/x',
  '/docs/errors/nope',
  '/.env',
  '/%2e%2e/%2e%2e/etc/passwd',
  '/v1/probe/itm_1/x',
]

export function unknownRoutesAndMethods(
  r: SeededRandom,
  { port }: BadInputTarget,
  count: number,
): BadInputCase[] {
  const cases: BadInputCase[] = Array.from({ length: count }, () => {
    const method = r.next() < 0.8 ? r.pick(ROUTABLE_METHODS) : r.pick(INVALID_METHODS)
    const target = r.next() < 0.8 ? r.pick(UNROUTED_PATHS) : `/${r.text(r.int(1, 40), ALNUM)}`
    return {
      label: `method/route ${method} ${target}`,
      send: () => sendRequest(port, { method, target }, { halfClose: true }),
    }
  })
  cases.push({
    label: 'CONNECT (Node drops these unless someone answers)',
    send: () => sendRequest(port, { method: 'CONNECT', target: 'example.com:443' }),
    expect: { status: 405, codes: ['method_not_allowed'] },
  })
  cases.push({
    label: 'HEAD on a key-guarded route',
    send: () => sendRequest(port, { method: 'HEAD', target: '/v1/account' }),
    expect: { status: 401, head: true },
  })
  return cases
}
